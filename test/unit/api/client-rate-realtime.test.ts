/**
 * Real timers pace real requests under a real server's one-second window:
 * what client-rate-limit proves in virtual time, once against the wall clock
 * (late timers, real sockets), so that the faked clock hides nothing. One
 * test, and short: 45 requests, 5 more than the server's window of 40 takes,
 * so a client that did not pace would meet 5 429s.
 *
 * The client is configured a quarter below the server's limit: that the pace
 * is exact (95 % of the limit, no 429 at 5 % from it) is client-rate-limit's
 * test, where the two clocks are one. Here the server stamps each request by
 * its own wall clock, late by however long a busy core held it (the first
 * ones most, on new connections), and a request stamped late narrows the
 * window the server sees: at 5 % from the limit, 55 ms of that was a 429
 * (5 runs in 6 at a load of 15). At 30 of 40 (28.5/s) the 41st request goes
 * 1.4 s after the first: 400 ms of lateness to spare (it passed 6 runs in 6
 * at that load), so it runs beside the other files, and takes 1.5 s.
 */
import { afterEach, expect, it } from 'vitest';
import type { HttpClient } from '../../../src/api/types.ts';
import { type LimitedServer, limitedServer, rateClient, sendAll } from './limited-server.ts';

const LIMIT = 40;
const RATE = 30;
const TOTAL = LIMIT + 5;
let limited: LimitedServer | undefined;
let client: HttpClient | undefined;

afterEach(async () => {
  await client?.close();
  await limited?.server.close();
});

it('paces at a configured rate by the wall clock, under the limit of a server that advertises nothing', async () => {
  limited = await limitedServer(false, LIMIT);
  client = rateClient(limited.server, { rateLimit: RATE });
  const statuses = await sendAll(client, TOTAL, TOTAL);
  expect(statuses.filter((s) => s === 200)).toHaveLength(TOTAL);
  expect(limited.rejected()).toBe(0);
});
