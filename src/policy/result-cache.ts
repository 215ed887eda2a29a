/**
 * A rule's results reused across objects (docs/policies.md, "Cost"). A rule that reads only
 * fixed fields of `object` (src/policy/variables.ts, `objectPaths`) gives the same result for
 * every object with the same values there: CEL is pure. Reused only for the fields many objects
 * share, `kind` and metadata other than the name (labels, a scope): a rule over `object.kind`
 * runs once per kind, one over labels once per set of labels. A rule over a name or a spec runs
 * for every object, as a cache of one entry per object would cost more than it saves.
 */
import type { Policy } from './policy.ts';
import type { CelObject } from './view.ts';

export interface Judged {
  outcome: 'allow' | Policy['enforcement'];
  error?: string;
}

export type Judge = (variables: Record<string, unknown>) => Judged;

/** `judge` itself, or one that remembers its results by the values the policy's rule reads. */
export function reusingJudge(policy: Policy, judge: Judge): Judge {
  const paths = policy.rule.objectPaths;
  // a plan-phase rule reads live or change too, which differ per object
  if (policy.phase !== 'validate' || paths === undefined || !paths.every(shared)) return judge;
  const steps = paths.map((path) => path.split('.'));
  const results = new Map<string, Judged>();
  return (variables) => {
    const key = keyOf(variables.object as CelObject, steps);
    let found = results.get(key);
    if (found === undefined) {
      found = judge(variables);
      results.set(key, found);
    }
    return found;
  };
}

function shared(path: string): boolean {
  if (path === 'kind') return true;
  const [top, field] = path.split('.');
  return top === 'metadata' && field !== undefined && field !== 'name';
}

/**
 * The values at the paths, as one string: a string as itself after a mark, anything else (a
 * label map) as JSON, which keeps its order; absent is told from empty.
 */
function keyOf(object: CelObject, paths: readonly (readonly string[])[]): string {
  let key = '';
  for (const steps of paths) {
    let value: unknown = object;
    for (const step of steps) {
      value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[step] : undefined;
    }
    key +=
      typeof value === 'string'
        ? `s${value}\u0000`
        : value === undefined
          ? '-\u0000'
          : `${JSON.stringify(value)}\u0000`;
  }
  return key;
}
