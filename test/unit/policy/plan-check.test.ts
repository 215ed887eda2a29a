/**
 * Policies over a plan (docs/policies.md, "When rules run"): every rule over what is created,
 * updated, replaced or kept; a removal (a prune, `ensure: absent`) by the rules over `change` or
 * `live` only, since a rule over `object` alone cannot tell a removal from a creation.
 */
import { describe, expect, it } from 'vitest';
import type { ManifestOnlyDocument } from '../../../src/manifest/manifest-only.ts';
import { checkPlan } from '../../../src/policy/evaluate.ts';
import { compilePolicies, type Policy } from '../../../src/policy/policy.ts';
import { providerMap } from '../../../src/providers/index.ts';
import { addressKey } from '../../../src/reconcile/address.ts';
import type { Action, DesiredObject, LiveObject, Plan, PlannedAction } from '../../../src/reconcile/types.ts';

function policies(...rules: Array<[name: string, rule: string]>): Policy[] {
  const documents: ManifestOnlyDocument[] = rules.map(([name, rule]) => ({
    kind: 'Policy',
    name,
    data: {
      kind: 'Policy',
      metadata: { name },
      spec: { match: { kinds: ['ToolVersion'] }, rule, message: name, enforcement: 'deny' },
    },
    source: { file: 'p.yaml', line: 1, col: 1 },
    positions: {},
  }));
  const compiled = compilePolicies(documents, providerMap);
  expect(compiled.problems).toEqual([]);
  return compiled.policies;
}

const address = (name: string) => ({ kind: 'ToolVersion', name });
const spec = (url: string) => ({ version: 'x', url, sha: 'a'.repeat(64) });

function declared(name: string, ensure: 'present' | 'absent', url?: string): DesiredObject {
  return {
    kind: 'ToolVersion',
    address: address(name),
    metadata: { name },
    ensure,
    spec: url ? spec(url) : {},
    secretFields: [],
    source: { file: 'tools.yaml', line: 1, col: 1 },
    positions: {},
  };
}

const live = (name: string, url: string): LiveObject => ({
  kind: 'ToolVersion',
  address: address(name),
  ref: `tool-${name}`,
  fields: spec(url),
});

const action = (name: string, kind: Action): PlannedAction => ({
  key: addressKey(address(name)),
  kind: 'ToolVersion',
  address: address(name),
  action: kind,
  changes: [],
  dependsOn: [],
});

describe('policies over a plan', () => {
  const ELSEWHERE = 'https://elsewhere.test/t.zip';
  const desired = [
    declared('created', 'present', ELSEWHERE),
    declared('kept', 'present', ELSEWHERE),
    declared('removed', 'absent'),
    declared('already-gone', 'absent'),
  ];
  const lives = [live('kept', ELSEWHERE), live('removed', ELSEWHERE), live('pruned', ELSEWHERE)];
  const plan: Plan = {
    actions: [
      action('created', 'create'),
      action('kept', 'noop'),
      action('removed', 'delete'),
      action('already-gone', 'noop'),
      action('pruned', 'delete'),
    ],
    unmanaged: [],
    counts: {},
  };
  const state = {
    desiredByKey: new Map(desired.map((d) => [addressKey(d.address), d])),
    liveByKey: new Map(lives.map((l) => [addressKey(l.address), l])),
  };
  const judged = (rules: Policy[]) =>
    checkPlan(rules, plan, state, providerMap, { passes: true }).results.map(
      (r) => `${r.policy} ${r.object} ${r.outcome}`,
    );

  it('judge what will exist by a rule over object alone, and nothing that goes away', () => {
    const host = policies(['host', "object.spec.url.startsWith('https://releases.example.com/')"]);
    expect(judged(host)).toEqual(['host ToolVersion/created deny', 'host ToolVersion/kept deny']);
  });

  it('judge every action, removals included, by a rule over change or live', () => {
    const rules = policies(
      ['no-deletes', "change.action != 'delete'"],
      ['was-there', 'live == null || has(live.spec.url)'],
    );
    expect(judged(rules)).toEqual([
      'no-deletes ToolVersion/created allow',
      'was-there ToolVersion/created allow',
      'no-deletes ToolVersion/kept allow',
      'was-there ToolVersion/kept allow',
      'no-deletes ToolVersion/removed deny',
      'was-there ToolVersion/removed allow',
      'no-deletes ToolVersion/already-gone allow',
      'was-there ToolVersion/already-gone allow',
      'no-deletes ToolVersion/pruned deny',
      'was-there ToolVersion/pruned allow',
    ]);
  });
});
