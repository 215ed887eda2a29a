/**
 * The limiter's learning, with an injected clock. Pacing itself (which
 * needs real time) is exercised against real servers in client-rate-limit.
 */
import { describe, expect, it } from 'vitest';
import { RateLimiter } from '../../../src/api/rate-limit.ts';

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

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

  it('sends the first request alone until its headers arrive', async () => {
    // GIVEN a first request in flight
    const limiter = new RateLimiter();
    const probe = await limiter.acquire();
    let second = false;
    const next = limiter.acquire().then((p) => {
      second = true;
      return p;
    });
    await tick();
    // THEN the second waits
    expect(second).toBe(false);
    // WHEN the first answer arrives, THEN the second goes, already knowing the limit
    probe.observe(200, { 'x-ratelimit-limit': '50' });
    (await next).release();
    expect(second).toBe(true);
    expect(limiter.rate).toBeCloseTo(47.5);
  });

  it('keeps the others waiting after a first 429 until the request is released', async () => {
    const limiter = new RateLimiter();
    const probe = await limiter.acquire();
    let second = false;
    const next = limiter.acquire().then(() => {
      second = true;
    });
    probe.observe(429, {});
    await tick();
    expect(second).toBe(false);
    probe.release();
    await next;
    expect(second).toBe(true);
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

  it('gives up waiting for the first answer when aborted', async () => {
    const limiter = new RateLimiter();
    await limiter.acquire();
    const reason = new Error('stop');
    await expect(limiter.acquire(AbortSignal.abort(reason))).rejects.toBe(reason);
  });
});
