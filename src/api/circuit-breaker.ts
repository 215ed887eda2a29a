/**
 * Fail fast when a server is gone. After `threshold` connection failures in
 * a row (refused, reset, unreachable, no answer within the deadline; any
 * HTTP answer counts as reaching the server), the breaker opens for the rest
 * of the run: no new request starts, and requests waiting to retry stop, so
 * an apply against a dead server ends within seconds and says what it did
 * not start, instead of retrying every request for twenty minutes.
 */
import { NetworkError } from './errors.ts';

export const CIRCUIT_OPEN = 'CIRCUIT_OPEN';

export class CircuitBreaker {
  readonly #threshold: number;
  readonly #origin: string;
  #failures = 0;
  #lastReason = '';
  #open = false;

  constructor(origin: string, threshold: number) {
    this.#origin = origin;
    this.#threshold = threshold;
  }

  get open(): boolean {
    return this.#open;
  }

  /** A connection failure; true when it opened the breaker. */
  failure(reason: string): boolean {
    this.#failures++;
    this.#lastReason = reason;
    if (this.#open || this.#failures < this.#threshold) return false;
    this.#open = true;
    return true;
  }

  /** The server answered (any status): it is there. */
  success(): void {
    if (!this.#open) this.#failures = 0;
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
