/**
 * Virtual time for the client's pacing against a real server on loopback.
 * The client's limiter (Date.now, setTimeout), the server's windows (the
 * emulator's clock is Date.now; the scripted server reads performance.now)
 * and the emulator's injected latency all read the one faked clock, so the
 * server judges the client's pacing by the same clock the client paces by,
 * and a busy core delays neither side's time: the verdicts no longer depend
 * on the machine's load, and a second of pacing takes a fraction of one.
 *
 * The clock moves 1 ms per turn of the event loop, never while a turn runs:
 * the requests and answers on loopback (real sockets, real parsing) each take
 * a turn or so, as a fast network would, and a timer fires at its virtual
 * time, in order. setImmediate stays real: it is what turns the loop.
 */
import { afterEach, beforeAll, beforeEach, vi } from 'vitest';
import { createHttpClient } from '../../../src/api/client.ts';
import { json, scriptedServer } from './scripted-server.ts';

const STEP_MS = 1;

/** Fakes the clocks around each test of the calling file; call at its top level. */
export function virtualTimeInEachTest(): void {
  beforeAll(warmUndici);
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date', 'performance'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });
}

/** Runs the loop and the virtual clock until `work` settles. */
export async function inVirtualTime<T>(work: Promise<T>): Promise<T> {
  let done = false;
  const settled = work.finally(() => {
    done = true;
  });
  while (!done) {
    await new Promise<void>((resolve) => setImmediate(resolve));
    vi.advanceTimersByTime(STEP_MS);
  }
  return settled;
}

/**
 * undici keeps one process-wide timer for all its timeouts, made by the first
 * request that needs it and refreshed from then on. Made under fake timers,
 * it would never fire again once they are gone, for the other files that
 * share this worker process (`isolate: false`): one real request first.
 */
async function warmUndici(): Promise<void> {
  const server = await scriptedServer((_hit, res) => json(res, 200, {}));
  const client = createHttpClient({ baseUrl: server.url, auth: { api: 'platform', token: 'tok-warm-up-1' } });
  try {
    await client.request({ method: 'GET', path: '/api/v2/ping' });
  } finally {
    await client.close();
    await server.close();
  }
}
