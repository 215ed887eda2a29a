/**
 * Client-side pacing, so that a run against a rate-limited server meets at
 * most one 429. The sources of truth, in order:
 * 1. The server's `X-RateLimit-Limit` (requests per second, as the platform
 *    sends it). go-tfe learns the same header from a `/ping` first, which
 *    costs every run a round trip; we learn it from the first real answers.
 * 2. The configured `rateLimit`, when lower.
 *    Either is paced at 95 %: a burst slot plus arrival jitter then still
 *    fits under the limit in any one-second window.
 * 2b. With neither, an assumed limit when the API documents one (the
 *    platform's `api-rate-limit` is 30 by default and can be no lower).
 *    Until the first answer tells the real limit, the opening requests go
 *    at once up to 95 % of the assumed limit (no server can turn those
 *    away), the rest wait for that answer; once the pace is known, the
 *    opening requests count as if they had been paced, so the first second
 *    stays under the limit.
 * 3. A 429 from a server that advertises nothing: the rate that got
 *    through in the last second becomes the pace, later 429s cut it, and
 *    every second without one raises it by one request per second (AIMD;
 *    how many requests may be in flight is the client's concurrency window,
 *    src/api/concurrency.ts). Without the increase, a few 429s that were
 *    someone else's burst would slow the rest of the run for good.
 * `X-RateLimit-Remaining: 0` and every server-requested wait pause all
 * requests of the client until the reset, not only the one that was told.
 *
 * The bucket is GCRA (virtual scheduling): each request reserves the next
 * slot, so late timers do not lose throughput and the order stays fair.
 */
import { resetMs } from './retry.ts';
import { sleep, until } from './sleep.ts';

const SAFETY = 0.95;
const DECREASE = 0.7;
const LEARN_TIMEOUT_MS = 1000;
const WINDOW_MS = 1000;
/** An estimate from fewer successes than this says nothing about the server. */
const MIN_SAMPLE = 5;

export interface RateLimiterOptions {
  /** Configured requests per second; undefined: only what the server says. */
  rate?: number;
  /** The server's limit to assume while nothing is configured, advertised or learned. */
  assumed?: number;
  now?: () => number;
}

export interface Permit {
  /** The response's status and headers, as soon as they arrive. */
  observe(status: number, headers: Record<string, string>): void;
  /** The exchange is over (answered or failed). */
  release(): void;
}

export class RateLimiter {
  readonly #configured: number | undefined;
  readonly #assumed: number | undefined;
  readonly #now: () => number;
  #advertised: number | undefined;
  #estimated: number | undefined;
  #rate: number | undefined;
  /** GCRA theoretical arrival time of the next slot. */
  #tat = 0;
  /** Bumped when the pace changes or a pause begins: older reservations are void. */
  #epoch = 0;
  #pausedUntil = 0;
  #lastGrant = Number.NEGATIVE_INFINITY;
  #lastDecrease = Number.NEGATIVE_INFINITY;
  #lastIncrease = Number.NEGATIVE_INFINITY;
  #successes: number[] = [];
  /** Requests that may go before the first answer (see 2b above); 0 when nothing is assumed. */
  readonly #openingBudget: number;
  /** Requests sent in the opening, and when it began: they count against the first paced second. */
  #openingSent = 0;
  #openingStart = 0;
  #openingOver = false;
  /** Settled by the first answer's headers (or a timeout): what the requests beyond the opening wait for. */
  #firstAnswer: Promise<void> | undefined;
  #answered: (() => void) | undefined;

  constructor(options: RateLimiterOptions = {}) {
    this.#configured = positive(options.rate);
    this.#assumed = positive(options.assumed);
    this.#now = options.now ?? Date.now;
    this.#rate = this.#target();
    // an opening only when the pace is a guess: a configured rate is paced from the first request
    this.#openingBudget =
      this.#configured === undefined && this.#assumed !== undefined ? Math.floor(this.#rate ?? 0) : 0;
  }

  /** Requests per second currently paced at; undefined when unlimited. */
  get rate(): number | undefined {
    return this.#rate;
  }

  /** Epoch ms until which every request waits (0 or past: no pause). */
  get pausedUntil(): number {
    return this.#pausedUntil;
  }

