import { render } from 'ink-testing-library';
import React from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApplyView, LiveApplyView } from '../../../src/ui/ink/app.ts';
import { finishedLine } from '../../../src/ui/ink/rows.ts';
import { ApplyViewStore } from '../../../src/ui/ink/store.ts';
import { formatDuration, tone } from '../../../src/ui/ink/theme.ts';
import { ev, planned, planOf, stubTerminalSize, summary, unstyled } from './events.ts';

const h = React.createElement;

// only the store's ticker and clock are faked: React and Ink keep their real scheduling
beforeEach(() => {
  vi.useFakeTimers({ now: 0, toFake: ['setInterval', 'clearInterval', 'Date'] });
  stubTerminalSize();
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllEnvs();
});

const settings = planned('GeneralSettings', 'update');
const ann = planned('AdminUser/ann', 'create');
const bob = planned('AdminUser/bob', 'create');
const team = planned('Team/core', 'create');

function applying(actions = [settings, ann, bob]) {
  const store = new ApplyViewStore();
  store.fold(ev({ type: 'plan-ready', plan: planOf(actions) }));
  store.fold(ev({ type: 'apply-start', total: actions.length }));
  return store;
}

/** Lets the store publish its next snapshot. */
function tick() {
  vi.advanceTimersByTime(100);
}

