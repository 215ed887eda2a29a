/**
 * What a kind can do is derived from the operations its provider has
 * (src/reconcile/provider.ts, `capabilities`), and the planner and the
 * executor ask it: a plan that would need a missing operation is a plan
 * problem or a note, never a call that throws at apply time.
 */
import { describe, expect, it } from 'vitest';
import { addressKey } from '../../../src/reconcile/address.ts';
import { applyPlan } from '../../../src/reconcile/apply.ts';
import { EventStream } from '../../../src/reconcile/events.ts';
import { buildPlan, type PlanOptions } from '../../../src/reconcile/plan.ts';
import { capabilities } from '../../../src/reconcile/provider.ts';
import type { DesiredObject, LiveObject } from '../../../src/reconcile/types.ts';
import { desired, live, type MemoryProvider, memoryProvider } from './builders.ts';

const options: PlanOptions = { prune: false, ownership: [], secrets: { lookup: undefined, resend: false } };

const liveMap = (...objects: LiveObject[]) => new Map(objects.map((o) => [addressKey(o.address), o]));

function planOne(
  provider: MemoryProvider,
  wanted: DesiredObject,
  current?: LiveObject,
  extra: Partial<PlanOptions> = {},
) {
  return buildPlan([{ provider, desired: [wanted], live: current ? liveMap(current) : new Map() }], {
    ...options,
    ...extra,
  });
}

describe('capabilities', () => {
  it('are derived from the operations a provider has', () => {
    const all = memoryProvider('Full');
    expect(capabilities(all)).toEqual({ create: true, update: true, delete: 'prunable', export: true });
    const none = memoryProvider('Bare', {
      create: undefined,
      update: undefined,
      delete: undefined,
      toManifest: undefined,
    });
    expect(capabilities(none)).toEqual({ create: false, update: false, delete: 'never', export: false });
    // a delete policy narrows a delete; without a delete there is none to narrow
    expect(capabilities(memoryProvider('User', { deletePolicy: 'absent-only' })).delete).toBe('absent-only');
    expect(capabilities(memoryProvider('User', { deletePolicy: 'absent-only', delete: undefined })).delete).toBe(
      'never',
    );
  });
});

describe('a kind without update', () => {
  const ca = () => memoryProvider('CA', { update: undefined, immutable: ['public_key'] });

  it('notes a difference instead of planning an update', () => {
    const { plan, problems } = planOne(
      ca(),
      desired('CA', 'ssh', { comment: 'b' }),
      live('CA', 'ssh', { comment: 'a', enabled: true }),
    );
    expect(problems).toEqual([]);
    expect(plan.actions.map((a) => [a.action, a.notes])).toEqual([
      ['noop', ['differs from the live object (comment), which is never changed']],
    ]);
  });

  it('still replaces an object whose immutable field changed, and applies it with delete and create', async () => {
    const provider = ca();
    provider.objects.set('ssh', { public_key: 'old', enabled: true });
    const wanted = desired('CA', 'ssh', { public_key: 'new' });
    const current = live('CA', 'ssh', { public_key: 'old', enabled: true });
    const { plan, problems } = planOne(provider, wanted, current);
    expect(problems).toEqual([]);
    expect(plan.actions.map((a) => a.action)).toEqual(['replace']);
    const summary = await applyPlan(plan, {
      providers: new Map([['CA', provider]]),
      desired: new Map([[addressKey(wanted.address), wanted]]),
      live: new Map([[addressKey(current.address), current]]),
      clients: {},
      signal: new AbortController().signal,
      parallelism: 1,
      events: new EventStream(),
      interrupt: new AbortController().signal,
    });
    expect(summary.failed).toEqual([]);
    expect(provider.calls).toEqual(['delete:ssh', 'create:ssh']);
    expect(provider.objects.get('ssh')).toEqual({ enabled: true, public_key: 'new' });
  });
});

describe('a replacement the kind cannot make', () => {
  it('is a plan problem when the kind has no delete, naming the immutable field', () => {
    const provider = memoryProvider('Settings', { delete: undefined, immutable: ['region'] });
    const { plan, problems } = planOne(
      provider,
      desired('Settings', 'x', { region: 'b' }),
      live('Settings', 'x', { region: 'a' }),
    );
    expect(plan.actions).toEqual([]);
    expect(problems).toEqual([
      {
        key: 'Settings/x',
        source: { file: 'm.yaml', line: 1, col: 1 },
        message:
          'Settings/x: region cannot change in place, and Settings objects cannot be deleted, so it cannot be replaced',
      },
    ]);
  });

  it('is a plan problem when the kind has no create', () => {
    const provider = memoryProvider('User', { create: undefined, immutable: ['email'] });
    const { problems } = planOne(provider, desired('User', 'u', { email: 'b' }), live('User', 'u', { email: 'a' }));
    expect(problems.map((p) => p.message)).toEqual([
      'User/u: email cannot change in place, and User objects cannot be created, so it cannot be replaced',
    ]);
  });
});

describe('a kind without delete', () => {
  it('makes ensure: absent a plan problem, and its live objects never prunable', () => {
    const provider = memoryProvider('Settings', { delete: undefined });
    const absent: DesiredObject = { ...desired('Settings', 'x', {}), ensure: 'absent' };
    expect(planOne(provider, absent, live('Settings', 'x', {})).problems.map((p) => p.message)).toEqual([
      'Settings/x cannot be deleted (update only)',
    ]);
    const { plan } = buildPlan([{ provider, desired: [], live: liveMap(live('Settings', 'y', {})) }], {
      ...options,
      prune: true,
      ownership: [{ kind: 'Settings' }],
    });
    expect(plan.actions).toEqual([]);
    expect(plan.unmanaged.map((u) => [u.key, u.prunable])).toEqual([['Settings/y', false]]);
  });
});
