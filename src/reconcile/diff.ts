/**
 * The pure diff: canonical desired fields against canonical live fields.
 * Only keys present in `desired` are compared: a field the user left out
 * (and that has no documented default) is not managed.
 *
 * Rules name fields by dotted paths (`vcs-repo.identifier`) and hold at any
 * depth: the maps on the way to a path with a rule, or to a row of the
 * field table, are compared key by key (the desired keys only, as at the
 * top), so a nested write-only value is never compared nor shown, and a
 * nested immutable one marks its own change for replacement.
 */
import { isPlainObject, jsonEqual } from './equal.ts';
import { parentPaths } from './field-paths.ts';
import { isIgnored } from './ignore.ts';
import type { FieldChange, Fields, Json } from './types.ts';

export interface DiffOptions {
  /** Fields the API never returns; they appear only when `sendSecrets` names them. */
  writeOnly: ReadonlySet<string>;
  /** Fields that cannot change in place: a change marks the object for replacement. */
  immutable: ReadonlySet<string>;
  /** Readable fields whose value is a secret (interpolated): compared, never shown. */
  secret: ReadonlySet<string>;
  /** Write-only fields to send, each with the reason shown in the plan. */
  sendSecrets: ReadonlyMap<string, string>;
  /** The field table's rows (Provider.fieldPaths): the maps on the way to a nested row are walked. */
  rows?: readonly string[];
  /** What a differing secret value's change says (`secret value` on a create). */
  secretNote?: string;
  /**
   * Patterns of paths never compared (the object's `ignore`, src/reconcile/ignore.ts): no change
   * at or inside them, so none marks a replacement, and a map's other keys still are.
   */
  ignore?: readonly string[];
}

interface Walk extends DiffOptions {
  /** Maps compared key by key: on the way to a row or to a path with a rule. */
  walked: ReadonlySet<string>;
}

export function diffFields(desired: Fields, live: Fields, options: DiffOptions): FieldChange[] {
  const walked = parentPaths([...options.writeOnly, ...options.immutable, ...(options.rows ?? [])]);
  return mapChanges('', desired, live, { ...options, walked }, false);
}

/** The changes of the desired keys of a map; `replace` when the map lies inside an immutable field. */
function mapChanges(prefix: string, desired: Fields, live: Fields | undefined, walk: Walk, replace: boolean) {
  const changes: FieldChange[] = [];
  for (const key of Object.keys(desired).sort()) {
    const path = prefix === '' ? key : `${prefix}.${key}`;
    changes.push(...fieldChanges(path, live?.[key], desired[key] as Json, walk, replace));
  }
  return changes;
}

function fieldChanges(path: string, before: Json | undefined, after: Json, walk: Walk, inherited: boolean) {
  const ignore = walk.ignore ?? [];
  if (ignore.length > 0 && isIgnored(path, ignore)) return [];
  if (walk.writeOnly.has(path)) {
    const note = walk.sendSecrets.get(path);
    return note === undefined ? [] : [{ path, secret: true, note }];
  }
  const replace = inherited || walk.immutable.has(path);
  let changes: FieldChange[];
  if (walk.walked.has(path) && isPlainObject(after)) {
    // row by row; live sides hold only the table's rows, so a live value that is no map has none of them
    changes = mapChanges(path, after, isPlainObject(before) ? before : undefined, walk, replace);
  } else {
    if (jsonEqual(before, after)) return [];
    changes = valueChanges(path, before, after).map((change) => (replace ? { ...change, replace } : change));
    // a map compared whole (`default_extensions`) may differ only in keys someone else manages
    if (ignore.length > 0) changes = changes.filter((change) => !isIgnored(change.path, ignore));
  }
  if (!walk.secret.has(path)) return changes;
  // a secret value is compared, never shown: one change says it differs (write-only ones inside keep theirs)
  const sent = changes.filter((c) => c.secret && walk.writeOnly.has(c.path));
  const differs = changes.filter((c) => !sent.includes(c));
  if (differs.length === 0) return sent;
  const replaced = differs.some((c) => c.replace);
  const note = walk.secretNote ?? 'secret value differs';
  return [{ path, secret: true, note, ...(replaced && { replace: true }) }, ...sent];
}

/** Field changes of one value; maps are walked so the plan names the key that changed. */
function valueChanges(path: string, before: Json | undefined, after: Json | undefined): FieldChange[] {
  if (isPlainObject(before) && isPlainObject(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
    return keys.flatMap((key) =>
      jsonEqual(before[key], after[key]) ? [] : valueChanges(`${path}.${key}`, before[key], after[key]),
    );
  }
  const change: FieldChange = { path };
  if (before !== undefined) change.before = before;
  if (after !== undefined) change.after = after;
  return [change];
}

/** The top-level fields to send for an update: each changed field's whole desired value. */
export function fieldsToSend(desired: Fields, changes: readonly FieldChange[]): Fields {
  const out: Fields = {};
  for (const change of changes) {
    const top = change.path.split('.')[0] ?? change.path;
    const value = desired[top];
    if (value !== undefined) out[top] = value;
  }
  return out;
}
