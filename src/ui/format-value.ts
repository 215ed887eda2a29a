import type { FieldChange, Json } from '../reconcile/types.ts';

/** A value as one readable line: strings quoted, long values cut. */
export function formatValue(value: Json | undefined, max = 80): string {
  if (value === undefined) return '(unset)';
  const text = JSON.stringify(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** `path: before -> after`, or the secret marker; never a secret value. */
export function formatChange(change: FieldChange, action: 'create' | 'other'): string {
  const replace = change.replace ? ' (forces replacement)' : '';
  if (change.secret) return `${change.path}: (secret) ${change.note ?? 'changed'}${replace}`;
  if (action === 'create') return `${change.path}: ${formatValue(change.after)}`;
  return `${change.path}: ${formatValue(change.before)} -> ${afterText(change.after, change.note, 80)}${replace}`;
}

/** The value a change leads to; one the service will make (a new generated key) is said in words. */
export function afterText(after: Json | undefined, note: string | undefined, max: number): string {
  return after === undefined && note !== undefined ? `(${note})` : formatValue(after, max);
}
