/**
 * The engine with scoped kinds, written with small test-only kinds
 * (scoped-builders.ts): addresses that share a name across scopes, listing
 * per unit, one object per scope, replace-style updates after a lost answer,
 * and keyed child lists.
 */
import { describe, expect, it } from 'vitest';
import { type ListUnit, parentOf } from '../../../src/reconcile/address.ts';
import { applyPlan } from '../../../src/reconcile/apply.ts';
import { planRun } from '../../../src/reconcile/engine.ts';
import { EventStream } from '../../../src/reconcile/events.ts';
import type { OwnershipRule } from '../../../src/reconcile/ownership.ts';
import type { Provider } from '../../../src/reconcile/provider.ts';
import { EVERYTHING, type Selection } from '../../../src/reconcile/selection.ts';
import type { Address, DesiredObject } from '../../../src/reconcile/types.ts';
import { run as connections, declared, lostAnswer, put, type ScopedMemory, scopedMemory } from './scoped-builders.ts';

async function plan(
  providers: Provider[],
  desired: DesiredObject[],
  options: { prune?: OwnershipRule[]; selection?: Selection } = {},
) {
  return planRun({
    desired,
    providers: new Map(
      providers.flatMap((p) => [p, ...(p.children ?? []).map((c) => c.provider)]).map((p) => [p.kind, p]),
    ),
    ...connections,
    parallelism: 4,
    events: new EventStream(),
    prune: options.prune !== undefined,
    ownership: options.prune ?? [],
    secrets: { lookup: undefined, resend: false },
    selection: options.selection ?? EVERYTHING,
  });
}

async function converge(providers: Provider[], desired: DesiredObject[], options: { prune?: OwnershipRule[] } = {}) {
  const run = await plan(providers, desired, options);
  const summary = await applyPlan(run.plan, {
    providers: new Map(
      providers.flatMap((p) => [p, ...(p.children ?? []).map((c) => c.provider)]).map((p) => [p.kind, p]),
    ),
    desired: run.desiredByKey,
    live: run.liveByKey,
    ...connections,
    parallelism: 4,
    events: new EventStream(),
    interrupt: new AbortController().signal,
  });
  return { run, summary };
}

const actions = (run: Awaited<ReturnType<typeof plan>>) => run.plan.actions.map((a) => [a.key, a.action]);

describe('scoped kinds', () => {
  it('keep objects of the same name in two scopes apart, in live state, pairing and plans', async () => {
    // GIVEN role "web" in two mounts, with different live values
    const roles = scopedMemory('Role');
    put(roles, { kind: 'Role', scope: 'ssh', name: 'web' }, { ttl: 60 });
    put(roles, { kind: 'Role', scope: 'ssh-prod', name: 'web' }, { ttl: 120 });
    // WHEN both are declared with ttl 60
    const run = await plan(
      [roles],
      [
        declared('Role', { scope: 'ssh', name: 'web' }, { ttl: 60 }),
        declared('Role', { scope: 'ssh-prod', name: 'web' }, { ttl: 60 }),
      ],
    );
    // THEN only the one in ssh-prod changes, and each scope was listed once
    expect(actions(run)).toEqual([
      ['Role/ssh/web', 'noop'],
      ['Role/ssh-prod/web', 'update'],
    ]);
    expect(run.plan.actions[1]?.changes).toEqual([{ path: 'ttl', before: 120, after: 60 }]);
    expect(roles.calls.sort()).toEqual(['list:ssh', 'list:ssh-prod']);
  });

  it('prune inside an ownership scope only, matching the rule scope on the scope and the glob on the name', async () => {
    const roles = scopedMemory('Role');
    put(roles, { kind: 'Role', scope: 'ssh', name: 'team-a' }, {});
    put(roles, { kind: 'Role', scope: 'ssh', name: 'other' }, {});
    put(roles, { kind: 'Role', scope: 'ssh-prod', name: 'team-a' }, {});
    const run = await plan([roles], [declared('Role', { scope: 'ssh', name: 'kept' }, {})], {
      prune: [{ kind: 'Role', scope: 'ssh', name: 'team-*' }],
    });
    expect(actions(run)).toEqual([
      ['Role/ssh/kept', 'create'],
      ['Role/ssh/team-a', 'delete'],
    ]);
    expect(run.plan.unmanaged.map((u) => [u.key, u.prunable])).toEqual([['Role/ssh/other', false]]);
  });
});

