/**
 * Reading live state (src/reconcile/read.ts): the full reads of a LIST-style
 * kind go through the shared queue a few at a time, never one waiting task
 * per object (docs/performance.md, "Memory"), and still every object is read,
 * in order, with the first failure reported.
 */
import PQueue from 'p-queue';
import { describe, expect, it } from 'vitest';
import { EventStream } from '../../../src/reconcile/events.ts';
import type { ProviderContext } from '../../../src/reconcile/provider.ts';
import { type ReadRequest, readLive } from '../../../src/reconcile/read.ts';
import type { LiveObject } from '../../../src/reconcile/types.ts';
import { memoryProvider } from './builders.ts';

const OBJECTS = 1000;
const CONCURRENCY = 4;

/** A kind whose list gives names only, and whose read answers after a turn of the event loop. */
function namesOnlyKind(failAt?: number) {
  const read: string[] = [];
  let mostWaiting = 0;
  const queue = new PQueue({ concurrency: CONCURRENCY });
  const provider = memoryProvider('SSHRole', {
    async list() {
      return Array.from({ length: OBJECTS }, (_, i): LiveObject => {
        const name = `role-${i}`;
        return { kind: 'SSHRole', address: { kind: 'SSHRole', name }, ref: name };
      });
    },
    async read(_ctx, live) {
      mostWaiting = Math.max(mostWaiting, queue.size);
      const nth = read.push(live.address.name);
      await new Promise((resolve) => setImmediate(resolve));
      if (nth === failAt) throw new Error(`no answer for ${live.address.name}`);
      return { ...live, fields: { name: live.address.name } };
    },
  });
  const ctx = { client: { stats: { requests: 0 } } } as unknown as ProviderContext;
  const request: ReadRequest = {
    provider,
    units: new Map([['SSHRole', { kind: 'SSHRole', scope: '' }]]),
    needFields: 'all',
  };
  const run = () => readLive([request], () => ctx, queue, new EventStream());
  return { run, read, mostWaiting: () => mostWaiting };
}

describe('reading live state', () => {
  it('reads every listed object, in order, handing the queue at most twice its concurrency', async () => {
    const kind = namesOnlyKind();
    const state = await kind.run();
    expect(state.get('SSHRole')?.size).toBe(OBJECTS);
    expect([...(state.get('SSHRole')?.values() ?? [])].every((l) => l.fields !== undefined)).toBe(true);
    expect(kind.read).toEqual(Array.from({ length: OBJECTS }, (_, i) => `role-${i}`));
    // as many running and as many waiting; queued all at once, the queue held every read not yet started
    expect(kind.mostWaiting()).toBeLessThanOrEqual(CONCURRENCY);
  });

  it('fails with the first read that fails', async () => {
    const kind = namesOnlyKind(10);
    await expect(kind.run()).rejects.toThrow('no answer for role-9');
  });
});
