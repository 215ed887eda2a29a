/**
 * Fail fast when a server is gone. After `threshold` connection failures in
 * a row (refused, reset, unreachable, no answer within the deadline; any
 * HTTP answer counts as reaching the server), the breaker opens for the rest
 * of the run: no new request starts, and requests waiting to retry stop, so
 * an apply against a dead server ends within seconds and says what it did
 * not start, instead of retrying every request for twenty minutes.
 *
 * Failures "in a row" must include one of a request sent after the first
 * failure of the row. Requests in flight together can fail together (a
 * blip, a few held requests whose deadlines fall in the same moment while
 * the window was full of them): that is one piece of evidence, not
 * `threshold`. A server that is gone fails the requests sent after that too;
 * a live one answers some of them, and any answer ends the row.
 */
import { NetworkError } from './errors.ts';

export const CIRCUIT_OPEN = 'CIRCUIT_OPEN';

export class CircuitBreaker {
  readonly #threshold: number;
  readonly #origin: string;
  #failures = 0;
  /** When the row's first failure arrived. */
  #rowStart = 0;
  /** Whether a request sent after the row began failed too. */
  #confirmed = false;
  #lastReason = '';
  #open = false;

  constructor(origin: string, threshold: number) {
    this.#origin = origin;
    this.#threshold = threshold;
  }

  get open(): boolean {
    return this.#open;
  }

  /**
   * A connection failure of an attempt sent at `sentAt` (by `now`'s clock, performance.now by
   * default); true when it opened the breaker.
   */
  failure(reason: string, sentAt: number, now: number = performance.now()): boolean {
    if (this.#failures === 0) this.#rowStart = now;
    else if (sentAt > this.#rowStart) this.#confirmed = true;
    this.#failures++;
    this.#lastReason = reason;
    if (this.#open || this.#failures < this.#threshold || !this.#confirmed) return false;
    this.#open = true;
    return true;
  }

  /** The server answered (any status): it is there. */
  success(): void {
    if (this.#open) return;
    this.#failures = 0;
    this.#confirmed = false;
  }

  /** The error for a request the open breaker stops; `sent` when an earlier attempt may have reached the server. */
  error(method: string, path: string, sent: boolean): NetworkError {
    return new NetworkError({
      method,
      path,
      reason: `not sent: ${this.#origin} failed ${this.#failures} connections in a row (last: ${this.#lastReason})`,
      errno: CIRCUIT_OPEN,
      outcome: sent ? 'unknown' : 'not-sent',
    });
  }
}

export function isCircuitOpen(error: unknown): boolean {
  return error instanceof NetworkError && error.errno === CIRCUIT_OPEN;
}

/** The open breaker stopped a request before any attempt of it reached the server: nothing was sent. */
export function isNotSent(error: unknown): boolean {
  return isCircuitOpen(error) && (error as NetworkError).outcome === 'not-sent';
}