describe('ApplyView', () => {
  it('renders nothing before the apply starts', () => {
    const { lastFrame } = render(h(ApplyView, { view: new ApplyViewStore().getSnapshot(), colors: false }));
    expect(lastFrame()).toBe('');
  });

  it('shows actions in flight grouped by kind, with spinner and elapsed time, under the plan header', () => {
    const store = applying();
    store.fold(ev({ type: 'action-start', action: ann }));
    store.fold(ev({ type: 'action-start', action: bob }));
    vi.advanceTimersByTime(1_500);
    store.fold(ev({ type: 'action-start', action: settings }));
    tick();
    const { lastFrame } = render(h(ApplyView, { view: store.getSnapshot(), colors: false }));
    expect(lastFrame()).toMatchInlineSnapshot(`
      "Applying 3 change(s): 1 update, 2 create
      GeneralSettings  0/1 finished, 1 running
        ⠦ update  GeneralSettings  100ms
      AdminUser  0/2 finished, 2 running
        ⠦ create  AdminUser/ann  1.6s
        ⠦ create  AdminUser/bob  1.6s
      [0/3] 0 done · 0 failed · 0 skipped · 3 running · 0.0/s · 1.6s"
    `);
  });

  it('says how many in-flight rows are hidden beyond the cap', () => {
    const actions = Array.from({ length: 12 }, (_, i) => planned(`Team/t${i}`, 'create'));
    const store = applying(actions);
    for (const a of actions) store.fold(ev({ type: 'action-start', action: a }));
    tick();
    const { lastFrame } = render(h(ApplyView, { view: store.getSnapshot(), colors: false }));
    const frame = lastFrame() ?? '';
    expect(frame).toContain('Team  0/12 finished, 12 running');
    expect(frame.match(/ create {2}Team\/t\d+/g)).toHaveLength(8);
    expect(frame).toContain('  +4 more running');
  });

  it('shows a failed action with the API message in the live region and in the log', () => {
    const store = applying();
    store.fold(ev({ type: 'action-start', action: ann }));
    store.fold(
      ev({
        type: 'action-failed',
        action: ann,
        error: { message: 'POST /api/users: 422 email is taken', status: 422 },
      }),
    );
    store.fold(ev({ type: 'action-skipped', action: bob, reason: 'dependency-failed', cause: 'AdminUser/ann' }));
    tick();
    const { lastFrame } = render(h(ApplyView, { view: store.getSnapshot(), colors: false }));
    expect(lastFrame()).toMatchInlineSnapshot(`
      "Applying 3 change(s): 1 update, 2 create
      ✗ create  AdminUser/ann  failed: POST /api/users: 422 email is taken
      ↷ create  AdminUser/bob  skipped: depends on AdminUser/ann which failed
      Failed (1)
        ✗ create AdminUser/ann: POST /api/users: 422 email is taken
      [2/3] 0 done · 1 failed · 1 skipped · 0 running · 20/s · 100ms"
    `);
  });

  it('prints finished actions once through <Static>, above the live rows', () => {
    const store = applying();
    store.fold(ev({ type: 'action-start', action: settings }));
    store.fold(ev({ type: 'action-start', action: ann }));
    store.fold(ev({ type: 'action-done', action: settings, elapsedMs: 120 }));
    tick();
    const { lastFrame, rerender } = render(h(ApplyView, { view: store.getSnapshot(), colors: false }));
    store.fold(ev({ type: 'action-done', action: ann, elapsedMs: 80, recovered: true }));
    store.fold(ev({ type: 'action-start', action: bob }));
    tick();
    rerender(h(ApplyView, { view: store.getSnapshot(), colors: false }));
    const frame = lastFrame() ?? '';
    expect(frame).toMatchInlineSnapshot(`
      "Applying 3 change(s): 1 update, 2 create
      ✓ update  GeneralSettings  120ms
      ✓ create  AdminUser/ann  80ms (recovered after a lost answer)
      AdminUser  1/2 finished, 1 running
        ⠹ create  AdminUser/bob  100ms
      [2/3] 2 done · 0 failed · 0 skipped · 1 running · 10/s · 200ms"
    `);
    expect(frame.split('GeneralSettings  120ms')).toHaveLength(2);
  });

  it('ends with a summary of what was done and what failed', () => {
    const store = applying();
    store.fold(ev({ type: 'action-done', action: settings, elapsedMs: 120 }));
    store.fold(ev({ type: 'action-failed', action: ann, error: { message: 'POST /api/users: 422 email is taken' } }));
    store.fold(ev({ type: 'action-skipped', action: bob, reason: 'dependency-failed', cause: 'AdminUser/ann' }));
    store.fold(
      ev({
        type: 'apply-done',
        summary: summary({
          done: { update: 1 },
          failed: [{ key: ann.key, action: 'create', error: { message: 'POST /api/users: 422 email is taken' } }],
          skipped: [{ key: bob.key, action: 'create', reason: 'dependency-failed', cause: ann.key }],
          elapsedMs: 2_000,
        }),
      }),
    );
    const { lastFrame } = render(h(ApplyView, { view: store.getSnapshot(), colors: false }));
    expect(lastFrame()).toMatchInlineSnapshot(`
      "Applying 3 change(s): 1 update, 2 create
      ✓ update  GeneralSettings  120ms
      ✗ create  AdminUser/ann  failed: POST /api/users: 422 email is taken
      ↷ create  AdminUser/bob  skipped: depends on AdminUser/ann which failed

      Apply finished with failures: 1 updated; 1 failed; 1 skipped (2.0 s)
        1 failed:
          AdminUser/ann (create): POST /api/users: 422 email is taken
        1 skipped, a dependency failed:
          AdminUser/bob (create): AdminUser/ann failed"
    `);
  });

  it('after an interrupt, says what was not started, capped with a count', () => {
    const actions = Array.from({ length: 14 }, (_, i) => planned(`Team/t${i}`, 'create'));
    const store = applying(actions);
    store.fold(ev({ type: 'action-start', action: actions[0]! }));
    store.fold(ev({ type: 'interrupt' }));
    tick();
    const during = render(h(ApplyView, { view: store.getSnapshot(), colors: false }));
    expect(during.lastFrame()).toContain(
      'Interrupted: no new work starts; waiting for 1 request(s) in flight… (Ctrl-C again to quit)',
    );
    store.fold(ev({ type: 'action-done', action: actions[0]!, elapsedMs: 300 }));
    const rest = actions.slice(1);
    for (const a of rest) store.fold(ev({ type: 'action-skipped', action: a, reason: 'interrupted' }));
    store.fold(
      ev({
        type: 'apply-done',
        summary: summary({
          done: { create: 1 },
          skipped: rest.map((a) => ({ key: a.key, action: a.action, reason: 'interrupted' as const })),
          interrupted: true,
          elapsedMs: 400,
        }),
      }),
    );
    const { lastFrame } = render(h(ApplyView, { view: store.getSnapshot(), colors: false }));
    const frame = lastFrame() ?? '';
    expect(frame).toContain('Apply interrupted: 1 created; 0 failed; 13 skipped (0.4 s)');
    expect(frame).toContain('  13 not started (interrupted):');
    expect(frame).toContain('    Team/t1 (create)');
    expect(frame).toContain('    +3 more');
    // not-started actions are counted, not logged one by one
    expect(frame).not.toContain('↷');
  });

  it('writes no escape codes when colours are off', () => {
    const store = applying();
    store.fold(ev({ type: 'action-start', action: ann }));
    store.fold(ev({ type: 'action-done', action: settings, elapsedMs: 1 }));
    store.fold(ev({ type: 'action-failed', action: bob, error: { message: 'boom' } }));
    store.fold(ev({ type: 'retry', method: 'GET', path: '/x', attempt: 1, delayMs: 1, reason: '429' }));
    tick();
    const { lastFrame } = render(h(ApplyView, { view: store.getSnapshot(), colors: false }));
    expect(lastFrame()).toContain('1 retried');
    expect(lastFrame()).not.toContain('\u001b');
    expect(unstyled(lastFrame())).toBe(lastFrame());
  });
});

