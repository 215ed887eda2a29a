/**
 * Fields an object leaves to someone else (docs/environments.md, "Fields you leave to someone
 * else"): a document's `ignore` list and the configuration's, as Terraform's
 * `lifecycle { ignore_changes }`. A pattern is a spec path whose `*` stands for one segment
 * (`default_extensions.*`); it covers the value at its path and everything inside it. The
 * comparison (comparison.ts) leaves what a pattern covers out of what is compared and sent.
 */
import { isPlainObject } from './equal.ts';
import { namedPaths, names, segmentsOf } from './path-patterns.ts';
import type { Fields } from './types.ts';

/** Whether a pattern covers `path`: names it or one of the maps it lies in. */
export function isIgnored(path: string, patterns: readonly string[]): boolean {
  const steps = segmentsOf(path);
  return patterns.some((pattern) => {
    const wanted = segmentsOf(pattern);
    return wanted.length <= steps.length && names(wanted, steps.slice(0, wanted.length));
  });
}

/** The paths of `fields` the patterns name, outermost only (what a pattern covers goes with it). */
export function ignoredPaths(fields: Fields, patterns: readonly string[]): string[] {
  if (patterns.length === 0) return [];
  // a list is a value of its own: a pattern does not reach into one
  return namedPaths(fields, patterns, (value) => (isPlainObject(value) ? Object.entries(value) : undefined));
}

/**
 * Whether a pattern names something of a kind whose field table has `rows`: a row, a path inside
 * one (a key of a map row), or a map on the way to rows (`test-config` for
 * `test-config.tests-enabled`).
 */
export function namesAField(pattern: string, rows: readonly string[]): boolean {
  const wanted = segmentsOf(pattern);
  return rows.some((row) => {
    const steps = segmentsOf(row);
    const shared = Math.min(steps.length, wanted.length);
    return names(wanted.slice(0, shared), steps.slice(0, shared));
  });
}
