/**
 * The executor's replacement path (src/reconcile/replace.ts): a replacement
 * whose create fails puts the previous object back from what was read, or
 * says it could not; a kind whose objects can live side by side creates
 * first; a replacement that can do neither is marked in the plan. In memory,
 * with failures injected per call.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { providers } from '../../../src/providers/index.ts';
import { applyPlan } from '../../../src/reconcile/apply.ts';
import { EventStream, type ReconcileEvent } from '../../../src/reconcile/events.ts';
import { FingerprintStore } from '../../../src/reconcile/fingerprint-store.ts';
import { buildPlan } from '../../../src/reconcile/plan.ts';
import { replaceSafety } from '../../../src/reconcile/replace.ts';
import type { FingerprintLookup } from '../../../src/reconcile/secrets.ts';
import type { DesiredObject, LiveObject } from '../../../src/reconcile/types.ts';
import { desired, live as live_, type MemoryProvider, memoryProvider } from './builders.ts';

function planOf(provider: MemoryProvider, wanted: DesiredObject[], lookup: FingerprintLookup | undefined) {
  const live = new Map<string, LiveObject>(
    [...provider.objects].map(([id, fields]) => [`${provider.kind}/${id}`, live_(provider.kind, id, fields)]),
  );
  const { plan } = buildPlan([{ provider, desired: wanted, live }], {
    prune: false,
    ownership: [],
    secrets: { lookup, resend: false },
  });
  return { plan, live };
}

async function run(provider: MemoryProvider, wanted: DesiredObject[], store?: FingerprintStore) {
  const { plan, live } = planOf(provider, wanted, store?.lookup);
  const events = new EventStream();
  const seen: ReconcileEvent[] = [];
  events.on((e) => seen.push(e));
  const summary = await applyPlan(plan, {
    providers: new Map([[provider.kind, provider]]),
    desired: new Map(wanted.map((d) => [`${d.kind}/${d.address.name}`, d])),
    live,
    clients: {},
    signal: new AbortController().signal,
    parallelism: 2,
    events,
    interrupt: new AbortController().signal,
    ...(store && { fingerprints: store }),
  });
  const failure = seen.find((e) => e.type === 'action-failed');
  return { plan, summary, failure: failure?.type === 'action-failed' ? failure.error : undefined };
}

const refused = (message: string) => Object.assign(new Error(message), { status: 400 });

/** A static role whose `username` cannot change in place. */
function roles(overrides: Parameters<typeof memoryProvider>[1] = {}) {
  const provider = memoryProvider('LDAPStaticRole', { immutable: ['username'], ...overrides });
  provider.objects.set('app1', { enabled: true, username: 'svc-app1', rotation_period: 3600 });
  return provider;
}

const renamed = () => desired('LDAPStaticRole', 'app1', { username: 'svc-app2', rotation_period: 3600 });

