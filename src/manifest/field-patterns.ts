/**
 * The field patterns of an `ignore` list (docs/environments.md, "Fields you leave to someone
 * else"), checked against the kind's field table: a pattern that names no field is a mistake
 * (a typo would otherwise leave the field managed without a word).
 */
import { namesAField } from '../reconcile/ignore.ts';
import { didYouMean } from './suggest.ts';

/** Why `pattern` names no field of `kind`, whose table has `rows`; undefined when it names one. */
export function unknownField(pattern: string, kind: string, rows: readonly string[]): string | undefined {
  if (namesAField(pattern, rows)) return undefined;
  const hint = didYouMean(pattern, rows) || `; its fields: ${rows.join(', ')}`;
  return `"${pattern}" names no field of ${kind}${hint}`;
}
