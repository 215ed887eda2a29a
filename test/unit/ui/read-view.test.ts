import { render } from 'ink-testing-library';
import React from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { registerSecret } from '../../../src/api/redact.ts';
import { ReadViewStore } from '../../../src/ui/ink/read-store.ts';
import { LiveReadView, ReadView } from '../../../src/ui/ink/read-view.ts';
import { ev, stubTerminalSize, unstyled } from './events.ts';

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

function reading(kinds: string[], options = {}) {
  const store = new ReadViewStore(options);
  store.fold(ev({ type: 'read-start', kinds }));
  return store;
}

const progress = (kind: string, objects: number, requests: number, done = false) =>
  ev({ type: 'read-progress', kind, objects, requests, done });

describe('ReadView', () => {
  it('shows the kinds still being read, objects found, requests sent and the time so far', () => {
    const store = reading(['GeneralSettings', 'RegistryModule', 'AdminUser']);
    store.fold(progress('GeneralSettings', 1, 1, true));
    store.fold(progress('RegistryModule', 12, 4));
    vi.advanceTimersByTime(4_200);
    const { lastFrame } = render(h(ReadView, { view: store.getSnapshot(), colors: false }));
    expect(lastFrame()).toMatchInlineSnapshot(`
      "⠹ Reading live state  1/3 kind(s) read · 13 object(s) · 4 request(s) · 4.2s
        RegistryModule  12 object(s) so far
        AdminUser  0 object(s) so far"
    `);
    store.end();
  });

  it('caps the kinds listed, counts retries and shows the last one without its secret', () => {
    registerSecret('tok-read-view-123456');
    const store = reading(['A', 'B', 'C', 'D'], { maxRows: 2 });
    store.fold(
      ev({
        type: 'retry',
        method: 'GET',
        path: '/api/v2/admin/users?token=tok-read-view-123456',
        attempt: 1,
        delayMs: 200,
        reason: '503',
      }),
    );
    vi.advanceTimersByTime(100);
    const frame = render(h(ReadView, { view: store.getSnapshot(), colors: false })).lastFrame() ?? '';
    expect(frame).toContain('  A  0 object(s) so far\n  B  0 object(s) so far\n  +2 more kind(s) being read');
    expect(frame).toContain('· 1 retried');
    expect(frame).toContain('last retry: GET /api/v2/admin/users?token=***: 503');
    expect(frame).not.toContain('tok-read-view-123456');
    store.end();
  });

  it('ends in one line: what was read, or where a failed read stopped; no escape codes without colour', () => {
    const store = reading(['GeneralSettings', 'AdminUser']);
    store.fold(progress('GeneralSettings', 1, 1, true));
    vi.advanceTimersByTime(900);
    const frame = render(h(ReadView, { view: store.getSnapshot(), colors: false })).lastFrame();
    expect(unstyled(frame)).toBe(frame);
    store.end();
    expect(render(h(ReadView, { view: store.getSnapshot(), colors: false })).lastFrame()).toBe(
      'Reading stopped after 900ms: 1/2 kind(s) read, 1 object(s), 1 request(s)',
    );
    store.fold(ev({ type: 'read-done', objects: 7, requests: 9, elapsedMs: 12_300 }));
    store.end();
    expect(render(h(ReadView, { view: store.getSnapshot(), colors: false })).lastFrame()).toBe(
      'Read 7 live object(s) in 12.3s, 9 request(s)',
    );
  });
});

describe('LiveReadView', () => {
  it('moves with the ticker and shrinks to one line when reading ends', async () => {
    const store = reading(['SSHRole']);
    const { lastFrame } = render(h(LiveReadView, { store, colors: false }));
    store.fold(progress('SSHRole', 40, 41));
    vi.advanceTimersByTime(1_500);
    await new Promise((resolve) => setImmediate(resolve));
    expect(lastFrame()).toContain('0/1 kind(s) read · 40 object(s) · 41 request(s) · 1.5s');
    store.fold(progress('SSHRole', 40, 41, true));
    store.fold(ev({ type: 'read-done', objects: 40, requests: 41, elapsedMs: 1_500 }));
    store.end();
    await new Promise((resolve) => setImmediate(resolve));
    expect(lastFrame()).toBe('Read 40 live object(s) in 1.5s, 41 request(s)');
  });
});
