import { describe, expect, it } from 'vitest';
import { providerMap } from '../../../src/providers/index.ts';
import { withSources } from '../../../src/reconcile/sources.ts';
import type { DesiredObject, Plan, PlannedAction } from '../../../src/reconcile/types.ts';
import { colorsFor } from '../../../src/ui/colors.ts';
import { formatPlan } from '../../../src/ui/format-plan.ts';

const at = (file: string, line: number, col: number) => ({ file, line, col });

const module: DesiredObject = {
  kind: 'RegistryModule',
  address: { kind: 'RegistryModule', scope: 'acme', name: 'network/aws' },
  metadata: { organization: 'acme', name: 'network', provider: 'aws' },
  ensure: 'present',
  spec: { 'test-config': { 'tests-enabled': true }, versions: [{ version: '1.0.0', source: './network' }] },
  secretFields: [],
  source: at('base/modules.yaml', 1, 1),
  positions: {
    'spec.test-config.tests-enabled': at('prod/modules.yaml', 5, 20),
    'spec.versions.0.source': at('base/modules.yaml', 9, 15),
  },
};

function action(key: string, kind: string, changes: PlannedAction['changes']): PlannedAction {
  return { key, kind, address: { kind, name: key }, action: 'update', changes, dependsOn: [] };
}

const plan: Plan = {
  actions: [
    action('RegistryModule/acme/network/aws', 'RegistryModule', [
      { path: 'test-config.tests-enabled', before: false, after: true },
      { path: 'no-code', before: true, after: false },
    ]),
    action('RegistryModuleVersion/acme/network/aws/1.0.0', 'RegistryModuleVersion', [
      { path: 'source', before: 'a', after: 'b' },
    ]),
  ],
  unmanaged: [],
  counts: { update: 2 },
};

describe('withSources', () => {
  it("gives each changed field the place that set it, none to a default, and a keyed child's item its own", () => {
    const sourced = withSources(plan, [module], providerMap);
    expect(sourced.actions.map((a) => a.changes.map((c) => c.source))).toEqual([
      [at('prod/modules.yaml', 5, 20), undefined],
      [at('base/modules.yaml', 9, 15)],
    ]);
    // the plan it was given is left as it was: a saved plan never holds sources
    expect(plan.actions[0]?.changes[0]?.source).toBeUndefined();
  });

  it('shows in text only when present', () => {
    const colors = colorsFor(process.stdout, false);
    const text = formatPlan(withSources(plan, [module], providerMap), colors).join('\n');
    expect(text).toContain('test-config.tests-enabled: false -> true  (set at prod/modules.yaml:5:20)');
    expect(text).toMatch(/no-code: true -> false\n/);
    expect(formatPlan(plan, colors).join('\n')).not.toContain('set at');
  });
});
