/**
 * The one comparison of a desired object with the API's (docs/architecture.md,
 * "Field paths"): built once per provider and desired object from the rules of
 * the kind's field table, which name fields by dotted paths and hold at any
 * depth. The planner (and so drift), and the executor's read-back after a lost
 * answer, compare and build update bodies through it and nowhere else.
 */
import { type DiffOptions, diffFields, fieldsToSend } from './diff.ts';
import { withoutPaths } from './field-paths.ts';
import type { Provider } from './provider.ts';
import type { DesiredObject, FieldChange, Fields } from './types.ts';

export interface Comparison {
  /** The canonical desired fields: defaults applied, values normalized; what a create sends. */
  readonly fields: Fields;
  /** The object's write-only paths (per object: a test variable's value only when sensitive). */
  readonly writeOnly: readonly string[];
  /** What an existing object is compared on: the desired fields without the create-only paths. */
  readonly compared: Fields;
  /** The changes that take a live object (its canonical fields) to the desired one. */
  changes(live: Fields, sendSecrets?: ReadonlyMap<string, string>): FieldChange[];
  /** The changes of a create: every desired field, write-only ones marked with why they are sent. */
  createChanges(sendSecrets: ReadonlyMap<string, string>): FieldChange[];
  /**
   * What an update sends for `changes`: the changed top-level fields (`patch`) or the whole
   * object (`replace`), never a create-only path, and a write-only one only when a change marks it.
   */
  updateBody(changes: readonly FieldChange[]): Fields;
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
  const fields = provider.canonicalDesired(desired.spec);
  const writeOnly = provider.writeOnly(desired.spec);
  const compared = withoutPaths(fields, provider.createOnly);
  const rules: Omit<DiffOptions, 'sendSecrets'> = {
    writeOnly: new Set(writeOnly),
    immutable: new Set(provider.immutable),
    secret: typeof secret === 'function' ? secret(compared) : secret,
    ...(provider.fieldPaths && { rows: provider.fieldPaths }),
  };
  const options = (sendSecrets: ReadonlyMap<string, string>): DiffOptions => ({ ...rules, sendSecrets });
  return {
    fields,
    writeOnly,
    compared,
    changes: (live, sendSecrets = new Map()) => diffFields(compared, live, options(sendSecrets)),
    createChanges: (sendSecrets) =>
      diffFields(fields, {}, { ...options(sendSecrets), immutable: new Set(), secretNote: 'secret value' }),
    updateBody(changes) {
      const marked = new Set(changes.filter((c) => c.secret).map((c) => c.path));
      const unmarked = writeOnly.filter((path) => !marked.has(path));
      const sendable = withoutPaths(compared, unmarked);
      return provider.updateStyle === 'replace' ? { ...sendable } : fieldsToSend(sendable, changes);
    },
  };
}