describe('listing per unit', () => {
  // a variable is owned in its organization but listed per module: its unit is its module's address
  const unitOf = (address: Address): ListUnit => ({ scope: address.scope ?? '', parent: parentOf(address, 'Module') });
  const variables = () =>
    scopedMemory('Variable', {
      listUnit: unitOf,
      async listUnits(_ctx, scope) {
        return ['network/aws', 'db/aws', 'dns/gcp'].map((name) => ({ scope, parent: { kind: 'Module', scope, name } }));
      },
    });
  const variable = (org: string, name: string, spec = {}) => declared('Variable', { scope: org, name }, spec);

  it('lists once per unit the declared objects are in, never the whole scope', async () => {
    const vars = variables();
    put(vars, { kind: 'Variable', scope: 'corp', name: 'network/aws/REGION' }, { value: 'eu' });
    const run = await plan(
      [vars],
      [
        variable('corp', 'network/aws/REGION', { value: 'eu' }),
        variable('corp', 'network/aws/ZONE'),
        variable('corp', 'db/aws/SIZE'),
      ],
    );
    expect(vars.calls.sort()).toEqual(['list:corp/db/aws', 'list:corp/network/aws']);
    expect(actions(run)).toEqual([
      ['Variable/corp/db/aws/SIZE', 'create'],
      ['Variable/corp/network/aws/REGION', 'noop'],
      ['Variable/corp/network/aws/ZONE', 'create'],
    ]);
  });

  it('under --prune, expands an owned scope into its units and finds unmanaged objects there', async () => {
    const vars = variables();
    put(vars, { kind: 'Variable', scope: 'corp', name: 'dns/gcp/OLD' }, {});
    const run = await plan([vars], [variable('corp', 'network/aws/REGION')], {
      prune: [{ kind: 'Variable', scope: 'corp' }],
    });
    expect(vars.calls.filter((c) => c.startsWith('list:')).sort()).toEqual([
      'list:corp/db/aws',
      'list:corp/dns/gcp',
      'list:corp/network/aws',
    ]);
    expect(actions(run)).toContainEqual(['Variable/corp/dns/gcp/OLD', 'delete']);
  });
});

describe('one object per scope', () => {
  const authorities = (): ScopedMemory => {
    const ca = scopedMemory('Authority', { cardinality: 'one-per-scope' });
    return Object.assign(ca, {
      address: (m: { mount?: string }) => ({ kind: 'Authority', scope: m.mount ?? 'ssh', name: '' }),
    });
  };
  const authority = (mount: string, spec = {}, extra: Partial<DesiredObject> = {}) =>
    declared('Authority', { scope: mount, name: '' }, spec, extra);

  it('creates a missing one, deletes one declared absent, and keys each by its scope', async () => {
    const ca = authorities();
    put(ca, { kind: 'Authority', scope: 'ssh-old', name: '' }, { key: 'k1' });
    const { run, summary } = await converge(
      [ca],
      [authority('ssh', { key: 'k2' }), authority('ssh-old', {}, { ensure: 'absent' })],
    );
    expect(actions(run)).toEqual([
      ['Authority/ssh', 'create'],
      ['Authority/ssh-old', 'delete'],
    ]);
    expect(summary.failed).toEqual([]);
    expect([...ca.objects.keys()]).toEqual(['Authority/ssh']);
    const again = await plan([ca], [authority('ssh', { key: 'k2' })]);
    expect(actions(again)).toEqual([['Authority/ssh', 'noop']]);
  });

  it('is pruned like any object in an owned scope, and listed as unmanaged outside', async () => {
    const ca = authorities();
    put(ca, { kind: 'Authority', scope: 'owned', name: '' }, {});
    put(ca, { kind: 'Authority', scope: 'ssh', name: '' }, {});
    const run = await plan([ca], [authority('ssh')], { prune: [{ kind: 'Authority', scope: 'owned' }] });
    expect(actions(run)).toEqual([
      ['Authority/ssh', 'noop'],
      ['Authority/owned', 'delete'],
    ]);
  });
});

