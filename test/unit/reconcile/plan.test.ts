import { describe, expect, it } from 'vitest';
import { addressKey } from '../../../src/reconcile/address.ts';
import { declaredOf } from '../../../src/reconcile/declared.ts';
import { buildPlan, type KindSnapshot, type PlanOptions } from '../../../src/reconcile/plan.ts';
import type { LiveObject } from '../../../src/reconcile/types.ts';
import { desired, live, memoryProvider } from './builders.ts';

const options: PlanOptions = { prune: false, ownership: [], secrets: { lookup: undefined, resend: false } };

function liveMap(...objects: LiveObject[]) {
  return new Map(objects.map((o) => [addressKey(o.address), o]));
}

describe('buildPlan', () => {
  it('creates what is missing, updates what differs, leaves the rest', () => {
    const provider = memoryProvider('ToolVersion');
    const snapshot: KindSnapshot = {
      provider,
      desired: [
        desired('ToolVersion', 'a', { url: 'u1' }),
        desired('ToolVersion', 'b', { url: 'u2' }),
        desired('ToolVersion', 'c', { url: 'u3' }),
      ],
      live: liveMap(
        live('ToolVersion', 'b', { url: 'old', enabled: true }),
        live('ToolVersion', 'c', { url: 'u3', enabled: true }),
      ),
    };
    const { plan, problems } = buildPlan([snapshot], options);
    expect(problems).toEqual([]);
    expect(plan.actions.map((a) => [a.key, a.action])).toEqual([
      ['ToolVersion/a', 'create'],
      ['ToolVersion/b', 'update'],
      ['ToolVersion/c', 'noop'],
    ]);
    expect(plan.actions[1]?.changes).toEqual([{ path: 'url', before: 'old', after: 'u2' }]);
    expect(plan.counts).toEqual({ create: 1, update: 1, noop: 1 });
  });

  it('lists live objects no manifest mentions as unmanaged and never deletes them by default', () => {
    const provider = memoryProvider('ToolVersion');
    const { plan } = buildPlan([{ provider, desired: [], live: liveMap(live('ToolVersion', 'x', {})) }], {
      ...options,
      ownership: [{ kind: 'ToolVersion' }],
    });
    expect(plan.actions).toEqual([]);
    expect(plan.unmanaged).toEqual([
      { key: 'ToolVersion/x', kind: 'ToolVersion', address: { kind: 'ToolVersion', name: 'x' }, prunable: true },
    ]);
  });

  it('prunes only inside ownership scopes', () => {
    const provider = memoryProvider('ToolVersion');
    const { plan } = buildPlan(
      [{ provider, desired: [], live: liveMap(live('ToolVersion', '1.2.0', {}), live('ToolVersion', '2.0.0', {})) }],
      { ...options, prune: true, ownership: [{ kind: 'ToolVersion', name: '1.*' }] },
    );
    expect(plan.actions.map((a) => [a.key, a.action])).toEqual([['ToolVersion/1.2.0', 'delete']]);
    expect(plan.unmanaged).toEqual([
      {
        key: 'ToolVersion/2.0.0',
        kind: 'ToolVersion',
        address: { kind: 'ToolVersion', name: '2.0.0' },
        prunable: false,
      },
    ]);
  });

  it("leaves out the deletes of a parent's children when the parent goes too: its delete takes them", () => {
    const versions = memoryProvider('Version', { dependsOn: ['Module'] });
    const modules = memoryProvider('Module', { children: [{ field: 'versions', key: 'version', provider: versions }] });
    const { plan } = buildPlan(
      [
        { provider: modules, desired: [], live: liveMap(live('Module', 'gone', {}), live('Module', 'kept', {})) },
        {
          provider: versions,
          desired: [],
          live: liveMap(live('Version', 'gone/1.0.0', {}), live('Version', 'kept/1.0.0', {})),
        },
      ],
      { ...options, prune: true, ownership: [{ kind: 'Module', name: 'gone' }, { kind: 'Version' }] },
    );
    expect(plan.actions.map((a) => [a.key, a.action])).toEqual([
      ['Version/kept/1.0.0', 'delete'],
      ['Module/gone', 'delete'],
    ]);
  });

  describe('--prune and references', () => {
    // a list that names roles (an SSH zero-address list): the API refuses it without them
    const roles = memoryProvider('Role');
    const lists = memoryProvider('List', {
      references: (d) => (d.spec.roles as string[]).map((name) => ({ kind: 'Role', name })),
    });
    const list = desired('List', 'zero', { roles: ['legacy', 'web'] }, { source: { file: 'z.yaml', line: 3, col: 1 } });
    const owned = { ...options, prune: true, ownership: [{ kind: 'Role' }] };
    const refused = {
      key: 'List/zero',
      source: { file: 'z.yaml', line: 3, col: 1 },
      message:
        'List/zero references Role/legacy, which --prune would delete (it is in an ownership scope and in no manifest): ' +
        'declare Role/legacy to keep it, or change List/zero so that it no longer references it to let --prune delete it',
    };

    it('refuses to prune a live object a declared one references, naming both, and deletes nothing for it', () => {
      const { plan, problems } = buildPlan(
        [
          {
            provider: roles,
            desired: [desired('Role', 'web', {})],
            live: liveMap(live('Role', 'legacy', {}), live('Role', 'web', { enabled: true }), live('Role', 'old', {})),
          },
          { provider: lists, desired: [list], live: liveMap(live('List', 'zero', { roles: ['legacy', 'web'] })) },
        ],
        owned,
      );
      expect(problems).toEqual([refused]);
      // what no declared object references is still pruned
      expect(plan.actions.filter((a) => a.action === 'delete').map((a) => a.key)).toEqual(['Role/old']);
    });

    it('refuses it too when --target leaves the referencing object out of the plan', () => {
      const { plan, problems } = buildPlan(
        [{ provider: roles, desired: [], live: liveMap(live('Role', 'legacy', {})) }],
        {
          ...owned,
          inTarget: (address) => address.name === 'legacy',
          declared: declaredOf([list], (d) => lists.references?.(d) ?? []),
        },
      );
      expect(problems).toEqual([refused]);
      expect(plan.actions).toEqual([]);
    });

    it('lists it as not prunable without --prune', () => {
      const { plan, problems } = buildPlan(
        [
          { provider: roles, desired: [], live: liveMap(live('Role', 'legacy', {}), live('Role', 'old', {})) },
          { provider: lists, desired: [list], live: liveMap(live('List', 'zero', { roles: ['legacy', 'web'] })) },
        ],
        { ...owned, prune: false, exists: () => true },
      );
      expect(problems).toEqual([]);
      expect(plan.unmanaged.map((u) => [u.key, u.prunable])).toEqual([
        ['Role/legacy', false],
        ['Role/old', true],
      ]);
    });

    it('prunes an object only a list declared absent references', () => {
      const { plan, problems } = buildPlan(
        [
          { provider: roles, desired: [], live: liveMap(live('Role', 'legacy', {})) },
          { provider: lists, desired: [{ ...list, ensure: 'absent' }], live: liveMap() },
        ],
        owned,
      );
      expect(problems).toEqual([]);
      expect(plan.actions.map((a) => [a.key, a.action])).toEqual([
        ['List/zero', 'noop'],
        ['Role/legacy', 'delete'],
      ]);
    });
  });

  describe('what a selected object needs, outside --target', () => {
    const versions = memoryProvider('Version', { dependsOn: ['Module'], update: undefined });
    const version = desired('Version', 'm/1.0.0', { version: '1.0.0' }, { parent: 'Module/m' });
    const module = desired('Module', 'm', {});

    it("refuses an item of a child list whose parent is neither live nor selected, naming the parent's target", () => {
      const { problems } = buildPlan([{ provider: versions, desired: [version], live: liveMap() }], {
        ...options,
        declared: declaredOf([module, version], () => []),
      });
      expect(problems).toEqual([
        {
          key: 'Version/m/1.0.0',
          source: version.source,
          message: 'belongs to Module/m, which is not live and not selected: target it too (-t Module/m)',
        },
      ]);
    });

    it('plans the item alone when its parent is live', () => {
      const { plan, problems } = buildPlan([{ provider: versions, desired: [version], live: liveMap() }], {
        ...options,
        declared: declaredOf([module, version], () => []),
        exists: (kind, key) => kind === 'Module' && key === 'Module/m',
      });
      expect(problems).toEqual([]);
      expect(plan.actions.map((a) => [a.key, a.action])).toEqual([['Version/m/1.0.0', 'create']]);
    });

    it('says a referenced object is declared but not selected, rather than neither declared nor live', () => {
      const variables = memoryProvider('Variable', {
        references: (d) => [{ kind: 'Module', name: String(d.spec.module) }],
      });
      const variable = desired('Variable', 'v', { module: 'm' });
      const { problems } = buildPlan([{ provider: variables, desired: [variable], live: liveMap() }], {
        ...options,
        declared: declaredOf([module, variable], (d) => variables.references?.(d) ?? []),
      });
      expect(problems.map((p) => p.message)).toEqual([
        'references Module/m, which is not live and not selected: target it too (-t Module/m)',
      ]);
    });
  });

  it('never prunes a kind whose objects can only be deleted by ensure: absent', () => {
    const provider = memoryProvider('AdminUser', { deletePolicy: 'absent-only' });
    const { plan } = buildPlan([{ provider, desired: [], live: liveMap(live('AdminUser', 'bob', {})) }], {
      ...options,
      prune: true,
      ownership: [{ kind: 'AdminUser' }],
    });
    expect(plan.actions).toEqual([]);
    expect(plan.unmanaged).toEqual([
      { key: 'AdminUser/bob', kind: 'AdminUser', address: { kind: 'AdminUser', name: 'bob' }, prunable: false },
    ]);
  });

  it('deletes with ensure: absent and is a no-op when already absent', () => {
    const provider = memoryProvider('AdminUser', { deletePolicy: 'absent-only' });
    const { plan } = buildPlan(
      [
        {
          provider,
          desired: [
            desired('AdminUser', 'bob', {}, { ensure: 'absent' }),
            desired('AdminUser', 'gone', {}, { ensure: 'absent' }),
          ],
          live: liveMap(live('AdminUser', 'bob', {})),
        },
      ],
      options,
    );
    expect(plan.actions.map((a) => [a.key, a.action])).toEqual([
      ['AdminUser/gone', 'noop'],
      ['AdminUser/bob', 'delete'],
    ]);
  });

  it('is a plan problem, with the manifest position, to declare an object the API cannot create', () => {
    const provider = memoryProvider('AdminUser', { create: undefined });
    const { problems } = buildPlan(
      [{ provider, desired: [desired('AdminUser', 'nobody', { 'is-admin': true })], live: new Map() }],
      options,
    );
    expect(problems).toEqual([
      {
        key: 'AdminUser/nobody',
        source: { file: 'm.yaml', line: 1, col: 1 },
        message: 'AdminUser/nobody does not exist, and the API does not create AdminUser objects',
      },
    ]);
  });

  it('plans a replacement when an immutable field changes, resending write-only fields', () => {
    const provider = memoryProvider('LDAPStaticRole', { immutable: ['dn'], writeOnly: () => ['password'] });
    const { plan } = buildPlan(
      [
        {
          provider,
          desired: [desired('LDAPStaticRole', 'r', { dn: 'cn=b', password: 'pw' })],
          live: liveMap(live('LDAPStaticRole', 'r', { dn: 'cn=a', enabled: true })),
        },
      ],
      options,
    );
    expect(plan.actions[0]?.action).toBe('replace');
    expect(plan.actions[0]?.changes).toEqual([
      { path: 'dn', before: 'cn=a', after: 'cn=b', replace: true },
      { path: 'password', secret: true, note: 'sent on create' },
    ]);
  });

  it('sends a write-only field only when the fingerprint store says it changed', () => {
    const provider = memoryProvider('SMTPSettings', { writeOnly: () => ['password'], cardinality: 'one' });
    const snapshot = (lookupVerdict: 'same' | 'changed' | 'unknown') =>
      buildPlan(
        [
          {
            provider,
            desired: [desired('SMTPSettings', '', { password: 'pw' })],
            live: liveMap(live('SMTPSettings', '', { enabled: true })),
          },
        ],
        { ...options, secrets: { lookup: () => lookupVerdict, resend: false } },
      ).plan.actions[0];
    expect(snapshot('same')?.action).toBe('noop');
    expect(snapshot('changed')?.changes).toEqual([
      { path: 'password', secret: true, note: 'changed since last apply' },
    ]);
    expect(snapshot('unknown')?.changes).toEqual([{ path: 'password', secret: true, note: 'never sent by converge' }]);
  });

  it('says a write-only field is not compared when there is no fingerprint store', () => {
    const provider = memoryProvider('SMTPSettings', { writeOnly: () => ['password'], cardinality: 'one' });
    const { plan } = buildPlan(
      [
        {
          provider,
          desired: [desired('SMTPSettings', '', { password: 'pw' })],
          live: liveMap(live('SMTPSettings', '', { enabled: true })),
        },
      ],
      options,
    );
    expect(plan.actions[0]?.action).toBe('noop');
    expect(plan.actions[0]?.notes?.[0]).toMatch(/not compared/);
  });

  it('without a fingerprint store, sends write-only fields with an update that goes out anyway', () => {
    const provider = memoryProvider('SMTPSettings', { writeOnly: () => ['password'], cardinality: 'one' });
    const { plan } = buildPlan(
      [
        {
          provider,
          desired: [desired('SMTPSettings', '', { enabled: true, password: 'pw' })],
          live: liveMap(live('SMTPSettings', '', { enabled: false })),
        },
      ],
      options,
    );
    expect(plan.actions[0]?.action).toBe('update');
    expect(plan.actions[0]?.changes).toEqual([
      { path: 'enabled', before: false, after: true },
      { path: 'password', secret: true, note: 'sent with the other changes (no fingerprint store to compare)' },
    ]);
    expect(plan.actions[0]?.notes).toBeUndefined();
  });

  it('orders creates by kind dependency and deletes in reverse', () => {
    const modules = memoryProvider('RegistryModule');
    const variables = memoryProvider('ModuleTestVariable', {
      dependsOn: ['RegistryModule'],
      references: (d) => [{ kind: 'RegistryModule', name: String(d.spec.module) }],
    });
    const { plan } = buildPlan(
      [
        {
          provider: variables,
          desired: [desired('ModuleTestVariable', 'v', { module: 'm' })],
          live: liveMap(live('ModuleTestVariable', 'old', {})),
        },
        {
          provider: modules,
          desired: [desired('RegistryModule', 'm', {})],
          live: liveMap(live('RegistryModule', 'gone', {})),
        },
      ],
      { ...options, prune: true, ownership: [{ kind: 'RegistryModule' }, { kind: 'ModuleTestVariable' }] },
    );
    expect(plan.actions.map((a) => a.key)).toEqual([
      'RegistryModule/m',
      'ModuleTestVariable/v',
      'ModuleTestVariable/old',
      'RegistryModule/gone',
    ]);
    expect(plan.actions[1]?.dependsOn).toEqual(['RegistryModule/m']);
    expect(plan.actions[3]?.dependsOn).toEqual(['ModuleTestVariable/old']);
  });

  it('leaves live objects outside a --target out of the unmanaged list', () => {
    const provider = memoryProvider('ToolVersion');
    const { plan } = buildPlan([{ provider, desired: [], live: liveMap(live('ToolVersion', 'x', {})) }], {
      ...options,
      inTarget: () => false,
    });
    expect(plan.unmanaged).toEqual([]);
  });
});