describe('a replacement whose create fails', () => {
  it('puts the previous object back from what was read, and says so', async () => {
    const provider = roles();
    provider.failOn.set('create:app1', refused('could not find the account "svc-app2" in the directory'));
    const { plan, summary, failure } = await run(provider, [renamed()]);
    expect(plan.actions[0]).toMatchObject({ action: 'replace' });
    expect(plan.actions[0]?.notes).toBeUndefined();
    expect(provider.calls).toEqual(['delete:app1', 'create:app1', 'create:app1']);
    expect(provider.objects.get('app1')).toEqual({ enabled: true, username: 'svc-app1', rotation_period: 3600 });
    expect(failure).toEqual({
      message:
        'replace failed: the create was refused (could not find the account "svc-app2" in the directory); ' +
        'the previous LDAPStaticRole/app1 was restored from what was read',
      status: 400,
      code: 'REPLACE_FAILED',
      live: 'restored',
    });
    expect(summary.failed).toHaveLength(1);
    expect(summary.done).toEqual({});
  });

  it('says the object is absent when putting it back fails too', async () => {
    const provider = roles();
    provider.create = async (_ctx, _d, fields) => {
      throw fields.username === 'svc-app2'
        ? refused('could not find the account "svc-app2"')
        : new Error('the directory is down');
    };
    const { failure } = await run(provider, [renamed()]);
    expect(provider.objects.has('app1')).toBe(false);
    expect(failure?.message).toBe(
      'replace failed: the create was refused (could not find the account "svc-app2"); ' +
        'the previous LDAPStaticRole/app1 could not be restored (the directory is down): it is absent now',
    );
    expect(failure?.live).toBe('absent');
  });

  it('does not try to put back an object its kind cannot restore, and the plan said so before', async () => {
    const provider = roles({ unrestorable: () => 'password is never read back, so cannot be sent again' });
    provider.failOn.set('create:app1', refused('no such account'));
    const { plan, failure } = await run(provider, [renamed()]);
    expect(plan.actions[0]?.unrestorable).toBe('password is never read back, so cannot be sent again');
    expect(plan.actions[0]?.notes).toEqual([
      'destructive: the object is deleted before the new one is created and cannot be put back if the create ' +
        'fails (password is never read back, so cannot be sent again); apply needs --allow-replace LDAPStaticRole',
    ]);
    expect(provider.calls).toEqual(['delete:app1', 'create:app1']);
    expect(failure?.message).toBe(
      'replace failed: the create was refused (no such account); the previous LDAPStaticRole/app1 could not be ' +
        'restored (password is never read back, so cannot be sent again): it is absent now',
    );
    expect(failure?.live).toBe('absent');
  });

  it('names the consent of the kind and the risk together', async () => {
    const provider = roles({
      replaceConsent: 'a new key invalidates every certificate',
      unrestorable: () => 'private_key is never read back, so cannot be sent again',
    });
    const { plan } = await run(provider, [renamed()]);
    expect(plan.actions[0]?.notes).toEqual([
      'destructive: a new key invalidates every certificate; the object is deleted before the new one is created ' +
        'and cannot be put back if the create fails (private_key is never read back, so cannot be sent again); ' +
        'apply needs --allow-replace LDAPStaticRole',
    ]);
  });

  it('leaves the previous object as it is when the delete fails, and creates nothing', async () => {
    const provider = roles();
    provider.failOn.set('delete:app1', refused('permission denied'));
    const { failure } = await run(provider, [renamed()]);
    expect(provider.calls).toEqual(['delete:app1']);
    expect(failure?.message).toBe(
      'replace failed: the delete was refused (permission denied); the previous LDAPStaticRole/app1 is unchanged',
    );
    expect(failure?.live).toBe('previous');
  });
});

describe('a replacement whose answer is lost and cannot be read back', () => {
  const lost = () => Object.assign(new Error('socket hang up'), { outcome: 'unknown' });
  /** Roles whose read-back fails, as a server that drops every request for a while. */
  const unreadable = () => roles({ get: async () => Promise.reject(new Error('503 service unavailable')) });

  it('says the previous object may have been deleted, its outcome unknown, when the delete was applied', async () => {
    const provider = unreadable();
    const remove = provider.delete?.bind(provider);
    provider.delete = async (ctx, l) => {
      await remove?.(ctx, l);
      throw lost();
    };
    const { failure } = await run(provider, [renamed()]);
    expect(provider.objects.has('app1')).toBe(false);
    expect(failure?.live).toBe('unknown');
    expect(failure?.outcome).toBe('unknown');
    expect(failure?.message).toMatch(
      /the delete's answer was lost .*; the previous LDAPStaticRole\/app1 may have been deleted: plan again/,
    );
  });

  it('is an outcome unknown, not a failure, when the create was applied', async () => {
    const provider = unreadable();
    const create = provider.create.bind(provider);
    provider.create = async (ctx, d, fields) => {
      await create(ctx, d, fields);
      throw lost();
    };
    const { failure } = await run(provider, [renamed()]);
    expect(provider.objects.get('app1')).toMatchObject({ username: 'svc-app2' });
    expect(failure?.live).toBe('unknown');
    expect(failure?.outcome).toBe('unknown');
  });
});

describe('a kind whose objects can live side by side', () => {
  it('creates the new object before deleting the old one', async () => {
    const provider = roles({ createsBeside: true });
    const { summary } = await run(provider, [renamed()]);
    expect(summary.done).toEqual({ replace: 1 });
    expect(provider.calls).toEqual(['create:app1', 'delete:app1']);
  });

  it('never deletes the old one when the create fails', async () => {
    const provider = roles({ createsBeside: true });
    provider.failOn.set('create:app1', refused('no such account'));
    const { failure } = await run(provider, [renamed()]);
    expect(provider.calls).toEqual(['create:app1']);
    expect(provider.objects.get('app1')).toMatchObject({ username: 'svc-app1' });
    expect(failure?.message).toBe(
      'replace failed: the create was refused (no such account); the previous LDAPStaticRole/app1 is unchanged',
    );
    expect(failure?.live).toBe('previous');
  });
});