describe('replace-style updates', () => {
  const roles = () => scopedMemory('Role', { updateStyle: 'replace' });
  const role = (spec: Record<string, number>) => declared('Role', { scope: 'ssh', name: 'web' }, spec);
  const web = { kind: 'Role', scope: 'ssh', name: 'web' };

  it('send the whole desired object, not only the changed field', async () => {
    const provider = roles();
    put(provider, web, { a: 1, b: 2 });
    await converge([provider], [role({ a: 1, b: 3 })]);
    expect(provider.calls).toContain('body:Role/ssh/web:a,b');
    expect(provider.objects.get('Role/ssh/web')?.fields).toEqual({ a: 1, b: 3 });
  });

  it('never send a create-only field with an update', async () => {
    const provider = scopedMemory('Role', { updateStyle: 'replace', createOnly: ['skip'] });
    put(provider, web, { a: 1 });
    await converge([provider], [role({ a: 2, skip: 1 })]);
    expect(provider.calls).toContain('body:Role/ssh/web:a');
  });

  it('after a lost answer that was applied, read back by address and send nothing more', async () => {
    const provider = roles();
    put(provider, web, { a: 1, b: 2 });
    provider.inject.set('update:Role/ssh/web', { error: lostAnswer(), applied: true });
    const { summary } = await converge([provider], [role({ a: 1, b: 3 })]);
    expect(summary.failed).toEqual([]);
    expect(provider.calls.filter((c) => c.startsWith('update:') || c.startsWith('get:'))).toEqual([
      'update:Role/ssh/web',
      'get:Role/ssh/web',
    ]);
    expect(provider.objects.get('Role/ssh/web')?.fields).toEqual({ a: 1, b: 3 });
  });

  it('after a lost answer that was not applied, send the whole object again', async () => {
    const provider = roles();
    put(provider, web, { a: 1, b: 2 });
    provider.inject.set('update:Role/ssh/web', { error: lostAnswer(), applied: false });
    const { summary } = await converge([provider], [role({ a: 1, b: 3 })]);
    expect(summary.failed).toEqual([]);
    expect(provider.calls.filter((c) => c.startsWith('body:'))).toEqual([
      'body:Role/ssh/web:a,b',
      'body:Role/ssh/web:a,b',
    ]);
    expect(provider.objects.get('Role/ssh/web')?.fields).toEqual({ a: 1, b: 3 });
  });

  it('a create whose answer was lost is read back by address, not repeated', async () => {
    const provider = roles();
    provider.inject.set('create:Role/ssh/web', { error: lostAnswer(), applied: true });
    const { summary } = await converge([provider], [role({ a: 1 })]);
    expect(summary.failed).toEqual([]);
    expect(
      provider.calls.filter((c) => c.startsWith('create:') || c.startsWith('get:') || c.startsWith('list:')),
    ).toEqual(['list:ssh', 'create:Role/ssh/web', 'get:Role/ssh/web']);
  });
});

