import { describe, expect, it } from 'vitest';
import { ConcurrencyWindow } from '../../../src/api/concurrency.ts';

const good = { overloaded: false, latencyMs: 20 };
const bad = { overloaded: true, latencyMs: 20 };

function clock(start = 1000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

/** Resolves true when the promise settles within a few turns of the event loop. */
async function settles(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  promise.then(
    () => (done = true),
    () => (done = true),
  );
  for (let i = 0; i < 5; i++) await Promise.resolve();
  return done;
}

describe('the adaptive concurrency window', () => {
  it('lets `initial` requests in and holds the next until one is released', async () => {
    const window = new ConcurrencyWindow({ initial: 2, max: 2 });
    const a = await window.acquire();
    await window.acquire();
    const third = window.acquire();
    expect(await settles(third)).toBe(false);
    a(good);
    expect(await settles(third)).toBe(true);
    expect(window.inFlight).toBe(2);
  });

  it('stays fixed when initial equals max (--parallelism N)', async () => {
    const window = new ConcurrencyWindow({ initial: 4, max: 4 });
    for (let i = 0; i < 50; i++) (await window.acquire())(good);
    expect(window.limit).toBe(4);
  });

  it('doubles per round trip in slow start, up to max', async () => {
    const window = new ConcurrencyWindow({ initial: 10, max: 64 });
    for (let i = 0; i < 10; i++) (await window.acquire())(good);
    expect(window.limit).toBe(20);
    for (let i = 0; i < 100; i++) (await window.acquire())(good);
    expect(window.limit).toBe(64);
  });

  it('narrows to 70 % on overload, once per round trip, then grows by one per window', async () => {
    const time = clock();
    const window = new ConcurrencyWindow({ initial: 20, max: 64, now: time.now });
    const inFlight = await Promise.all(Array.from({ length: 20 }, () => window.acquire()));
    time.advance(20);
    // a burst of bad answers to requests sent together counts once
    for (const release of inFlight.slice(0, 10)) release(bad);
    expect(window.limit).toBe(14);
    for (const release of inFlight.slice(10)) release(good);
    // congestion avoidance: 14 good answers widen a window of 14 by about one
    const before = window.limit;
    for (let i = 0; i < before; i++) (await window.acquire())(good);
    expect(window.limit).toBe(before + 1);
  });

  it('narrows when round trips grow well above the quietest one (a queue is building)', async () => {
    const window = new ConcurrencyWindow({ initial: 32, max: 64 });
    for (let i = 0; i < 40; i++) (await window.acquire())({ overloaded: false, latencyMs: 5 });
    const widest = window.limit;
    for (let i = 0; i < 40; i++) (await window.acquire())({ overloaded: false, latencyMs: 200 });
    expect(window.limit).toBeLessThan(widest);
  });

  it('after a cut on round trips alone, grows back one per good answer to where it was; after a 429, slowly', async () => {
    const time = clock();
    const window = new ConcurrencyWindow({ initial: 40, max: 64, now: time.now });
    const quiet = { overloaded: false, latencyMs: 5 };
    // GIVEN a quiet round trip learnt, out of slow start (a 429 cut 40 to 28)
    (await window.acquire())({ overloaded: true, latencyMs: 5 });
    expect(window.limit).toBe(28);
    // WHEN answers come back late (a busy client or a collection): one cut
    time.advance(10);
    const late = await Promise.all(Array.from({ length: 5 }, () => window.acquire()));
    time.advance(200);
    for (const release of late) release({ overloaded: false, latencyMs: 200 });
    expect(window.limit).toBe(19);
    // THEN quiet answers widen it by one each up to 28 (where it was), then by one per window
    for (let i = 0; i < 9; i++) (await window.acquire())(quiet);
    expect(window.limit).toBe(28);
    for (let i = 0; i < 9; i++) (await window.acquire())(quiet);
    expect(window.limit).toBe(28);
    // a 429 gives no such credit: it grows by one per window from its cut
    time.advance(10);
    (await window.acquire())({ overloaded: true, latencyMs: 5 });
    const cut = window.limit;
    for (let i = 0; i < cut; i++) (await window.acquire())(quiet);
    expect(window.limit).toBe(cut + 1);
  });

  it('stays in slow start after a cut on round trips alone', async () => {
    const time = clock();
    const window = new ConcurrencyWindow({ initial: 20, max: 64, now: time.now });
    (await window.acquire())({ overloaded: false, latencyMs: 5 });
    const late = await Promise.all(Array.from({ length: 3 }, () => window.acquire()));
    time.advance(200);
    for (const release of late) release({ overloaded: false, latencyMs: 200 });
    expect(window.limit).toBe(14);
    // good answers widen it by one each, past where it was cut
    for (let i = 0; i < 20; i++) (await window.acquire())({ overloaded: false, latencyMs: 5 });
    expect(window.limit).toBe(34);
  });

  it('never goes below one request', async () => {
    const time = clock();
    const window = new ConcurrencyWindow({ initial: 3, max: 8, now: time.now });
    for (let i = 0; i < 30; i++) {
      time.advance(100);
      (await window.acquire())(bad);
    }
    expect(window.limit).toBe(1);
  });

  it('gives up a waiting turn on abort without losing a slot', async () => {
    const window = new ConcurrencyWindow({ initial: 1, max: 1 });
    const held = await window.acquire();
    const abort = new AbortController();
    const waiting = window.acquire(abort.signal);
    abort.abort(new Error('stop'));
    await expect(waiting).rejects.toThrow('stop');
    held();
    const next = window.acquire();
    expect(await settles(next)).toBe(true);
  });
});
