import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { registerSecret } from '../../../src/api/redact.ts';
import { ApplyViewStore } from '../../../src/ui/ink/store.ts';
import { ev, planned, planOf, summary } from './events.ts';

beforeEach(() => {
  vi.useFakeTimers({ now: 1_000_000 });
});
afterEach(() => {
  vi.useRealTimers();
});

function started(actions = [planned('GeneralSettings'), planned('AdminUser/ann', 'create')]) {
  const store = new ApplyViewStore();
  const notified = vi.fn();
  store.subscribe(notified);
  store.fold(ev({ type: 'plan-ready', plan: planOf(actions) }));
  store.fold(ev({ type: 'apply-start', total: actions.length }));
  return { store, notified, actions };
}

describe('ApplyViewStore folding', () => {
  it('starts waiting, with nothing to show', () => {
    const view = new ApplyViewStore().getSnapshot();
    expect(view.phase).toBe('waiting');
    expect(view.staticItems).toEqual([]);
  });

  it('puts the plan counts in a header and tracks actions in flight by kind', () => {
    const { store, actions } = started();
    store.fold(ev({ type: 'action-start', action: actions[1]! }));
    vi.advanceTimersByTime(250);
    store.fold(ev({ type: 'action-start', action: actions[0]! }));
    vi.advanceTimersByTime(100);
    const view = store.getSnapshot();
    expect(view.phase).toBe('applying');
    expect(view.staticItems[0]).toEqual({ id: 'header', type: 'header', total: 2, counts: { update: 1, create: 1 } });
    expect(view.running).toBe(2);
    expect(view.groups.map((g) => [g.kind, g.running, g.total, g.rows.map((r) => r.key)])).toEqual([
      ['GeneralSettings', 1, 1, ['GeneralSettings']],
      ['AdminUser', 1, 1, ['AdminUser/ann']],
    ]);
    // the ann row started 250 ms before the settings row
    const [settings, ann] = view.groups.map((g) => g.rows[0]!);
    expect(settings!.startedAt - ann!.startedAt).toBe(250);
  });

  it('moves finished actions to the static rows and counts them per action and per kind', () => {
    const { store, actions } = started();
    for (const a of actions) store.fold(ev({ type: 'action-start', action: a }));
    store.fold(ev({ type: 'action-done', action: actions[0]!, elapsedMs: 120 }));
    store.fold(ev({ type: 'action-done', action: actions[1]!, elapsedMs: 80, recovered: true }));
    vi.advanceTimersByTime(100);
    const view = store.getSnapshot();
    expect(view.running).toBe(0);
    expect(view.groups).toEqual([]);
    expect([view.done, view.finished, view.doneByAction]).toEqual([2, 2, { update: 1, create: 1 }]);
    expect(view.staticItems[1]).toMatchObject({
      type: 'rows',
      rows: [
        { outcome: 'done', action: 'update', key: 'GeneralSettings', elapsedMs: 120 },
        { outcome: 'done', action: 'create', key: 'AdminUser/ann', elapsedMs: 80, recovered: true },
      ],
    });
  });

  it('keeps failures with the API message, and lists dependency skips but only counts interrupted ones', () => {
    const actions = [planned('AdminUser/ann', 'create'), planned('AdminUser/bob', 'create'), planned('Team/x')];
    const { store } = started(actions);
    store.fold(ev({ type: 'action-start', action: actions[0]! }));
    store.fold(
      ev({
        type: 'action-failed',
        action: actions[0]!,
        error: { message: 'POST /users: 422 email taken', status: 422 },
      }),
    );
    store.fold(
      ev({ type: 'action-skipped', action: actions[1]!, reason: 'dependency-failed', cause: 'AdminUser/ann' }),
    );
    store.fold(ev({ type: 'action-skipped', action: actions[2]!, reason: 'interrupted' }));
    vi.advanceTimersByTime(100);
    const view = store.getSnapshot();
    expect([view.failed, view.skipped, view.finished]).toEqual([1, 2, 3]);
    expect(view.failures).toEqual([
      { key: 'AdminUser/ann', action: 'create', message: 'POST /users: 422 email taken' },
    ]);
    const rows = view.staticItems.flatMap((i) => (i.type === 'rows' ? i.rows : []));
    expect(rows).toEqual([
      { outcome: 'failed', action: 'create', key: 'AdminUser/ann', message: 'POST /users: 422 email taken' },
      { outcome: 'skipped', action: 'create', key: 'AdminUser/bob', message: 'depends on AdminUser/ann which failed' },
    ]);
  });

  it('counts retries of the apply and remembers the last one, and records an interrupt', () => {
    const store = new ApplyViewStore();
    store.fold(ev({ type: 'retry', method: 'GET', path: '/read', attempt: 1, delayMs: 100, reason: '503' }));
    store.fold(ev({ type: 'apply-start', total: 1 }));
    store.fold(ev({ type: 'retry', method: 'GET', path: '/a', attempt: 1, delayMs: 100, reason: '429' }));
    store.fold(ev({ type: 'retry', method: 'PATCH', path: '/b', attempt: 2, delayMs: 200, reason: '503' }));
    store.fold(ev({ type: 'interrupt' }));
    vi.advanceTimersByTime(100);
    const view = store.getSnapshot();
    expect([view.retries, view.lastRetry, view.interrupted]).toEqual([2, 'PATCH /b: 503', true]);
  });

  it('caps visible in-flight rows across kinds and says how many are hidden', () => {
    const actions = [
      ...Array.from({ length: 5 }, (_, i) => planned(`AdminUser/u${i}`, 'create')),
      ...Array.from({ length: 15 }, (_, i) => planned(`Team/t${i}`, 'create')),
    ];
    const { store } = started(actions);
    for (const a of actions) store.fold(ev({ type: 'action-start', action: a }));
    vi.advanceTimersByTime(100);
    const view = store.getSnapshot();
    expect(view.groups.map((g) => [g.kind, g.running, g.rows.length])).toEqual([
      ['AdminUser', 5, 5],
      ['Team', 15, 3],
    ]);
    expect(view.hiddenRunning).toBe(12);
  });

  it('shows only the latest failures in the live region', () => {
    const actions = Array.from({ length: 7 }, (_, i) => planned(`AdminUser/u${i}`, 'create'));
    const { store } = started(actions);
    for (const a of actions)
      store.fold(ev({ type: 'action-failed', action: a, error: { message: `no ${a.address.name}` } }));
    vi.advanceTimersByTime(100);
    const view = store.getSnapshot();
    expect(view.failures.map((f) => f.message)).toEqual(['no u4', 'no u5', 'no u6']);
    expect(view.hiddenFailures).toBe(4);
  });

  it('reports elapsed time and throughput since apply-start', () => {
    const actions = Array.from({ length: 10 }, (_, i) => planned(`AdminUser/u${i}`, 'create'));
    const { store } = started(actions);
    vi.advanceTimersByTime(1_950);
    for (const a of actions) store.fold(ev({ type: 'action-done', action: a, elapsedMs: 5 }));
    vi.advanceTimersByTime(50);
    const view = store.getSnapshot();
    expect(view.elapsedMs).toBe(2_000);
    expect(view.throughput).toBeCloseTo(5);
  });

  it('ends with the summary of an interrupted apply, frozen at apply-done', () => {
    const { store, notified, actions } = started();
    store.fold(ev({ type: 'interrupt' }));
    store.fold(ev({ type: 'action-skipped', action: actions[1]!, reason: 'interrupted' }));
    vi.advanceTimersByTime(700);
    const calls = notified.mock.calls.length;
    const final = summary({
      done: { update: 1 },
      skipped: [{ key: 'AdminUser/ann', action: 'create', reason: 'interrupted' }],
      interrupted: true,
      elapsedMs: 700,
    });
    store.fold(ev({ type: 'apply-done', summary: final }));
    // the final flush is immediate, not on the next tick
    expect(notified.mock.calls.length).toBe(calls + 1);
    const view = store.getSnapshot();
    expect([view.phase, view.interrupted, view.summary]).toEqual(['done', true, final]);
    vi.advanceTimersByTime(5_000);
    expect(store.getSnapshot()).toBe(view);
    expect(notified.mock.calls.length).toBe(calls + 1);
  });

  it('tells an outcome unknown (a lost answer the read-back could not settle) apart from a failure', () => {
    const lost = planned('AdminUser/ann', 'create');
    const refused = planned('AdminUser/bob', 'create');
    const { store } = started([lost, refused]);
    const unknown = { message: 'POST /users: the answer was lost', outcome: 'unknown' as const };
    store.fold(ev({ type: 'action-failed', action: lost, error: unknown }));
    store.fold(ev({ type: 'action-failed', action: refused, error: { message: 'POST /users: 422 taken' } }));
    vi.advanceTimersByTime(100);
    const view = store.getSnapshot();
    expect(view.failures).toEqual([
      { key: 'AdminUser/ann', action: 'create', message: 'POST /users: the answer was lost', unknown: true },
      { key: 'AdminUser/bob', action: 'create', message: 'POST /users: 422 taken' },
    ]);
    const rows = view.staticItems.flatMap((item) => (item.type === 'rows' ? item.rows : []));
    expect(rows.map((row) => [row.key, row.outcome])).toEqual([
      ['AdminUser/ann', 'unknown'],
      ['AdminUser/bob', 'failed'],
    ]);
  });

  it('redacts registered secrets from keys, messages and the summary', () => {
    registerSecret('hunter2-very-secret');
    const action = planned('AdminUser/ann', 'update');
    const { store } = started([action]);
    const error = { message: 'PATCH /users/ann: 422 password hunter2-very-secret is too weak' };
    store.fold(ev({ type: 'action-failed', action, error }));
    store.fold(
      ev({ type: 'apply-done', summary: summary({ failed: [{ key: action.key, action: 'update', error }] }) }),
    );
    const view = store.getSnapshot();
    expect(JSON.stringify(view)).not.toContain('hunter2-very-secret');
    expect(view.failures[0]!.message).toBe('PATCH /users/ann: 422 password *** is too weak');
    expect(view.summary!.failed[0]!.error.message).toContain('***');
  });
});