describe('keyed child lists', () => {
  const setup = () => {
    const versions = scopedMemory('ModuleVersion', {
      // never written again once it exists
      update: undefined,
      dependsOn: ['Module'],
      // listed per module: the unit is the module's address
      listUnit: (a) => ({ scope: a.scope ?? '', parent: parentOf(a, 'Module') }),
    });
    const modules = scopedMemory('Module', {
      children: [{ field: 'versions', key: 'version', provider: versions }],
      address: (m) => ({ kind: 'Module', scope: m.organization ?? '', name: m.name ?? '' }),
    });
    return { modules, versions };
  };
  const module = (spec: Record<string, unknown>) =>
    declared('Module', { scope: 'corp', name: 'network/aws' }, spec as DesiredObject['spec'], {
      metadata: { organization: 'corp', name: 'network/aws' },
      positions: { 'spec.versions.1': { file: 'm.yaml', line: 7, col: 7 } },
    });

  it('plan each item as an object of its own, after the parent, and leave the list out of the parent', async () => {
    const { modules, versions } = setup();
    const run = await plan(
      [modules],
      [
        module({
          tests: true,
          versions: [
            { version: '1.0.0', digest: 'a' },
            { version: '1.1.0', digest: 'b' },
          ],
        }),
      ],
    );
    expect(actions(run)).toEqual([
      ['Module/corp/network/aws', 'create'],
      ['ModuleVersion/corp/network/aws/1.0.0', 'create'],
      ['ModuleVersion/corp/network/aws/1.1.0', 'create'],
    ]);
    const [parent, , second] = run.plan.actions;
    expect(parent?.changes.map((c) => c.path)).toEqual(['tests']);
    expect(second?.dependsOn).toEqual(['Module/corp/network/aws']);
    expect(second?.source).toEqual({ file: 'm.yaml', line: 7, col: 7 });
    expect(versions.calls).toEqual(['list:corp/network/aws']);
  });

  it('never rewrites an existing item: a difference is a note, an undeclared one is unmanaged or pruned', async () => {
    const { modules, versions } = setup();
    put(modules, { kind: 'Module', scope: 'corp', name: 'network/aws' }, { tests: true });
    put(
      versions,
      { kind: 'ModuleVersion', scope: 'corp', name: 'network/aws/1.0.0' },
      { version: '1.0.0', digest: 'old' },
    );
    put(
      versions,
      { kind: 'ModuleVersion', scope: 'corp', name: 'network/aws/0.9.0' },
      { version: '0.9.0', digest: 'x' },
    );
    const desired = [module({ tests: true, versions: [{ version: '1.0.0', digest: 'new' }] })];
    const run = await plan([modules], desired);
    expect(actions(run)).toEqual([
      ['Module/corp/network/aws', 'noop'],
      ['ModuleVersion/corp/network/aws/1.0.0', 'noop'],
    ]);
    expect(run.plan.actions[1]?.notes).toEqual(['differs from the live object (digest), which is never changed']);
    expect(run.plan.unmanaged.map((u) => u.key)).toEqual(['ModuleVersion/corp/network/aws/0.9.0']);

    const pruned = await plan([modules], desired, { prune: [{ kind: 'ModuleVersion', scope: 'corp' }] });
    expect(actions(pruned)).toContainEqual(['ModuleVersion/corp/network/aws/0.9.0', 'delete']);
  });

  it('a targeted item whose parent is not live is a problem naming its target; once the parent is live, it plans alone', async () => {
    const { modules, versions } = setup();
    const desired = [module({ versions: [{ version: '1.0.0' }] })];
    const selection = { targets: [{ kind: 'ModuleVersion', scope: 'corp', name: 'network/aws/1.0.0' }], selectors: {} };
    const refused = await plan([modules], desired, { selection });
    expect(refused.problems.map((p) => p.message)).toEqual([
      'belongs to Module/corp/network/aws, which is not live and not selected: target it too (-t Module/corp/network/aws)',
    ]);
    // the parent's unit is read for that, though no parent is selected
    expect(modules.calls).toEqual(['list:corp']);

    put(modules, { kind: 'Module', scope: 'corp', name: 'network/aws' }, {});
    const planned = await plan([modules], desired, { selection });
    expect(planned.problems).toEqual([]);
    expect(actions(planned)).toEqual([['ModuleVersion/corp/network/aws/1.0.0', 'create']]);
    expect(versions.calls).toEqual(['list:corp/network/aws', 'list:corp/network/aws']);
  });

  it('deleting the parent does not plan its items one by one', async () => {
    const { modules, versions } = setup();
    put(modules, { kind: 'Module', scope: 'corp', name: 'network/aws' }, {});
    const run = await plan([modules], [{ ...module({ versions: [{ version: '1.0.0' }] }), ensure: 'absent' }]);
    expect(actions(run)).toEqual([['Module/corp/network/aws', 'delete']]);
    expect(versions.calls).toEqual([]);
  });
});

describe('dependencies within a scope', () => {
  it('makes an object wait for the objects of the kinds it depends on in its own scope only', async () => {
    // GIVEN a config kind and a role kind that depends on it, declared in two mounts
    const configs = scopedMemory('Config', { cardinality: 'one-per-scope' });
    const roles = scopedMemory('Role', { dependsOn: ['Config'] });
    const run = await plan(
      [configs, roles],
      [
        declared('Config', { scope: 'ldap', name: '' }, { url: 'a' }),
        declared('Config', { scope: 'ldap-prod', name: '' }, { url: 'b' }),
        declared('Role', { scope: 'ldap', name: 'web' }, { ttl: 60 }),
        declared('Role', { scope: 'ldap-prod', name: 'web' }, { ttl: 60 }),
      ],
    );
    // THEN each role waits for its own mount's config, not the other's
    const dependsOn = Object.fromEntries(run.plan.actions.map((a) => [a.key, a.dependsOn]));
    expect(dependsOn['Role/ldap/web']).toEqual(['Config/ldap']);
    expect(dependsOn['Role/ldap-prod/web']).toEqual(['Config/ldap-prod']);
    // AND applying them, a failed config skips only its own mount's role
    configs.inject.set('create:Config/ldap', { error: new Error('refused') });
    const { summary } = await converge(
      [configs, roles],
      run.plan.actions.map((a) => run.desiredByKey.get(a.key)!),
    );
    expect(summary.failed.map((f) => f.key)).toEqual(['Config/ldap']);
    expect(summary.skipped.map((s) => s.key)).toEqual(['Role/ldap/web']);
  });
});