describe('objects a replaced object holds (a module and its test variables)', () => {
  // Mod's `repo` cannot change in place; a Var is held by the Mod it references, and deleted with it
  const mods = memoryProvider('Mod', { immutable: ['repo'], toManifest: undefined });
  const vars = memoryProvider('Var', {
    heldByReference: true,
    dependsOn: ['Mod'],
    references: (d) => [{ kind: 'Mod', name: String(d.metadata.module) }],
  });
  const variable = (name: string) => desired('Var', name, { value: 'v' }, { metadata: { name, module: 'm' } });
  const snapshots = (held: ReturnType<typeof variable>[]): KindSnapshot[] => [
    {
      provider: mods,
      desired: [desired('Mod', 'm', { repo: 'other' })],
      live: liveMap(live('Mod', 'm', { enabled: true, repo: 'acme' })),
    },
    {
      provider: vars,
      desired: held,
      live: liveMap(live('Var', 'a', { enabled: true, value: 'v' }), live('Var', 'b', { enabled: true, value: 'v' })),
    },
  ];

  it('are created again after the replacement, whatever their live state said', () => {
    const { plan, problems } = buildPlan(snapshots([variable('a'), variable('b')]), options);
    expect(problems).toEqual([]);
    expect(plan.actions.map((a) => [a.key, a.action, a.dependsOn])).toEqual([
      ['Mod/m', 'replace', []],
      ['Var/a', 'create', ['Mod/m']],
      ['Var/b', 'create', ['Mod/m']],
    ]);
    expect(plan.actions[1]?.notes).toContain('created again: replacing Mod/m deletes it with it');
  });

  it('refuse the plan when the selection leaves one out: it would be lost', () => {
    const all = [desired('Mod', 'm', { repo: 'other' }), variable('a'), variable('b')];
    const declared = declaredOf(
      all,
      (d) => (d.kind === 'Var' ? [{ kind: 'Mod', name: 'm' }] : []),
      (d) => d.kind === 'Var',
    );
    const { problems } = buildPlan(snapshots([variable('a')]), { ...options, declared });
    expect(problems.map((p) => p.message)).toEqual([
      'Var/b: replacing Mod/m deletes it with it, and the selection leaves it out, so it would not be made again: select it too (-t Var/b)',
    ]);
  });
});
