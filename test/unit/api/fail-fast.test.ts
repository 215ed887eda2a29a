/**
 * Bounded failure against a real loopback server or a closed port: the
 * circuit breaker stops new requests after repeated connection failures, and
 * one request's attempts and waits fit in its budget however the server
 * misbehaves (never answering, 429 forever with an unusable Retry-After).
 * Assertions count requests and attempts; none measures time.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { CIRCUIT_OPEN } from '../../../src/api/circuit-breaker.ts';
import { createHttpClient } from '../../../src/api/client.ts';
import { ApiError, NetworkError } from '../../../src/api/errors.ts';
import { decide, type RetrySettings } from '../../../src/api/retry.ts';
import type { HttpClient } from '../../../src/api/types.ts';
import { closedPortUrl, json, type ScriptedServer, scriptedServer } from './scripted-server.ts';

let server: ScriptedServer | undefined;
let client: HttpClient | undefined;
afterEach(async () => {
  await client?.close();
  await server?.close();
  client = undefined;
  server = undefined;
});

const auth = { api: 'platform' as const, token: 'tok-fail-fast-1' };

describe('the circuit breaker', () => {
  it('stops every request after repeated connection failures, without sending more', async () => {
    client = createHttpClient({
      baseUrl: await closedPortUrl(),
      auth,
      retryBaseMs: 1,
      retryMaxMs: 2,
      breakerThreshold: 4,
      concurrency: { initial: 2, max: 2 },
    });
    const results = await Promise.allSettled(
      Array.from({ length: 200 }, (_, i) => client!.request({ method: 'POST', path: `/api/v2/things/${i}` })),
    );
    const errors = results.map((r) => (r.status === 'rejected' ? (r.reason as NetworkError) : undefined));
    expect(errors.every((e) => e instanceof NetworkError)).toBe(true);
    const stopped = errors.filter((e) => e?.errno === CIRCUIT_OPEN);
    // at most the threshold plus what was already in flight reached the network
    expect(client.stats.requests).toBeLessThanOrEqual(4 + 2);
    expect(stopped.length).toBeGreaterThanOrEqual(200 - 6);
    expect(stopped.every((e) => e?.outcome === 'not-sent')).toBe(true);
    expect(stopped[0]?.message).toMatch(/not sent: .* failed \d+ connections in a row \(last: connection refused/);
    const before = client.stats.requests;
    await expect(client.request({ method: 'GET', path: '/later' })).rejects.toMatchObject({ errno: CIRCUIT_OPEN });
    expect(client.stats.requests).toBe(before);
  });

  it('stays closed while the server answers, whatever the status', async () => {
    server = await scriptedServer((_hit, res) => json(res, 404, { errors: [] }));
    client = createHttpClient({ baseUrl: server.url, auth, breakerThreshold: 2, maxRetries: 0 });
    for (let i = 0; i < 5; i++) {
      await expect(client.request({ method: 'GET', path: '/missing' })).rejects.toBeInstanceOf(ApiError);
    }
    expect(server.hits).toHaveLength(5);
  });
});

describe('one request’s budget', () => {
  it('bounds a server that accepts and never answers', async () => {
    server = await scriptedServer(() => {
      // never answers
    });
    client = createHttpClient({
      baseUrl: server.url,
      auth,
      requestTimeoutMs: 100,
      requestBudgetMs: 250,
      retryBaseMs: 1,
      retryMaxMs: 2,
    });
    const error = (await client.request({ method: 'GET', path: '/slow' }).catch((e: unknown) => e)) as NetworkError;
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.message).toContain("(the request's budget is 0.3 s)");
    // two or three attempts of 100 ms fit in 250 ms; the default retries (6) would have made 7
    expect(server.hits.length).toBeLessThanOrEqual(3);
  });

  it('bounds a server that answers 429 forever with a Retry-After it cannot mean', async () => {
    server = await scriptedServer((_hit, res) => json(res, 429, { errors: [] }, { 'retry-after': 'soon' }));
    client = createHttpClient({ baseUrl: server.url, auth, requestBudgetMs: 200, retryBaseMs: 20, retryMaxMs: 40 });
    const error = (await client.request({ method: 'GET', path: '/busy' }).catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(429);
    expect(error.message).toMatch(/gave up after \d+ attempts in [\d.]+ s \(the request's budget is 0.2 s\)/);
    expect(server.hits.length).toBeLessThan(30);
  });
});

describe('the budget in the retry policy', () => {
  const settings: RetrySettings = { maxRetries: 6, baseMs: 100, maxMs: 1000, retryStatuses: [], budgetMs: 10_000 };
  const failure = { kind: 'status' as const, status: 503, headers: { 'retry-after': '5' } };

  it('retries while the wait fits in the budget, and gives up with a note once it does not', () => {
    expect(decide(failure, true, { failures: 0, rateLimited: 0, elapsedMs: 4_000 }, settings)).toMatchObject({
      retry: true,
      delayMs: 5_000,
    });
    expect(decide(failure, true, { failures: 1, rateLimited: 0, elapsedMs: 6_000 }, settings)).toEqual({
      retry: false,
      outcome: 'failed',
      note: "gave up after 2 attempts in 6.0 s (the request's budget is 10 s)",
    });
  });
});
