/**
 * A rule's results reused across objects and policies (docs/policies.md, "Cost"). CEL is pure:
 * a rule gives the same result for the same values of what it reads. So a rule written the same
 * in several policies runs once per object, whatever the number of policies (the verdict is
 * the rule's; each policy then applies its own enforcement). And a rule that reads only fixed
 * fields of `object` (src/policy/variables.ts, `objectPaths`) that many objects share, `kind` and
 * metadata other than the name (labels, a scope), runs once per distinct value there: a rule
 * over `object.kind` once per kind, one over labels once per set of labels. A rule over a name or
 * a spec runs for every object, as a cache of one entry per object would cost more than it saves.
 */
import type { CompiledRule } from './cel.ts';

/** What a rule gave for one object: true or false, or why it could not be evaluated. */
export type Verdict = boolean | string;

/** The variables a rule sees for one object, made only when a rule must run. */
export interface VariablesSource {
  variables(): Record<string, unknown>;
}

/** The object a result may be reused by: its kind and metadata, as the rule sees them. */
export interface ObjectKey {
  kind: string;
  metadata: object;
}

/** One rule over many objects: `verdict` runs it, or gives the result it gave for the same values. */
export interface RuleRun {
  verdict(object: ObjectKey, source: VariablesSource): Verdict;
}

/** A run of `rule` (`run` evaluates it) that reuses its results where what it reads is shared. */
export function ruleRun(rule: CompiledRule, run: (variables: Record<string, unknown>) => Verdict): RuleRun {
  // a rule over live or change sees what differs per object
  const paths = rule.uses.has('live') || rule.uses.has('change') ? undefined : rule.objectPaths;
  if (!paths?.every(shared)) return { verdict: (_object, source) => run(source.variables()) };
  const steps = paths.map((path) => path.split('.'));
  // the key: one path's string value (the usual case: `kind`) as itself, no string made; else the
  // values as one string. Absent, a string and a map are told apart: they are keys of different maps.
  const byValue = new Map<string | undefined, Verdict>();
  const byText = new Map<string, Verdict>();
  const [only] = steps;
  const single = steps.length === 1 && only !== undefined ? only : undefined;
  return {
    verdict(object, source) {
      const value = single ? valueAt(object, single) : undefined;
      const direct = single !== undefined && (typeof value === 'string' || value === undefined);
      const key = direct ? (value as string | undefined) : single ? JSON.stringify(value) : joinedKey(object, steps);
      const results = direct ? byValue : byText;
      let found = results.get(key as string);
      if (found === undefined) {
        found = run(source.variables());
        results.set(key as string, found);
      }
      return found;
    },
  };
}

function shared(path: string): boolean {
  if (path === 'kind') return true;
  const [top, field] = path.split('.');
  return top === 'metadata' && field !== undefined && field !== 'name';
}

function valueAt(object: ObjectKey, steps: readonly string[]): unknown {
  let value: unknown = object;
  for (const step of steps) {
    value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[step] : undefined;
  }
  return value;
}

/**
 * The values at the paths, as one string: a string as itself after a mark, anything else (a
 * label map) as JSON, which keeps its order; absent is told from empty.
 */
function joinedKey(object: ObjectKey, paths: readonly (readonly string[])[]): string {
  let key = '';
  for (const steps of paths) {
    const value = valueAt(object, steps);
    key +=
      typeof value === 'string'
        ? `s${value}\u0000`
        : value === undefined
          ? '-\u0000'
          : `${JSON.stringify(value)}\u0000`;
  }
  return key;
}