describe('a value the service sets on create', () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  /** A CA-like kind: the service makes the key; a changed key_type replaces it. */
  function authorities() {
    const provider = memoryProvider('CA', { immutable: ['key_type'], remembers: ['public_key'] });
    let serial = 0;
    const create = provider.create.bind(provider);
    provider.create = (ctx, d, fields) => create(ctx, d, { ...fields, public_key: `key-${++serial}` });
    return provider;
  }

  it('is remembered after the create, and a different live value is planned as a replacement', async () => {
    dir = await mkdtemp(join(tmpdir(), 'converge-remember-'));
    const store = await FingerprintStore.open(
      join(dir, 'fp.json'),
      [{ name: 'platform@x', token: 't' }],
      () => 'platform@x',
    );
    const provider = authorities();
    const wanted = [desired('CA', 'ssh', { key_type: 'ed25519' })];
    expect((await run(provider, wanted, store)).summary.done).toEqual({ create: 1 });
    expect((await run(provider, wanted, store)).plan.actions[0]?.action).toBe('noop');

    provider.objects.set('ssh', { ...provider.objects.get('ssh'), public_key: 'swapped-by-hand' });
    const { plan } = planOf(provider, wanted, store.lookup);
    expect(plan.actions[0]).toMatchObject({
      action: 'replace',
      changes: [
        { path: 'public_key', before: 'swapped-by-hand', replace: true, note: 'a new one, made by the service' },
      ],
    });
    expect(plan.actions[0]?.notes?.[0]).toMatch(/^public_key is not the one converge saw after creating the object/);
  });

  it('is not compared where the manifest declares it, nor without a store', async () => {
    const lookup: FingerprintLookup = () => 'changed';
    const provider = authorities();
    provider.objects.set('ssh', { enabled: true, key_type: 'ed25519', public_key: 'k' });
    const plan = (spec: Record<string, string>, withStore: boolean) =>
      planOf(provider, [desired('CA', 'ssh', spec)], withStore ? lookup : undefined).plan.actions[0]?.action;
    expect(plan({ key_type: 'ed25519', public_key: 'k' }, true)).toBe('noop');
    expect(plan({ key_type: 'ed25519' }, false)).toBe('noop');
    expect(plan({ key_type: 'ed25519' }, true)).toBe('replace');
  });
});

describe('what replacement does per kind (docs/kinds.md, "Replacements")', () => {
  const safety = (kind: string, fields: Record<string, string | boolean>) => {
    const provider = providers.find((p) => p.kind === kind);
    if (!provider) throw new Error(`no provider ${kind}`);
    return replaceSafety(provider, { kind, address: { kind, name: 'x' }, ref: 'x', fields });
  };

  it('restores what its readable state recreates, and says why it cannot for the others', () => {
    expect(safety('LDAPStaticRole', { username: 'svc-app1', dn: 'cn=svc-app1', rotation_period: '1h' })).toEqual({
      mode: 'restore',
    });
    expect(safety('ModuleTestVariable', { key: 'region', value: 'eu', sensitive: false })).toEqual({ mode: 'restore' });
    expect(safety('ModuleTestVariable', { key: 'token', sensitive: true })).toEqual({
      mode: 'delete-first',
      why: 'value is never read back, so cannot be sent again',
    });
    expect(safety('SSHCertificateAuthority', { public_key: 'ssh-ed25519 AAAA' })).toEqual({
      mode: 'delete-first',
      why: 'private_key is never read back, so cannot be sent again',
    });
    expect(safety('RegistryModule', { name: 'vpc', provider: 'aws' })).toEqual({
      mode: 'delete-first',
      why: 'its versions are deleted with it',
    });
  });

  it('has no kind that creates beside the old object, since every identity is a path or a unique name', () => {
    expect(providers.filter((p) => p.createsBeside).map((p) => p.kind)).toEqual([]);
  });
});
