import { describe, expect, it } from 'vitest';
import type { NetworkFailure } from '../../../src/api/network.ts';
import { type Decision, decide, type Failure, type RetrySettings, serverWaitMs } from '../../../src/api/retry.ts';

const settings: RetrySettings = { maxRetries: 3, baseMs: 100, maxMs: 1000, retryStatuses: [] };
const fresh = { failures: 0, rateLimited: 0 };
const status = (code: number, headers: Record<string, string> = {}): Failure => ({
  kind: 'status',
  status: code,
  headers,
});
const network = (sent: boolean, retryable = true): Failure => {
  const failure: NetworkFailure = { sent, retryable, reason: 'connection reset by http://h', errno: 'ECONNRESET' };
  return { kind: 'network', failure };
};
const max = () => 0.999999;

function retried(decision: Decision) {
  if (!decision.retry) throw new Error(`expected a retry, got ${decision.outcome}`);
  return decision;
}

describe('decide', () => {
  it('waits out a 429 without spending a failure, even for a POST', () => {
    const d = retried(decide(status(429, { 'retry-after': '2' }), false, fresh, settings));
    expect(d).toMatchObject({ delayMs: 2000, serverWait: true, state: { failures: 0, rateLimited: 1 } });
  });

  it('reports a 429 that asks for an unreasonable wait instead of sitting through it', () => {
    expect(decide(status(429, { 'retry-after': '3600' }), true, fresh, settings)).toMatchObject({
      retry: false,
      outcome: 'failed',
      note: 'the server asks to wait 3600 s',
    });
  });

  it('backs off exponentially with full jitter, capped at maxMs', () => {
    const delays = [0, 1, 2, 3].map((failures) => {
      const d = decide(status(500), true, { failures, rateLimited: 0 }, { ...settings, maxRetries: 9 }, max);
      return retried(d).delayMs;
    });
    expect(delays).toEqual([100, 200, 400, 800]);
    const capped = decide(status(500), true, { failures: 5, rateLimited: 0 }, { ...settings, maxRetries: 9 }, max);
    expect(retried(capped).delayMs).toBe(1000);
    expect(retried(decide(status(500), true, fresh, settings, () => 0)).delayMs).toBe(0);
  });

  it('gives 503 twice the attempts and longer waits than 500', () => {
    const late = { failures: 4, rateLimited: 0 };
    expect(decide(status(500), true, late, settings).retry).toBe(false);
    expect(decide(status(503), true, late, settings).retry).toBe(true);
    expect(decide(status(503), true, { failures: 6, rateLimited: 0 }, settings).retry).toBe(false);
    expect(retried(decide(status(503), true, fresh, settings, max)).delayMs).toBe(400);
  });

  it('never repeats a non-idempotent request that the server may have processed', () => {
    for (const code of [500, 502, 504]) {
      expect(decide(status(code), false, fresh, settings)).toEqual({ retry: false, outcome: 'unknown' });
    }
    expect(decide(network(true), false, fresh, settings)).toEqual({ retry: false, outcome: 'unknown' });
    expect(decide(network(false), false, fresh, settings).retry).toBe(true);
    expect(decide(status(503), false, fresh, settings).retry).toBe(true);
  });

  it('says how a request ended when retries run out', () => {
    const spent = { failures: 3, rateLimited: 2 };
    expect(decide(status(502), true, spent, settings)).toEqual({
      retry: false,
      outcome: 'failed',
      note: 'gave up after 6 attempts',
    });
    expect(decide(network(true), true, spent, settings)).toMatchObject({ outcome: 'unknown' });
    expect(decide(network(false), true, spent, settings)).toMatchObject({ outcome: 'not-sent' });
  });

  it('retries 412 only when told to (the secrets API), and never 4xx or 501', () => {
    expect(decide(status(412), true, fresh, settings)).toEqual({ retry: false, outcome: 'failed' });
    expect(decide(status(412), false, fresh, { ...settings, retryStatuses: [412] }).retry).toBe(true);
    for (const code of [400, 401, 403, 404, 409, 422, 501]) {
      expect(decide(status(code), true, fresh, settings)).toEqual({ retry: false, outcome: 'failed' });
    }
    expect(decide(network(false, false), true, fresh, settings)).toEqual({ retry: false, outcome: 'not-sent' });
  });
});

describe('serverWaitMs', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');

  it('reads Retry-After as seconds or as an HTTP-date', () => {
    expect(serverWaitMs({ 'retry-after': '3' }, now)).toBe(3000);
    expect(serverWaitMs({ 'retry-after': 'Thu, 01 Jan 2026 00:00:05 GMT' }, now)).toBe(5000);
    expect(serverWaitMs({ 'retry-after': 'Wed, 31 Dec 2025 23:59:00 GMT' }, now)).toBe(0);
  });

  it('reads X-RateLimit-Reset as seconds, or as an epoch timestamp', () => {
    expect(serverWaitMs({ 'x-ratelimit-reset': '0.033' }, now)).toBe(33);
    expect(serverWaitMs({ 'x-ratelimit-reset': String(now / 1000 + 7) }, now)).toBe(7000);
  });

  it('takes the longer wait when both are given, and nothing from garbage', () => {
    expect(serverWaitMs({ 'retry-after': '1', 'x-ratelimit-reset': '2.5' }, now)).toBe(2500);
    expect(serverWaitMs({ 'retry-after': 'soon' }, now)).toBeUndefined();
    expect(serverWaitMs({}, now)).toBeUndefined();
  });
});
