import type { FieldChange, Json } from '../reconcile/types.ts';
import type { Colors } from './colors.ts';

/** A value as one readable line: strings quoted, long values cut. */
export function formatValue(value: Json | undefined, max = 80): string {
  if (value === undefined) return '(unset)';
  const text = JSON.stringify(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** What follows a changed field's name: whether it replaces the object, whether its value is a default. */
export function changeMarks(change: Pick<FieldChange, 'replace' | 'default'>): string {
  return (change.replace ? ' (forces replacement)' : '') + (change.default ? ' (default)' : '');
}

/** A report's objects (planned actions, drifted objects), each with its field changes. */
export type ObjectsWithChanges = Iterable<{ changes: readonly Pick<FieldChange, 'default'>[] }>;

/** Whether any change is labelled `(default)`: then a report says once what the label means. */
export function hasDefaults(objects: ObjectsWithChanges): boolean {
  for (const object of objects) if (object.changes.some((change) => change.default)) return true;
  return false;
}

/** What `(default)` means and how to opt out, said once under the changes that carry it. */
export const DEFAULT_LEGEND =
  '(default): the manifest does not write this field, so converge sets the documented default; ' +
  'write the field to keep another value, or list it under ignore to leave it to someone else.';

/** The text reports' legend under their objects' changes (plan, drift): dimmed, after a blank line, when used. */
export function defaultLegendText(objects: ObjectsWithChanges, colors: Colors): string[] {
  return hasDefaults(objects) ? ['', colors.dim(DEFAULT_LEGEND)] : [];
}

/** `path: before -> after`, or the secret marker; never a secret value. */
export function formatChange(change: FieldChange, action: 'create' | 'other'): string {
  const replace = changeMarks(change);
  if (change.secret) return `${change.path}: (secret) ${change.note ?? 'changed'}${replace}`;
  if (action === 'create') return `${change.path}: ${formatValue(change.after)}`;
  return `${change.path}: ${formatValue(change.before)} -> ${afterText(change.after, change.note, 80)}${replace}`;
}

/** The value a change leads to; one the service will make (a new generated key) is said in words. */
export function afterText(after: Json | undefined, note: string | undefined, max: number): string {
  return after === undefined && note !== undefined ? `(${note})` : formatValue(after, max);
}
