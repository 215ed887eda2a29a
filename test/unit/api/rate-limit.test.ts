/**
 * The limiter's learning, with an injected clock. Pacing itself (which
 * needs real time) is exercised against real servers in client-rate-limit.
 */
import { describe, expect, it } from 'vitest';
import { RateLimiter } from '../../../src/api/rate-limit.ts';

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Whether a promise has settled yet, to check after a few turns. */
function settled(promise: Promise<unknown>): () => boolean {
  let done = false;
  void promise.then(() => {
    done = true;
  });
  return () => done;
}

function clock(start = 1_000_000) {
  const state = { now: start };
  return { state, now: () => state.now };
}

describe('RateLimiter', () => {
  it('paces at 95 % of the limit the server advertises', async () => {
    const limiter = new RateLimiter();
    expect(limiter.rate).toBeUndefined();
    const permit = await limiter.acquire();
    permit.observe(200, { 'x-ratelimit-limit': '30', 'x-ratelimit-remaining': '29' });
    expect(limiter.rate).toBeCloseTo(28.5);
  });

  it('keeps a configured rate when it is lower than the advertised one', async () => {
    const limiter = new RateLimiter({ rate: 10 });
    const permit = await limiter.acquire();
    permit.observe(200, { 'x-ratelimit-limit': '30' });
    expect(limiter.rate).toBeCloseTo(9.5);
  });

  it('sends the opening requests at once, up to 95 % of the assumed limit, the rest after the first answer', async () => {
    // GIVEN the platform's documented minimum of 30/s assumed, and nothing answered yet
    const limiter = new RateLimiter({ assumed: 30 });
    const opening = await Promise.all(Array.from({ length: 28 }, () => limiter.acquire()));
    let next = false;
    const waiting = limiter.acquire().then((p) => {
      next = true;
      return p;
    });
    await tick();
    // THEN the 29th waits
    expect(next).toBe(false);
    // WHEN the first answer tells the real limit, THEN the 29th goes, already knowing it
    opening[0]?.observe(200, { 'x-ratelimit-limit': '1000000' });
    (await waiting).release();
    expect(next).toBe(true);
    expect(limiter.rate).toBeCloseTo(950_000);
  });

  it('counts the opening against the first second once the pace is known', async () => {
    const { state, now } = clock();
    const limiter = new RateLimiter({ assumed: 30, now });
    const opening = await Promise.all(Array.from({ length: 10 }, () => limiter.acquire()));
    state.now += 20;
    // WHEN the server says 30/s (paced at 28.5/s)
    opening[0]?.observe(200, { 'x-ratelimit-limit': '30' });
    // THEN the next request is scheduled as if the 10 had been paced: 10 x 1000/28.5 ms after the start
    let sent = false;
    const next = limiter.acquire().then(() => {
      sent = true;
    });
    await tick();
    expect(sent).toBe(false);
    state.now = 1_000_000 + Math.ceil((10 * 1000) / 28.5);
    await next;
    expect(sent).toBe(true);
  });

  it('has no opening when a rate is configured: it paces from the first request', async () => {
    const { now } = clock();
    const limiter = new RateLimiter({ rate: 10, assumed: 30, now });
    await limiter.acquire();
    let second = false;
    void limiter.acquire().then(() => {
      second = true;
    });
    await tick();
    expect(second).toBe(false);
  });

  it('keeps the others waiting after a first 429 until the request is released', async () => {
    const limiter = new RateLimiter({ assumed: 30 });
    const opening = await Promise.all(Array.from({ length: 28 }, () => limiter.acquire()));
    let next = false;
    const waiting = limiter.acquire().then(() => {
      next = true;
    });
    opening[0]?.observe(429, {});
    await tick();
    expect(next).toBe(false);
    opening[0]?.release();
    await waiting;
    expect(next).toBe(true);
  });

  it('pauses everyone until the reset when the remaining quota is 0', async () => {
    const { state, now } = clock();
    const limiter = new RateLimiter({ now });
    const permit = await limiter.acquire();
    permit.observe(200, { 'x-ratelimit-limit': '30', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '0.25' });
    expect(limiter.pausedUntil).toBe(state.now + 250);
  });

  it('learns a pace from a 429 when the server advertises nothing, and cuts it once per wave', async () => {
    const { state, now } = clock();
    const limiter = new RateLimiter({ now });
    // GIVEN 10 requests answered within the last second
    for (let i = 0; i < 10; i++) {
      const p = await limiter.acquire();
      p.observe(200, {});
      p.release();
      state.now += 10;
    }
    const early = await limiter.acquire();
    state.now += 10;
    // WHEN a 429 arrives, THEN the pace is what got through, with a margin
    const first = await limiter.acquire();
    first.observe(429, {});
    first.release();
    expect(limiter.rate).toBeCloseTo(9.5);
    // a 429 for a request sent before that cut says nothing new
    early.observe(429, {});
    early.release();
    expect(limiter.rate).toBeCloseTo(9.5);
    // a 429 despite the new pace cuts it again
    state.now += 10;
    const later = await limiter.acquire();
    later.observe(429, {});
    later.release();
    expect(limiter.rate).toBeCloseTo(9.5 * 0.7);
  });

  it('raises a learned pace by one request per second for every second without a 429', async () => {
    const { state, now } = clock();
    const limiter = new RateLimiter({ now });
    for (let i = 0; i < 10; i++) {
      const p = await limiter.acquire();
      p.observe(200, {});
      p.release();
      state.now += 10;
    }
    const limited = await limiter.acquire();
    limited.observe(429, {});
    limited.release();
    expect(limiter.rate).toBeCloseTo(9.5);
    // answers within the same second change nothing
    state.now += 500;
    const soon = await limiter.acquire();
    soon.observe(200, {});
    soon.release();
    expect(limiter.rate).toBeCloseTo(9.5);
    // a clean second later: one more per second, and again a second after that
    state.now += 600;
    const clean = await limiter.acquire();
    clean.observe(200, {});
    clean.release();
    expect(limiter.rate).toBeCloseTo(10.5);
    state.now += 1000;
    const cleaner = await limiter.acquire();
    cleaner.observe(200, {});
    cleaner.release();
    expect(limiter.rate).toBeCloseTo(11.5);
  });

  it('never raises a pace the server advertises, however long it goes without a 429', async () => {
    const { state, now } = clock();
    const limiter = new RateLimiter({ now });
    for (let second = 0; second < 3; second++) {
      const p = await limiter.acquire();
      p.observe(200, { 'x-ratelimit-limit': '20' });
      p.release();
      state.now += 1500;
    }
    expect(limiter.rate).toBeCloseTo(19);
  });

  it('lets a burst within the room the server reported go at once, without pacing', async () => {
    const { now } = clock();
    const limiter = new RateLimiter({ assumed: 30, now });
    const first = await limiter.acquire();
    first.observe(200, { 'x-ratelimit-limit': '30', 'x-ratelimit-remaining': '29', 'x-ratelimit-reset': '0.9' });
    first.release();
    // the clock does not move: 29 requests fit, the 30th waits
    const burst = await Promise.all(Array.from({ length: 29 }, () => limiter.acquire()));
    expect(burst).toHaveLength(29);
    const thirtieth = settled(limiter.acquire());
    await tick();
    expect(thirtieth()).toBe(false);
  });

  it('wakes a request waiting for the window when an answer shows there is room after all', async () => {
    const { state, now } = clock();
    const limiter = new RateLimiter({ now });
    const permits = [await limiter.acquire(), await limiter.acquire(), await limiter.acquire()];
    // GIVEN 2 left when the first was counted, with the two others in flight: no room
    permits[0]?.observe(200, { 'x-ratelimit-limit': '30', 'x-ratelimit-remaining': '2', 'x-ratelimit-reset': '0.9' });
    const next = settled(limiter.acquire());
    await tick();
    expect(next()).toBe(false);
    // WHEN the other two turn out to have been counted already (still 2 left)
    state.now += 5;
    permits[1]?.observe(200, { 'x-ratelimit-limit': '30', 'x-ratelimit-remaining': '2', 'x-ratelimit-reset': '0.9' });
    await tick();
    // THEN the waiting request goes, before the window's end
    expect(next()).toBe(true);
  });

  /**
   * The opening's 28 requests (95 % of the documented minimum), a 29th held back by the pace,
   * and the first answers: the pace doubled once. The clock is the limiter's own; nothing waits
   * for real time (a request the pace holds back is left waiting).
   */
  async function grownOnce() {
    const { state, now } = clock();
    const limiter = new RateLimiter({ assumed: 30, now });
    const opening = await Promise.all(Array.from({ length: 28 }, () => limiter.acquire()));
    void limiter.acquire();
    state.now += 20;
    // the first answer tells nothing, and the pace has held nobody back yet: no growth
    opening[0]?.observe(200, {});
    const before = limiter.rate;
    await tick(); // the 29th goes on to the pace, which holds it back
    opening[1]?.observe(200, {});
    return { state, limiter, opening, before };
  }

  /** A request sent after the last doubling (its slot long past), and more that the pace holds back. */
  async function sendAfterDoubling(state: { now: number }, limiter: RateLimiter) {
    state.now += 2000;
    const sent = await limiter.acquire();
    // more than the pace's burst allowance: the last ones are held back
    for (let i = 0; i < 10; i++) void limiter.acquire();
    state.now += 20;
    return sent;
  }

  it('grows the assumed pace of a server that says nothing once per round trip in which the pace held requests back', async () => {
    const { state, limiter, opening, before } = await grownOnce();
    expect(before).toBeCloseTo(28.5);
    // an answer of the round trip the pace held a request back in: it doubles, once
    expect(limiter.rate).toBeCloseTo(57);
    opening[2]?.observe(200, {});
    expect(limiter.rate).toBeCloseTo(57);
    // a request sent after the doubling, answered clean, with the pace binding meanwhile: doubles again
    (await sendAfterDoubling(state, limiter)).observe(200, {});
    expect(limiter.rate).toBeCloseTo(114);
    // a request sent before that doubling proves nothing of the new pace
    opening[3]?.observe(200, {});
    expect(limiter.rate).toBeCloseTo(114);
  });

  it('does not grow a pace that held nobody back', async () => {
    const { state, now } = clock();
    const limiter = new RateLimiter({ assumed: 30, now });
    for (let i = 0; i < 40; i++) {
      const permit = await limiter.acquire();
      state.now += 100; // 10/s: the pace never binds
      permit.observe(200, {});
      permit.release();
    }
    expect(limiter.rate).toBeCloseTo(28.5);
  });

  it('ends the slow start on the first 429 at what got through, and halves it when too few answers tell', async () => {
    const { state, limiter, opening } = await grownOnce();
    expect(limiter.rate).toBeCloseTo(57);
    // two answers only in the last second: too few to measure, so the pace halves
    state.now += 5;
    opening[2]?.observe(429, {});
    expect(limiter.rate).toBeCloseTo(28.5);
  });

  it('ends the slow start on a 503 at half the pace, never below the documented minimum', async () => {
    const { state, limiter } = await grownOnce();
    (await sendAfterDoubling(state, limiter)).observe(200, {});
    expect(limiter.rate).toBeCloseTo(114);
    (await sendAfterDoubling(state, limiter)).observe(503, {});
    expect(limiter.rate).toBeCloseTo(57);
    // a 503 at the assumed pace itself leaves it there: the API documents that every server takes it
    const fresh = new RateLimiter({ assumed: 30, now: clock().now });
    (await fresh.acquire()).observe(503, {});
    expect(fresh.rate).toBeCloseTo(28.5);
  });

  it('gives up waiting for the first answer when aborted', async () => {
    const limiter = new RateLimiter({ assumed: 30 });
    await Promise.all(Array.from({ length: 28 }, () => limiter.acquire()));
    const reason = new Error('stop');
    await expect(limiter.acquire(AbortSignal.abort(reason))).rejects.toBe(reason);
  });
});
