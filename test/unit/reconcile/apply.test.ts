import { describe, expect, it } from 'vitest';
import { addressKey } from '../../../src/reconcile/address.ts';
import { applyPlan } from '../../../src/reconcile/apply.ts';
import { EventStream, type ReconcileEvent } from '../../../src/reconcile/events.ts';
import { buildPlan } from '../../../src/reconcile/plan.ts';
import { runContexts } from '../../../src/reconcile/services.ts';
import type { DesiredObject, LiveObject } from '../../../src/reconcile/types.ts';
import { desired, type MemoryProvider, memoryProvider } from './builders.ts';

const secrets = { lookup: undefined, resend: false };

/** These kinds keep their objects in memory: the run has no client. */
const noClients = { clients: {}, signal: new AbortController().signal };

async function run(
  providers: MemoryProvider[],
  wanted: DesiredObject[],
  options: { parallelism?: number; interrupt?: AbortController; onEvent?: (e: ReconcileEvent) => void } = {},
) {
  const byKind = new Map(providers.map((p) => [p.kind, p]));
  const liveByKey = new Map<string, LiveObject>();
  const snapshots = await Promise.all(
    providers.map(async (provider) => {
      const listed = await provider.list(runContexts(noClients)(provider), {});
      for (const l of listed) liveByKey.set(addressKey(l.address), l);
      return {
        provider,
        desired: wanted.filter((d) => d.kind === provider.kind),
        live: new Map(listed.map((l) => [addressKey(l.address), l])),
      };
    }),
  );
  const { plan } = buildPlan(snapshots, { prune: false, ownership: [], secrets });
  const events = new EventStream();
  const seen: ReconcileEvent[] = [];
  events.on((e) => {
    seen.push(e);
    options.onEvent?.(e);
  });
  const summary = await applyPlan(plan, {
    providers: byKind,
    desired: new Map(wanted.map((d) => [addressKey(d.address), d])),
    live: liveByKey,
    ...noClients,
    parallelism: options.parallelism ?? 4,
    events,
    interrupt: (options.interrupt ?? new AbortController()).signal,
  });
  return { plan, summary, events: seen };
}

function unknownOutcome(): Error {
  return Object.assign(new Error('socket hang up after the request was sent'), { outcome: 'unknown' });
}