  async acquire(signal?: AbortSignal): Promise<Permit> {
    if (!this.#openingSlot()) {
      if (this.#firstAnswer) await until(this.#firstAnswer, signal);
      await this.#slot(signal);
    }
    return this.#permit();
  }

  /** True when this request goes in the opening: before any answer, within the budget. */
  #openingSlot(): boolean {
    if (this.#openingOver || this.#openingSent >= this.#openingBudget) return false;
    if (this.#openingSent === 0) {
      this.#openingStart = this.#now();
      this.#firstAnswer = new Promise<void>((resolve) => {
        const timer = setTimeout(() => this.#answer(), LEARN_TIMEOUT_MS);
        timer.unref?.();
        this.#answered = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
    this.#openingSent++;
    return true;
  }

  /** The first answer is in (or took too long): the opening is over, and whoever waits for it goes. */
  #answer(): void {
    if (this.#openingOver || this.#openingSent === 0) return;
    this.#openingOver = true;
    this.#firstAnswer = undefined;
    this.#restart();
    this.#answered?.();
  }

  async #slot(signal: AbortSignal | undefined): Promise<void> {
    for (;;) {
      const now = this.#now();
      if (this.#pausedUntil > now) {
        await sleep(this.#pausedUntil - now, signal);
        continue;
      }
      const epoch = this.#epoch;
      const wait = this.#reserve(now);
      if (wait <= 0) break;
      await sleep(wait, signal);
      if (epoch === this.#epoch) break;
      // the pace changed or a pause began while we slept: our slot is void
    }
  }

  /** Holds every request of this client for `ms` (a 429's Retry-After, a drained quota). */
  pause(ms: number): void {
    const until = this.#now() + ms;
    if (until <= this.#pausedUntil) return;
    this.#pausedUntil = until;
    this.#restart();
  }

  #reserve(now: number): number {
    if (this.#rate === undefined) return 0;
    const interval = 1000 / this.#rate;
    const burst = Math.max(1, Math.floor(this.#rate / 20));
    const slot = Math.max(this.#tat, now);
    this.#tat = slot + interval;
    return slot - (burst - 1) * interval - now;
  }

  #permit(): Permit {
    const started = this.#now();
    this.#lastGrant = started;
    return {
      observe: (status, headers) => {
        this.#observe(started, status, headers);
        // a 429 opens the gate only on release, once the client has paused for it
        if (status !== 429) this.#answer();
      },
      release: () => this.#answer(),
    };
  }

  #observe(started: number, status: number, headers: Record<string, string>): void {
    const now = this.#now();
    const limit = Number.parseFloat(headers['x-ratelimit-limit'] ?? '');
    if (limit > 0 && limit !== this.#advertised) {
      this.#advertised = limit;
      this.#update();
    }
    if (status === 429) {
      this.#rateLimited(started, now);
      return;
    }
    this.#successes.push(now);
    while ((this.#successes[0] ?? now) <= now - WINDOW_MS) this.#successes.shift();
    this.#probe(now);
    const remaining = Number.parseFloat(headers['x-ratelimit-remaining'] ?? '');
    if (remaining <= 0) {
      const reset = resetMs(headers['x-ratelimit-reset'], now);
      this.pause(reset ?? 1000 / (this.#advertised ?? 1));
    }
  }

  #rateLimited(started: number, now: number): void {
    // an advertised limit is authoritative; a 429 despite it is someone else's traffic
    if (this.#advertised !== undefined) return;
    // requests sent before the last cut were paced by the old estimate
    if (started < this.#lastDecrease) return;
    this.#lastDecrease = now;
    if (this.#estimated === undefined) {
      const recent = this.#successes.filter((t) => t > now - WINDOW_MS).length;
      const current = this.#rate ?? Number.POSITIVE_INFINITY;
      if (recent >= MIN_SAMPLE) this.#estimated = Math.min(recent * SAFETY, current);
      else if (this.#rate !== undefined) this.#estimated = this.#rate * DECREASE;
      else return;
    } else {
      this.#estimated = Math.max(1, this.#estimated * DECREASE);
    }
    this.#update();
  }

  /** The additive half of AIMD for a learned pace: one more request per second, once per clean second. */
  #probe(now: number): void {
    if (this.#estimated === undefined || this.#advertised !== undefined) return;
    if (now - Math.max(this.#lastDecrease, this.#lastIncrease) < WINDOW_MS) return;
    this.#lastIncrease = now;
    this.#estimated += 1;
    this.#update();
  }

  /** What is known of the server, capped by the configuration; the assumption only when nothing is. */
  #target(): number | undefined {
    const server = this.#advertised !== undefined ? this.#advertised * SAFETY : this.#estimated;
    const configured = this.#configured !== undefined ? this.#configured * SAFETY : undefined;
    const known = [configured, server].filter((r): r is number => r !== undefined);
    if (known.length > 0) return Math.min(...known);
    return this.#assumed !== undefined ? this.#assumed * SAFETY : undefined;
  }

  #update(): void {
    const rate = this.#target();
    if (rate === this.#rate) return;
    this.#rate = rate;
    this.#restart();
  }

  /**
   * Voids every reservation (their holders reserve again when they wake) and
   * restarts the schedule after the pause, spaced from the last request that
   * actually went out, so neither a pause nor a new pace lets a burst through.
   */
  #restart(): void {
    const spacing = this.#rate === undefined ? 0 : 1000 / this.#rate;
    const afterOpening = this.#openingStart + this.#openingSent * spacing;
    this.#tat = Math.max(this.#now(), this.#pausedUntil, this.#lastGrant + spacing, afterOpening);
    this.#epoch++;
  }
}

function positive(value: number | undefined): number | undefined {
  return value !== undefined && Number.isFinite(value) && value > 0 ? value : undefined;
}
