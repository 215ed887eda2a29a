/**
 * A result reused is the result a run would give (docs/policies.md, "Cost"): over arbitrary
 * sequences of objects, each rule's verdicts through one result cache (src/policy/result-cache.ts)
 * equal its own run per object, evaluation errors included. The rules read what the cache keys
 * by: the kind, names, labels, fixed spec fields, maps read only by their keys, and mixes of
 * these; the objects draw their values from small sets, so values repeat and results are reused.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ruleRun } from '../../../src/policy/result-cache.ts';
import { anyFieldsPolicy } from './any-fields.ts';

const RULES = [
  "object.kind.startsWith('S')",
  "object.metadata.name.size() < 3 && !object.metadata.name.startsWith('t')",
  "!has(object.metadata.labels) || object.metadata.labels.all(k, k != 'team')",
  "has(object.metadata.labels) && 'team' in object.metadata.labels",
  '!has(object.spec.ttl) || object.spec.ttl <= 3600',
  "object.spec.all(k, k != 'root')",
  'object.spec.size() > 2',
  "'users' in object.spec && object.spec.exists(k, k.startsWith('u'))",
  "object.spec.map(k, k)[0] != 'ttl'",
  'object.spec.filter(k, k.size() > 3).size() == 1 || has(object.spec.ttl)',
  "!has(object.spec.users) || object.spec.users.exists(u, u == 'root')",
  "!has(object.spec.users) || 'root' in object.spec.users",
  '!has(object.spec.users) || size(object.spec.users) < 2',
  "object.spec.all(k, k != object.metadata.name) && object.kind != 'X'",
  // read only by keys where the field is a map, whole where it is a list or a string
  "object.spec.users.exists(u, u == 'root')",
  "'root' in object.spec.users",
  'size(object.spec.users) < 2',
];

const compiled = (rule: string) => anyFieldsPolicy(rule).rule;
const NO_CHANGE = { action: 'none', paths: [] };

const value = fc.oneof(
  fc.constantFrom(60n, 3600n, 7200n, 0.5),
  fc.constantFrom('root', 'ops', ''),
  fc.constantFrom(['root'], ['ops'], ['ops', 'root'], []),
  fc.constantFrom({ root: 'x' }, { ops: 'y' }, { ops: 'x', root: 'y' }, {}),
);
const spec = fc.dictionary(fc.constantFrom('ttl', 'users', 'root', 'url', 'mode'), value, { maxKeys: 4 });
const object = fc.record({
  kind: fc.constantFrom('SSHRole', 'ToolVersion', 'X'),
  name: fc.constantFrom('a', 'ab', 'tab', 'abc', 'root'),
  labels: fc.option(fc.dictionary(fc.constantFrom('team', 'tier'), fc.constantFrom('web', 'db'), { maxKeys: 2 }), {
    nil: undefined,
  }),
  spec,
});

/** What a rule gave: its value as text, or `error` for a run that could not be evaluated. */
const outcome = (run: () => unknown): string => {
  try {
    return String(run());
  } catch {
    return 'error';
  }
};

type Spec = Record<string, unknown>;

/**
 * Every object of any sequence gets through one cache what its own run gives. `seen` is the spec
 * the rule sees for the declared one; `specForKeys`, what the source offers for the spec's keys.
 */
function reusedIsRun(
  rule: string,
  seen: (kind: string, spec: Spec) => Spec,
  specForKeys?: (kind: string, spec: Spec) => Spec | undefined,
) {
  const compiledRule = compiled(rule);
  fc.assert(
    fc.property(fc.array(object, { minLength: 1, maxLength: 30 }), (objects) => {
      const cache = ruleRun(compiledRule, (variables) => outcome(() => compiledRule.run(variables)));
      for (const o of objects) {
        const metadata = { name: o.name, ...(o.labels && { labels: o.labels }) };
        const variables = {
          object: { kind: o.kind, metadata, spec: seen(o.kind, o.spec) },
          live: null,
          change: NO_CHANGE,
        };
        const alone = outcome(() => compiledRule.run(variables));
        const source = {
          variables: () => variables,
          ...(specForKeys && { specForKeys: () => specForKeys(o.kind, o.spec) }),
        };
        expect(cache.verdict({ kind: o.kind, metadata }, source)).toBe(alone);
      }
    }),
    { numRuns: 200 },
  );
}

describe('a reused result', () => {
  it.each(RULES)('is the run of %s for every object of any sequence', (rule) => {
    reusedIsRun(rule, (_kind, spec) => spec);
  });
});

/**
 * Where a kind's canonical keys follow its declared keys (Provider.canonicalKeysFollowSpec), the
 * cache keys a rule over the spec's keys by the declared spec. Two made-up kinds map declared specs
 * to what the rule sees as tables do, by keys alone: one adds a defaulted field when absent, one
 * puts the fields in its own order; a third makes no claim, so the spec the rule sees is read.
 */
const SEEN: Record<string, (declared: Spec) => Spec> = {
  SSHRole: (declared) => ({ ...declared, ...(!('mode' in declared) && { mode: 'ca' }) }),
  ToolVersion: (declared) =>
    Object.fromEntries(Object.entries(declared).sort(([a], [b]) => (a < b ? 1 : a > b ? -1 : 0))),
  X: (declared) => ({ ...declared, extra: 'x' }),
};
const CLAIMING = new Set(['SSHRole', 'ToolVersion']);

describe('a result reused by the declared keys a kind maps to its canonical ones', () => {
  it.each(RULES)('is the run of %s over the spec the rule sees', (rule) => {
    reusedIsRun(
      rule,
      (kind, spec) => (SEEN[kind] as (declared: Spec) => Spec)(spec),
      (kind, spec) => (CLAIMING.has(kind) ? spec : undefined),
    );
  });
});
