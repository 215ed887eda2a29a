/**
 * The pure diff: canonical desired fields against canonical live fields.
 * Only keys present in `desired` are compared: a field the user left out
 * (and that has no documented default) is not managed.
 */
import { isPlainObject, jsonEqual } from './equal.ts';
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
}

export function diffFields(desired: Fields, live: Fields, options: DiffOptions): FieldChange[] {
  const changes: FieldChange[] = [];
  for (const key of Object.keys(desired).sort()) {
    if (options.writeOnly.has(key)) {
      const note = options.sendSecrets.get(key);
      if (note !== undefined) changes.push({ path: key, secret: true, note });
      continue;
    }
    const before = live[key];
    const after = desired[key];
    if (jsonEqual(before, after)) continue;
    const replace = options.immutable.has(key) || undefined;
    if (options.secret.has(key)) {
      changes.push({ path: key, secret: true, note: 'secret value differs', ...(replace && { replace }) });
      continue;
    }
    for (const change of valueChanges(key, before, after)) changes.push(replace ? { ...change, replace } : change);
  }
  return changes;
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
