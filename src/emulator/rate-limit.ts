/**
 * The platform's API rate limit (the site-admin API, Limits):
 * `api-rate-limit` requests per second per client, here per credential, in
 * fixed one-second windows that start with a client's first request. The
 * limit is read on every request, so changing the general settings takes
 * effect at once.
 */

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
}

const WINDOW_MS = 1000;
/** Windows of clients gone quiet are dropped once there are this many, so random tokens cannot grow memory. */
const MAX_CLIENTS = 10_000;

export class RateLimit {
  readonly #windows = new Map<string, { start: number; count: number }>();

  take(client: string, limit: number, now: number): RateDecision {
    let window = this.#windows.get(client);
    if (!window || now - window.start >= WINDOW_MS) {
      if (!window && this.#windows.size >= MAX_CLIENTS) this.#prune(now);
      window = { start: now, count: 0 };
      this.#windows.set(client, window);
    }
    const resetSeconds = (window.start + WINDOW_MS - now) / 1000;
    if (window.count >= limit) return { allowed: false, limit, remaining: 0, resetSeconds };
    window.count++;
    return { allowed: true, limit, remaining: limit - window.count, resetSeconds };
  }

  #prune(now: number): void {
    for (const [client, window] of this.#windows) if (now - window.start >= WINDOW_MS) this.#windows.delete(client);
  }
}

/** Seconds with millisecond precision and no trailing zeros: `0.412`, `1`. */
export function seconds(value: number): string {
  return String(Math.max(0, Math.round(value * 1000) / 1000));
}