describe('ApplyViewStore throttling', () => {
  it('coalesces 5,000 actions over 5 s into at most one notification per 100 ms', () => {
    const actions = Array.from({ length: 5_000 }, (_, i) => planned(`AdminUser/u${i}`, 'create'));
    const { store, notified } = started(actions);
    for (const a of actions) {
      store.fold(ev({ type: 'action-start', action: a }));
      vi.advanceTimersByTime(1);
      store.fold(ev({ type: 'action-done', action: a, elapsedMs: 1 }));
    }
    store.fold(ev({ type: 'apply-done', summary: summary({ done: { create: 5_000 }, elapsedMs: 5_000 }) }));
    expect(notified.mock.calls.length).toBeLessThanOrEqual(5_000 / 100 + 1);
    expect(notified.mock.calls.length).toBeGreaterThanOrEqual(5_000 / 100 - 1);
    const view = store.getSnapshot();
    expect(view.done).toBe(5_000);
    // every finished row reaches the static log exactly once, in batches (not one item per row)
    const rows = view.staticItems.flatMap((i) => (i.type === 'rows' ? i.rows : []));
    expect(rows).toHaveLength(5_000);
    expect(new Set(rows.map((r) => r.key)).size).toBe(5_000);
    expect(view.staticItems.length).toBeLessThanOrEqual(5_000 / 100 + 2);
  });

  it('turns a synchronous burst into a single notification on the next tick', () => {
    const actions = Array.from({ length: 5_000 }, (_, i) => planned(`Team/t${i}`, 'delete'));
    const { store, notified } = started(actions);
    for (const a of actions) store.fold(ev({ type: 'action-skipped', action: a, reason: 'interrupted' }));
    expect(notified).not.toHaveBeenCalled();
    vi.advanceTimersByTime(100);
    expect(notified).toHaveBeenCalledTimes(1);
    expect(store.getSnapshot().skipped).toBe(5_000);
  });

  it('stays quiet when nothing changes and nothing is in flight, and ticks while something runs', () => {
    const { store, notified, actions } = started();
    vi.advanceTimersByTime(1_000);
    // apply-start itself is published once (the header), then nothing moves
    expect(notified).toHaveBeenCalledTimes(1);
    store.fold(ev({ type: 'action-start', action: actions[0]! }));
    vi.advanceTimersByTime(1_000);
    // the spinner and the elapsed time move while the request is in flight
    expect(notified).toHaveBeenCalledTimes(11);
    expect(store.getSnapshot().now).toBe(1_002_000);
  });

  it('stops ticking when disposed', () => {
    const { store, notified, actions } = started();
    store.fold(ev({ type: 'action-start', action: actions[0]! }));
    store.dispose();
    vi.advanceTimersByTime(1_000);
    expect(notified).not.toHaveBeenCalled();
  });
});
