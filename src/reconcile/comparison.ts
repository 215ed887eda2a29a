/**
 * The one comparison of a desired object with the API's (docs/architecture.md,
 * "Field paths"): built once per provider and desired object from the rules of
 * the kind's field table, which name fields by dotted paths and hold at any
 * depth. The planner (and so drift), and the executor's read-back after a lost
 * answer, compare and build update bodies through it and nowhere else.
 */
import { type DiffOptions, diffFields, fieldsToSend } from './diff.ts';
import { getPath, isWithin, setPath, withoutPaths } from './field-paths.ts';
import { ignoredPaths } from './ignore.ts';
import type { Provider } from './provider.ts';
import type { DesiredObject, FieldChange, Fields } from './types.ts';

export interface Comparison {
  /**
   * The canonical desired fields: defaults applied, values normalized; what a create sends. An
   * ignored field is in it only where the manifest writes it (a default is left to the service).
   */
  readonly fields: Fields;
  /** The object's write-only paths (per object: a test variable's value only when sensitive). */
  readonly writeOnly: readonly string[];
  /** What an existing object is compared on: the desired fields without the create-only and ignored paths. */
  readonly compared: Fields;
  /** The desired object an update writes from: its spec without the ignored values. */
  readonly updated: DesiredObject;
  /** The changes that take a live object (its canonical fields) to the desired one. */
  changes(live: Fields, sendSecrets?: ReadonlyMap<string, string>): FieldChange[];
  /** The changes of a create: every desired field, write-only ones marked with why they are sent. */
  createChanges(sendSecrets: ReadonlyMap<string, string>): FieldChange[];
  /**
   * What an update sends for `changes`: the changed top-level fields (`patch`) or the whole
   * object (`replace`), never a create-only path, and a write-only one only when a change marks it.
   * An ignored field is never sent from the manifest; where the write would carry it anyway (a
   * `replace` kind, a map sent whole), it carries the `live` value (canonical), so it stays as it is.
   */
  updateBody(changes: readonly FieldChange[], live?: Fields): Fields;
}

/**
 * `secret`: readable paths whose values are secret (interpolated now, or known to the
 * fingerprint store as secret when last sent), or how to find them from the compared fields;
 * the object's interpolated fields by default.
 */
export function compare(
  provider: Provider,
  desired: DesiredObject,
  secret: ReadonlySet<string> | ((compared: Fields) => ReadonlySet<string>) = new Set(desired.secretFields),
): Comparison {
  const canonical = provider.canonicalDesired(desired.spec);
  const ignore = desired.ignore ?? [];
  const ignored = ignoredPaths(canonical, ignore);
  // as Terraform's ignore_changes: what the manifest writes is sent on create, a default converge would fill is not
  const fields = withoutPaths(
    canonical,
    ignored.filter((path) => getPath(desired.spec, path) === undefined),
  );
  const writeOnly = provider.writeOnly(desired.spec);
  const compared = withoutPaths(canonical, [...provider.createOnly, ...ignored]);
  const rules: Omit<DiffOptions, 'sendSecrets'> = {
    writeOnly: new Set(writeOnly),
    immutable: new Set(provider.immutable),
    secret: typeof secret === 'function' ? secret(compared) : secret,
    ...(provider.fieldPaths && { rows: provider.fieldPaths }),
    ...(ignore.length > 0 && { ignore }),
  };
  const options = (sendSecrets: ReadonlyMap<string, string>): DiffOptions => ({ ...rules, sendSecrets });
  const defaults = leftToDefaults(provider, desired);
  return {
    fields,
    writeOnly,
    compared,
    updated:
      ignore.length === 0
        ? desired
        : { ...desired, spec: withoutPaths(desired.spec, ignoredPaths(desired.spec, ignore)) },
    changes: (live, sendSecrets = new Map()) => defaults(diffFields(compared, live, options(sendSecrets))),
    createChanges: (sendSecrets) =>
      diffFields(
        fields,
        {},
        {
          ...options(sendSecrets),
          immutable: new Set(),
          secretNote: 'secret value',
          ignore: [],
        },
      ),
    updateBody(changes, live) {
      const marked = new Set(changes.filter((c) => c.secret).map((c) => c.path));
      const unmarked = writeOnly.filter((path) => !marked.has(path));
      const sendable = withoutPaths(compared, unmarked);
      const body = provider.updateStyle === 'replace' ? { ...sendable } : fieldsToSend(sendable, changes);
      return live ? keepingLive(body, live, ignore, provider.updateStyle === 'replace') : body;
    },
  };
}

/** Labels the changes of rows the spec leaves out, whose desired value is the table's default. */
function leftToDefaults(provider: Provider, desired: DesiredObject): (changes: FieldChange[]) => FieldChange[] {
  const rows = (provider.defaulted ?? []).filter((row) => getPath(desired.spec, row) === undefined);
  if (rows.length === 0) return (changes) => changes;
  return (changes) =>
    changes.map((change) => (rows.some((row) => isWithin(change.path, row)) ? { ...change, default: true } : change));
}

/**
 * An update body with the live values of the ignored paths it would otherwise carry from the
 * manifest or leave out: every one for a write that rebuilds the object (`whole`), those inside a
 * top-level field it sends whole otherwise.
 */
function keepingLive(body: Fields, live: Fields, ignore: readonly string[], whole: boolean): Fields {
  const kept = ignoredPaths(live, ignore).filter((path) => whole || (path.split('.')[0] ?? path) in body);
  if (kept.length === 0) return body;
  const out = structuredClone(body);
  for (const path of kept) setPath(out, path, getPath(live, path)!);
  return out;
}