describe('LiveApplyView', () => {
  it('re-renders when the store publishes, not on every event', async () => {
    const store = applying();
    const { lastFrame, frames } = render(h(LiveApplyView, { store, colors: false }));
    tick();
    await new Promise((resolve) => setImmediate(resolve));
    expect(lastFrame()).toContain('[0/3] 0 done');
    const before = frames.length;
    store.fold(ev({ type: 'action-start', action: team }));
    store.fold(ev({ type: 'action-done', action: team, elapsedMs: 5 }));
    await new Promise((resolve) => setImmediate(resolve));
    expect(frames.length).toBe(before);
    tick();
    await new Promise((resolve) => setImmediate(resolve));
    expect(lastFrame()).toContain('✓ create  Team/core  5ms');
    expect(lastFrame()).toContain('[1/3] 1 done');
    store.dispose();
  });
});

describe('theme helpers', () => {
  it('drops every style when colour is off', () => {
    expect(tone(false, { color: 'red', bold: true, dimColor: true })).toEqual({});
    expect(tone(true, { color: 'red' })).toEqual({ color: 'red' });
  });

  it('colours a log line only when colour is on', () => {
    const row = { outcome: 'failed', action: 'delete', key: 'Team/x', message: '409 in use' } as const;
    expect(finishedLine(row, false)).toBe('✗ delete  Team/x  failed: 409 in use');
    expect(finishedLine(row, true)).toContain('\u001b[31m✗');
    expect(unstyled(finishedLine(row, true))).toBe(finishedLine(row, false));
  });

  it('marks a write whose outcome is unknown as such, not as failed', () => {
    const row = { outcome: 'unknown', action: 'create', key: 'Team/x', message: 'the answer was lost' } as const;
    expect(finishedLine(row, false)).toBe(
      '? create  Team/x  outcome unknown (may have been applied): the answer was lost',
    );
    expect(finishedLine(row, true)).toContain('\u001b[33m?');
  });

  it('formats durations for people', () => {
    expect([formatDuration(120), formatDuration(4_250), formatDuration(125_000)]).toEqual(['120ms', '4.3s', '2m05s']);
  });
});
