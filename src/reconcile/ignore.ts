/**
 * Fields an object leaves to someone else (docs/environments.md, "Fields you leave to someone
 * else"): a document's `ignore` list and the configuration's, as Terraform's
 * `lifecycle { ignore_changes }`. A pattern is a spec path whose `*` stands for one segment
 * (`default_extensions.*`); it covers the value at its path and everything inside it. The
 * comparison (comparison.ts) leaves what a pattern covers out of what is compared and sent.
 */
import { isPlainObject } from './equal.ts';
import type { Fields } from './types.ts';

const segments = (path: string) => path.split('.');

/** Whether `pattern` names `path` itself (segment by segment, `*` for any one). */
function names(pattern: readonly string[], path: readonly string[]): boolean {
  return pattern.length === path.length && pattern.every((step, i) => step === '*' || step === path[i]);
}

/** Whether `path` lies on the way to what `pattern` names (`a` on the way to `a.*`). */
function leadsTo(pattern: readonly string[], path: readonly string[]): boolean {
  return pattern.length > path.length && path.every((step, i) => pattern[i] === '*' || pattern[i] === step);
}

/** Whether a pattern covers `path`: names it or one of the maps it lies in. */
export function isIgnored(path: string, patterns: readonly string[]): boolean {
  const steps = segments(path);
  return patterns.some((pattern) => {
    const wanted = segments(pattern);
    return wanted.length <= steps.length && names(wanted, steps.slice(0, wanted.length));
  });
}

/** The paths of `fields` the patterns name, outermost only (what a pattern covers goes with it). */
export function ignoredPaths(fields: Fields, patterns: readonly string[]): string[] {
  if (patterns.length === 0) return [];
  const wanted = patterns.map(segments);
  const out: string[] = [];
  const walk = (map: Fields, prefix: readonly string[]) => {
    for (const [key, value] of Object.entries(map)) {
      const path = [...prefix, key];
      if (wanted.some((pattern) => names(pattern, path))) out.push(path.join('.'));
      else if (isPlainObject(value) && wanted.some((pattern) => leadsTo(pattern, path))) walk(value, path);
    }
  };
  walk(fields, []);
  return out;
}

/**
 * Whether a pattern names something of a kind whose field table has `rows`: a row, a path inside
 * one (a key of a map row), or a map on the way to rows (`test-config` for
 * `test-config.tests-enabled`).
 */
export function namesAField(pattern: string, rows: readonly string[]): boolean {
  const wanted = segments(pattern);
  return rows.some((row) => {
    const steps = segments(row);
    const shared = Math.min(steps.length, wanted.length);
    return names(wanted.slice(0, shared), steps.slice(0, shared));
  });
}
