/**
 * Against a real loopback server that enforces N requests per second (a
 * sliding one-second window, 429 + Retry-After beyond it), the client keeps
 * under the limit. Counts only: how fast it went is for the benchmarks.
 */
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpClient, type HttpClientOptions } from '../../../src/api/client.ts';
import type { HttpClient } from '../../../src/api/types.ts';
import { json, type ScriptedServer, scriptedServer } from './scripted-server.ts';

const LIMIT = 40;
let server: ScriptedServer | undefined;
let client: HttpClient | undefined;

afterEach(async () => {
  await client?.close();
  await server?.close();
});

/** The server's verdicts: how many requests it turned away. */
async function limitedServer(advertise: boolean, limit = LIMIT) {
  const accepted: number[] = [];
  const verdict = { rejected: 0 };
  server = await scriptedServer((_hit, res: ServerResponse) => {
    const now = performance.now();
    while ((accepted[0] ?? now) <= now - 1000) accepted.shift();
    const resetSeconds = accepted.length > 0 ? (accepted[0]! + 1000 - now) / 1000 : 0;
    const headers: Record<string, string> = advertise
      ? {
          'x-ratelimit-limit': String(limit),
          'x-ratelimit-remaining': String(Math.max(0, limit - accepted.length - 1)),
          'x-ratelimit-reset': resetSeconds.toFixed(3),
        }
      : {};
    if (accepted.length >= limit) {
      verdict.rejected++;
      json(
        res,
        429,
        { errors: [{ status: '429', title: 'too many requests' }] },
        {
          ...headers,
          'retry-after': String(Math.ceil(resetSeconds)),
        },
      );
      return;
    }
    accepted.push(now);
    json(res, 200, { ok: true }, headers);
  });
  return verdict;
}

/** Runs `total` GETs with `parallel` workers, as the engine's queue would. */
async function run(options: Partial<HttpClientOptions>, total: number, parallel: number) {
  client = createHttpClient({ baseUrl: server!.url, auth: { api: 'platform', token: 'tok-rate-test-1' }, ...options });
  let next = 0;
  const statuses: number[] = [];
  const worker = async () => {
    while (next < total) {
      next++;
      statuses.push((await client!.request({ method: 'GET', path: '/api/v2/ping' })).status);
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return statuses;
}

describe('client-side rate limiting', () => {
  it('learns the advertised limit from the first answer and is never turned away', async () => {
    const verdict = await limitedServer(true);
    const statuses = await run({}, 60, 60);
    expect(statuses.filter((s) => s === 200)).toHaveLength(60);
    expect(verdict.rejected).toBe(0);
    expect(client!.stats.rateLimited).toBe(0);
  });

  it('keeps under a configured limit when the server advertises nothing', async () => {
    const verdict = await limitedServer(false);
    const statuses = await run({ rateLimit: LIMIT }, 60, 60);
    expect(statuses).toHaveLength(60);
    expect(verdict.rejected).toBe(0);
  });

  it("starts at the platform's documented minimum (30/s) when nothing else is known, and grows until the first 429", async () => {
    // GIVEN a server that enforces the documented minimum but says nothing (a proxy stripped its headers)
    const verdict = await limitedServer(false, 30);
    const statuses = await run({}, 90, 45);
    // THEN the slow start meets one wave of 429s, no more, and every request gets through in the end
    expect(statuses.filter((s) => s === 200)).toHaveLength(90);
    expect(verdict.rejected).toBeLessThanOrEqual(5);
  });

  it('after the first wave of 429s from a silent server, paces itself and is not turned away again', async () => {
    // GIVEN no configured or assumed limit and no headers: only the 429s can teach the client
    const verdict = await limitedServer(false);
    const parallel = 8;
    const statuses = await run({ assumedRateLimit: 0 }, 2 * LIMIT, parallel);
    // THEN every request succeeded, and only requests already in flight met a 429
    expect(statuses.filter((s) => s === 200)).toHaveLength(2 * LIMIT);
    expect(verdict.rejected).toBeGreaterThan(0);
    expect(verdict.rejected).toBeLessThanOrEqual(parallel);
    expect(client!.stats.rateLimited).toBe(verdict.rejected);
  });
});
