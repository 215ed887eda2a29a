/**
 * A document's `sensitive: [field paths]` (docs/security.md, "What is secret"): the values at
 * those spec paths are secrets of the object, as a write-only field's are. A path is a spec path
 * (`ttl`, `test-config.tests-enabled`), `*` standing for one segment (`default_extensions.*`); a
 * path the kind's schema has no field at is a problem at its place in the list.
 */
import { namedPaths, segmentsOf } from '../reconcile/path-patterns.ts';
import type { PathProblem } from './interpolate.ts';
import { joinPath } from './paths.ts';

export interface MarkedSensitive {
  /** The patterns as written (valid ones). */
  patterns: string[];
  /** Document paths (`spec.ttl`) of the spec's values the patterns match. */
  paths: string[];
  /** The top-level spec keys they lie under, whether or not the spec sets them (a patch may). */
  fields: string[];
  problems: PathProblem[];
}

export function markedSensitive(list: unknown, spec: unknown, known: (path: string) => boolean): MarkedSensitive {
  const out: MarkedSensitive = { patterns: [], paths: [], fields: [], problems: [] };
  if (!Array.isArray(list)) return out; // the schema says what is wrong with it
  for (const [i, pattern] of list.entries()) {
    if (typeof pattern !== 'string' || pattern === '') continue;
    if (!known(pattern)) {
      out.problems.push({
        path: joinPath('sensitive', i),
        message: `sensitive: "${pattern}" is not a field of this kind (a spec path like "ttl" or "test-config.tests-enabled"; * for one segment)`,
      });
      continue;
    }
    out.patterns.push(pattern);
    const top = segmentsOf(pattern)[0] as string;
    const matched = namedPaths(spec, [pattern], entriesOf).map((path) => joinPath('spec', path));
    out.paths.push(...matched);
    if (top !== '*') out.fields.push(top);
    else out.fields.push(...matched.map((path) => path.split('.')[1] as string));
  }
  return out;
}

/** A spec's containers, lists by index; a key set to undefined is no value to mark. */
function entriesOf(value: unknown): Array<[string, unknown]> | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const entries: Array<[string, unknown]> = Array.isArray(value)
    ? value.map((item, i) => [String(i), item])
    : Object.entries(value);
  return entries.filter(([, item]) => item !== undefined);
}