describe('applyPlan', () => {
  it('creates and updates, then a new plan has no changes', async () => {
    const p = memoryProvider('ToolVersion');
    p.objects.set('b', { url: 'old', enabled: true });
    const wanted = [desired('ToolVersion', 'a', { url: 'u1' }), desired('ToolVersion', 'b', { url: 'u2' })];
    const first = await run([p], wanted);
    expect(first.summary.done).toEqual({ create: 1, update: 1 });
    expect(first.summary.failed).toEqual([]);
    const second = await run([p], wanted);
    expect(second.plan.counts).toEqual({ noop: 2 });
  });

  it('fails only the actions that depend on a failed one and runs the rest', async () => {
    const modules = memoryProvider('RegistryModule');
    const variables = memoryProvider('ModuleTestVariable', {
      dependsOn: ['RegistryModule'],
      references: (d) => [{ kind: 'RegistryModule', name: String(d.spec.module) }],
    });
    modules.failOn.set('create:bad', Object.assign(new Error('422 invalid attribute'), { status: 422 }));
    const wanted = [
      desired('RegistryModule', 'bad', {}),
      desired('RegistryModule', 'good', {}),
      desired('ModuleTestVariable', 'v1', { module: 'bad' }),
      desired('ModuleTestVariable', 'v2', { module: 'good' }),
    ];
    const { summary } = await run([modules, variables], wanted);
    expect(summary.failed).toEqual([
      { key: 'RegistryModule/bad', action: 'create', error: { message: '422 invalid attribute', status: 422 } },
    ]);
    expect(summary.skipped).toEqual([
      { key: 'ModuleTestVariable/v1', action: 'create', reason: 'dependency-failed', cause: 'RegistryModule/bad' },
    ]);
    expect(summary.done).toEqual({ create: 2 });
    expect(variables.objects.has('v2')).toBe(true);
    expect(variables.objects.has('v1')).toBe(false);
  });

  it('recognises a create whose answer was lost by reading back, without creating twice', async () => {
    const p = memoryProvider('ToolVersion');
    const create = p.create.bind(p);
    // the server processes the create, then the answer is lost
    p.create = async (ctx, d, fields) => {
      await create(ctx, d, fields);
      throw unknownOutcome();
    };
    const { summary, events } = await run([p], [desired('ToolVersion', 'a', { url: 'u' })]);
    expect(summary.done).toEqual({ create: 1 });
    expect(p.calls.filter((c) => c.startsWith('create'))).toEqual(['create:a']);
    expect(events.find((e) => e.type === 'action-done')).toMatchObject({ recovered: true });
  });

  it('creates again when read-back shows a lost create never happened', async () => {
    const p = memoryProvider('ToolVersion');
    p.failOn.set('create:a', unknownOutcome());
    const { summary } = await run([p], [desired('ToolVersion', 'a', { url: 'u' })]);
    expect(summary.done).toEqual({ create: 1 });
    expect(p.objects.get('a')).toEqual({ enabled: true, url: 'u' });
  });

  it('after a lost update answer sends only what is still different', async () => {
    const p = memoryProvider('AdminUser');
    p.objects.set('bob', { enabled: true, admin: false, suspended: false });
    const update = p.update.bind(p);
    let first = true;
    p.update = async (ctx, d, l, fields) => {
      await update(ctx, d, l, first ? { admin: true } : fields);
      if (first) {
        first = false;
        throw unknownOutcome();
      }
    };
    const { summary } = await run([p], [desired('AdminUser', 'bob', { admin: true, suspended: true })]);
    expect(summary.done).toEqual({ update: 1 });
    // the first call only got admin through before its answer was lost; the retry sends just the rest
    expect(p.calls.filter((c) => c.startsWith('update'))).toEqual(['update:bob:admin', 'update:bob:suspended']);
    expect(p.objects.get('bob')).toMatchObject({ admin: true, suspended: true });
  });

  it('says an update whose answer was lost, and whose read-back failed too, may have been applied', async () => {
    const p = memoryProvider('AdminUser');
    p.objects.set('bob', { enabled: true, admin: false });
    const update = p.update.bind(p);
    p.update = async (ctx, d, l, fields) => {
      await update(ctx, d, l, fields);
      // the server applied it; its answer, then the read-back, are lost
      p.list = async () => {
        throw new Error('GET /users: connection closed (gave up after 7 attempts)');
      };
      throw unknownOutcome();
    };
    const { summary } = await run([p], [desired('AdminUser', 'bob', { admin: true })]);
    expect(summary.failed).toEqual([
      {
        key: 'AdminUser/bob',
        action: 'update',
        error: {
          message:
            'socket hang up after the request was sent; reading back failed too (GET /users: connection closed (gave up after 7 attempts))',
          outcome: 'unknown',
        },
      },
    ]);
    expect(p.objects.get('bob')).toMatchObject({ admin: true });
  });

  it('stops starting new actions on interrupt and reports what was not done', async () => {
    const p = memoryProvider('ToolVersion');
    const interrupt = new AbortController();
    const wanted = ['a', 'b', 'c', 'd'].map((id) => desired('ToolVersion', id, { url: id }));
    const { summary } = await run([p], wanted, {
      parallelism: 1,
      interrupt,
      onEvent: (e) => {
        if (e.type === 'action-done') interrupt.abort();
      },
    });
    expect(summary.interrupted).toBe(true);
    expect(summary.done).toEqual({ create: 1 });
    expect(summary.skipped.map((s) => [s.key, s.reason])).toEqual([
      ['ToolVersion/b', 'interrupted'],
      ['ToolVersion/c', 'interrupted'],
      ['ToolVersion/d', 'interrupted'],
    ]);
    expect(p.objects.size).toBe(1);
  });

  it('skips the dependents of what was not started for the same reason, and names a failure where it happened', async () => {
    const chain = () => {
      const modules = memoryProvider('RegistryModule');
      const variables = memoryProvider('ModuleTestVariable', {
        dependsOn: ['RegistryModule'],
        references: (d) => [{ kind: 'RegistryModule', name: String(d.spec.module) }],
      });
      const uses = memoryProvider('ToolVersion', {
        dependsOn: ['ModuleTestVariable'],
        references: (d) => [{ kind: 'ModuleTestVariable', name: String(d.spec.variable) }],
      });
      const wanted = [
        desired('RegistryModule', 'm1', {}),
        desired('RegistryModule', 'm2', {}),
        desired('ModuleTestVariable', 'v2', { module: 'm2' }),
        desired('ToolVersion', 't2', { variable: 'v2' }),
      ];
      return { providers: [modules, variables, uses], wanted, modules };
    };
    const skipped = (summary: Awaited<ReturnType<typeof run>>['summary']) =>
      summary.skipped.map((s) => [s.key, s.reason, s.cause]);

    // interrupted after m1: m2 is not started, so neither is what depends on it
    const interrupted = chain();
    const interrupt = new AbortController();
    const stopped = await run(interrupted.providers, interrupted.wanted, {
      parallelism: 1,
      interrupt,
      onEvent: (e) => {
        if (e.type === 'action-done') interrupt.abort();
      },
    });
    expect(stopped.summary.failed).toEqual([]);
    expect(skipped(stopped.summary)).toEqual([
      ['RegistryModule/m2', 'interrupted', undefined],
      ['ModuleTestVariable/v2', 'interrupted', undefined],
      ['ToolVersion/t2', 'interrupted', undefined],
    ]);

    // m2 fails: both dependents name m2, the one that failed
    const failing = chain();
    failing.modules.failOn.set('create:m2', Object.assign(new Error('422 invalid attribute'), { status: 422 }));
    const failed = await run(failing.providers, failing.wanted);
    expect(skipped(failed.summary)).toEqual([
      ['ModuleTestVariable/v2', 'dependency-failed', 'RegistryModule/m2'],
      ['ToolVersion/t2', 'dependency-failed', 'RegistryModule/m2'],
    ]);
  });

  it('treats deleting an object that is already gone as done', async () => {
    const p = memoryProvider('AdminUser', { deletePolicy: 'absent-only' });
    p.objects.set('bob', {});
    p.failOn.set('delete:bob', Object.assign(new Error('404 not found'), { status: 404 }));
    const { summary } = await run([p], [desired('AdminUser', 'bob', {}, { ensure: 'absent' })]);
    expect(summary.done).toEqual({ delete: 1 });
    expect(summary.failed).toEqual([]);
  });

  it('emits start, done and summary events in order', async () => {
    const p = memoryProvider('ToolVersion');
    const { events } = await run([p], [desired('ToolVersion', 'a', { url: 'u' })]);
    expect(events.map((e) => e.type)).toEqual(['apply-start', 'action-start', 'action-done', 'apply-done']);
    expect(events.map((e) => e.seq)).toEqual([1, 2, 3, 4]);
  });
});
