/**
 * Against a real loopback server that enforces N requests per second (a
 * sliding one-second window, 429 + Retry-After beyond it), the client keeps
 * under the limit. Counts only: how fast it went is for the benchmarks.
 *
 * In virtual time (./virtual-time.ts): the server's window and the client's
 * pacing read the same faked clock, so what is judged is the pacing logic,
 * whatever the load on the machine, and the seconds of pacing take a fraction
 * of one. That real timers pace real requests under a real second is
 * client-rate-realtime's test.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { HttpClientOptions } from '../../../src/api/client.ts';
import type { HttpClient } from '../../../src/api/types.ts';
import { type LimitedServer, limitedServer, rateClient, sendAll } from './limited-server.ts';
import { inVirtualTime, virtualTimeInEachTest } from './virtual-time.ts';

const LIMIT = 40;
let limited: LimitedServer | undefined;
let client: HttpClient | undefined;

virtualTimeInEachTest();
afterEach(async () => {
  await client?.close();
  await limited?.server.close();
});

/** The server's verdicts: how many requests it turned away. */
async function serverLimitedTo(advertise: boolean, limit = LIMIT): Promise<LimitedServer> {
  limited = await limitedServer(advertise, limit);
  return limited;
}

/** Runs `total` GETs with `parallel` workers, as the engine's queue would. */
async function run(options: Partial<HttpClientOptions>, total: number, parallel: number) {
  client = rateClient(limited!.server, options);
  return inVirtualTime(sendAll(client, total, parallel));
}

describe('client-side rate limiting', () => {
  it('learns the advertised limit from the first answer and is never turned away', async () => {
    const server = await serverLimitedTo(true);
    const statuses = await run({}, 60, 60);
    expect(statuses.filter((s) => s === 200)).toHaveLength(60);
    expect(server.rejected()).toBe(0);
    expect(client!.stats.rateLimited).toBe(0);
  });

  it('keeps under a configured limit when the server advertises nothing', async () => {
    const server = await serverLimitedTo(false);
    const statuses = await run({ rateLimit: LIMIT }, 60, 60);
    expect(statuses).toHaveLength(60);
    expect(server.rejected()).toBe(0);
  });

  it("starts at the platform's documented minimum (30/s) when nothing else is known, and grows until the first 429", async () => {
    // GIVEN a server that enforces the documented minimum but says nothing (a proxy stripped its headers)
    const server = await serverLimitedTo(false, 30);
    const statuses = await run({}, 90, 45);
    // THEN the slow start meets one wave of 429s, no more, and every request gets through in the end
    expect(statuses.filter((s) => s === 200)).toHaveLength(90);
    expect(server.rejected()).toBeLessThanOrEqual(5);
  });

  it('after the first wave of 429s from a silent server, paces itself and is not turned away again', async () => {
    // GIVEN no configured or assumed limit and no headers: only the 429s can teach the client
    const server = await serverLimitedTo(false);
    const parallel = 8;
    const statuses = await run({ assumedRateLimit: 0 }, 2 * LIMIT, parallel);
    // THEN every request succeeded, and only requests already in flight met a 429
    expect(statuses.filter((s) => s === 200)).toHaveLength(2 * LIMIT);
    expect(server.rejected()).toBeGreaterThan(0);
    expect(server.rejected()).toBeLessThanOrEqual(parallel);
    expect(client!.stats.rateLimited).toBe(server.rejected());
  });
});
