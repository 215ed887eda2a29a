/**
 * How a kind's checks (`Provider.check`, run by `validate` and `plan` before anything is sent)
 * name a value of the object they check: as written, unless the field holds a secret, a value
 * made with `${env:}` or a sensitive `${var:}`, or listed in `sensitive:` (docs/security.md,
 * "What is secret"). A check's message is printed as it is: hiding the value is its own job.
 */
import { isWithin } from '../../reconcile/field-paths.ts';
import type { DesiredObject } from '../../reconcile/types.ts';

export interface CheckValues {
  /** Whether the field (a spec path) holds a secret, or a secret is inside it. */
  secret(field: string): boolean;
  /** The value quoted (`"10.0.0.0/33"`), or `a secret value` when the field holds one. */
  quoted(field: string, value: unknown): string;
  /** The value as written (`90m`), or `hidden` when the field holds a secret. */
  bare(field: string, value: unknown): string;
}

export function checkValues(object: DesiredObject): CheckValues {
  const paths = object.secretPaths ?? [];
  const secret = (field: string) =>
    object.secretFields.includes(field.split('.')[0] ?? field) ||
    paths.some((path) => isWithin(path, field) || isWithin(field, path));
  return {
    secret,
    quoted: (field, value) => (secret(field) ? 'a secret value' : JSON.stringify(value)),
    bare: (field, value) => (secret(field) ? 'hidden' : String(value)),
  };
}
