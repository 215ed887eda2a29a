/**
 * The field patterns of an `ignore` list (docs/environments.md, "Fields you leave to someone
 * else"), checked against the kind's field table and its schema: a pattern that names no field is
 * a mistake (a typo would otherwise leave the field managed without a word), and so is one below
 * a field that holds no map (`plan-timeout.x`), which would cover nothing.
 */
import { namesAField } from '../reconcile/ignore.ts';
import { segmentsOf } from '../reconcile/path-patterns.ts';
import { didYouMean } from './suggest.ts';

/**
 * Why `pattern` names no field of `kind`, whose table has `rows` and whose schema has a value at
 * a spec path when `inSchema` says so; undefined when it names one.
 */
export function unknownField(
  pattern: string,
  kind: string,
  rows: readonly string[],
  inSchema: (path: string) => boolean,
): string | undefined {
  if (segmentsOf(pattern).includes('')) return `"${pattern}" is no field path: it has an empty segment`;
  if (namesAField(pattern, rows) && inSchema(pattern)) return undefined;
  const hint = didYouMean(pattern, rows) || `; its fields: ${rows.join(', ')}`;
  return `"${pattern}" names no field of ${kind}${hint}`;
}
