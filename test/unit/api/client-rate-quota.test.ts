/**
 * Against the emulator on loopback, which enforces the platform's
 * `api-rate-limit` in one-second windows and advertises it: a burst that
 * fits the window goes at once, and what does not fit waits for the next
 * window instead of meeting a 429. "At once" is read from the server: how
 * many requests it held together, with every answer delayed long enough
 * that a paced client could never have had them all there at the same time.
 *
 * In virtual time (./virtual-time.ts): the emulator's windows, its latency
 * and the client's pacing read the same faked clock, so a busy core cannot
 * make the server see a burst late or split, and the waits for the next
 * window take a fraction of a second.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpClient } from '../../../src/api/client.ts';
import type { HttpClient } from '../../../src/api/types.ts';
import { type RunningEmulator, startEmulator } from '../../../src/emulator/server.ts';
import { inVirtualTime, virtualTimeInEachTest } from './virtual-time.ts';

/** Each answer waits this long: 25 requests paced at 30/s would span 800 ms, so at most 10 could overlap. */
const LATENCY_MS = 300;

let emulator: RunningEmulator | undefined;
let client: HttpClient | undefined;
const listeners: Array<[string, (message: unknown) => void]> = [];

virtualTimeInEachTest();
afterEach(async () => {
  for (const [channel, listener] of listeners.splice(0)) unsubscribe(channel, listener);
  await client?.close();
  await emulator?.close();
});

/** The most requests the (in-process) server held at one moment, from Node's HTTP server channels. */
function watchServer(): { peak(): number } {
  let open = 0;
  let peak = 0;
  const started = () => {
    open++;
    peak = Math.max(peak, open);
  };
  const finished = () => {
    open--;
  };
  listeners.push(['http.server.request.start', started], ['http.server.response.finish', finished]);
  for (const [channel, listener] of listeners) subscribe(channel, listener);
  return { peak: () => peak };
}

async function platformClient(): Promise<HttpClient> {
  emulator = await startEmulator({ port: 0, latencyMs: LATENCY_MS });
  // the platform API's profile: 30/s assumed until told; a window wide enough that only the limiter holds requests
  client = createHttpClient({
    baseUrl: emulator.url,
    auth: { api: 'platform', token: emulator.tokens.admin },
    concurrency: { initial: 64, max: 64 },
  });
  return client;
}

const get = (c: HttpClient) => c.request({ method: 'GET', path: '/api/v2/admin/general-settings' });

/** One request answered (as a list's first page is before its others), then `count` together, watched at the server. */
async function burstAfterOne(count: number) {
  const c = await platformClient();
  await get(c);
  const server = watchServer();
  const answers = await Promise.all(Array.from({ length: count }, () => get(c)));
  return { statuses: answers.map((a) => a.status), peak: server.peak() };
}

describe('a burst within the server’s window', () => {
  it('goes at once after the first answer tells the room (25 of a limit of 30)', async () => {
    const burst = await inVirtualTime(burstAfterOne(25));
    // the server held all 25 at once, and turned none away
    expect(burst.statuses.every((s) => s === 200)).toBe(true);
    expect(burst.peak).toBe(25);
    expect(emulator!.stats().rateLimited).toBe(0);
  });

  it('sends what does not fit in the next window, without a 429', async () => {
    // 40 more than the one: 29 fit in the first window, 11 wait for the next
    const burst = await inVirtualTime(burstAfterOne(40));
    expect(burst.statuses.every((s) => s === 200)).toBe(true);
    expect(emulator!.stats().rateLimited).toBe(0);
    expect(emulator!.stats().total).toBe(41);
    // the first window's room went together
    expect(burst.peak).toBeGreaterThanOrEqual(29);
  });
});
