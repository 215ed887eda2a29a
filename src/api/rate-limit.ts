/**
 * Client-side pacing, so that a run against a rate-limited server meets at
 * most one 429, and a burst that fits the server's window goes at once. The
 * sources of truth, in order:
 * 1. The server's `X-RateLimit-Remaining` and `X-RateLimit-Reset`: what
 *    may still go before its window ends (src/api/rate-quota.ts). Requests
 *    within that room go at once; with none left, they wait for the window's
 *    end, or for an answer that shows room after all.
 * 2. Beyond the room the server told (before its first answer of a new
 *    window), a pace: the server's `X-RateLimit-Limit` (requests per second,
 *    as the platform sends it), or the configured `rateLimit` when lower,
 *    each at 95 %: a burst slot plus arrival jitter then still fits under the
 *    limit in any one-second window. go-tfe learns the same header from a
 *    `/ping` first, which costs every run a round trip; we learn it from the
 *    first real answers. A configured rate paces every request, room or not.
 * 2b. With neither, an assumed limit when the API documents one (the
 *    platform's `api-rate-limit` is 30 by default and can be no lower).
 *    Until the first answer tells the real limit, the opening requests go
 *    at once up to 95 % of the assumed limit (no server can turn those
 *    away), the rest wait for that answer; once the pace is known, the
 *    opening requests count as if they had been paced, so the first second
 *    stays under the limit. A server that still says nothing is not held to
 *    the assumption: the assumed pace is where a slow start begins, as
 *    TCP's does. Each round trip in which the pace held requests back and
 *    came back clean (an answer, not turned away, to a request sent after
 *    the last doubling) doubles it (docs/performance.md, "Rate limits",
 *    says why that is safe).
 * 3. A 429 from a server that advertises nothing: the rate that got
 *    through in the last second becomes the pace (half the pace when too
 *    few answers came back to tell), later 429s cut it, and every second
 *    without one raises it by one request per second (AIMD; how many
 *    requests may be in flight is the client's concurrency window,
 *    src/api/concurrency.ts). Without the increase, a few 429s that were
 *    someone else's burst would slow the rest of the run for good. A 503
 *    during the slow start ends it the same way, at half the pace: the
 *    server is overloaded, not limiting, so there is nothing to count.
 * `X-RateLimit-Remaining: 0` and every server-requested wait pause all
 * requests of the client until the reset, not only the one that was told.
 *
 * The pace is GCRA (virtual scheduling): each request reserves the next
 * slot, so late timers do not lose throughput and the order stays fair.
 */
import { Quota, type QuotaReport } from './rate-quota.ts';
import { resetMs } from './retry.ts';
import { until } from './sleep.ts';

const SAFETY = 0.95;
const DECREASE = 0.7;
/** The multiplicative decrease of the slow start, as TCP's: the first 429 or 503 halves the pace. */
const HALVE = 0.5;
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
  /** What the server's window still has room for. */
  readonly #quota = new Quota();
  /** How many times the assumed pace has doubled while a silent server let everything through. */
  #growth = 1;
  /** When the assumed pace last doubled: an answer to a request sent since then ends a round trip at that pace. */
  #grownAt = Number.NEGATIVE_INFINITY;
  /** Whether the pace has held a request back since it last doubled: a pace nobody reached proves nothing. */
  #held = false;
  /** GCRA theoretical arrival time of the next slot. */
  #tat = 0;
  /** Bumped when the pace changes or a pause begins: older reservations are void. */
  #epoch = 0;
  #pausedUntil = 0;
  #lastGrant = Number.NEGATIVE_INFINITY;
  #lastDecrease = Number.NEGATIVE_INFINITY;
  #lastIncrease = Number.NEGATIVE_INFINITY;
  #successes: number[] = [];
  /** Requests waiting for a slot or for room, woken early when an answer shows room. */
  readonly #sleepers = new Set<() => void>();
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

  /** Requests per second paced at beyond the server's told room; undefined when unlimited. */
  get rate(): number | undefined {
    return this.#rate;
  }

  /** Epoch ms until which every request waits (0 or past: no pause). */
  get pausedUntil(): number {
    return this.#pausedUntil;
  }

  async acquire(signal?: AbortSignal): Promise<Permit> {
    if (this.#openingSlot()) return this.#permit();
    if (this.#firstAnswer) {
      await until(this.#firstAnswer, signal);
      // a first answer that told nothing leaves the rest of the opening's budget to use
      if (this.#openingSlot()) return this.#permit();
    }
    return this.#slot(signal);
  }

  /**
   * True when this request goes in the opening: within the budget, in the
   * first window, and before any answer told the server's limit or quota.
   */
  #openingSlot(): boolean {
    if (this.#openingOver) return false;
    if (this.#openingSent === 0) {
      if (this.#openingBudget === 0) return false;
      this.#openingStart = this.#now();
      this.#firstAnswer = new Promise<void>((resolve) => {
        const timer = setTimeout(() => this.#closeOpening(), LEARN_TIMEOUT_MS);
        timer.unref?.();
        this.#answered = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    } else if (this.#openingSent >= this.#openingBudget || this.#now() - this.#openingStart >= WINDOW_MS) {
      // spent, or its window is over: from now on the pace, which counts the opening's requests
      if (this.#firstAnswer === undefined) this.#closeOpening();
      return false;
    }
    this.#openingSent++;
    return true;
  }

  /**
   * An answer is in. One that told the limit, the quota or a 429 ends the
   * opening; the first one that told nothing lets the waiting requests on,
   * within what is left of the opening's budget.
   */
  #answer(): void {
    if (this.#openingOver || this.#openingSent === 0) return;
    const told = this.#advertised !== undefined || this.#estimated !== undefined || this.#quota.known;
    if (told) this.#closeOpening();
    else if (this.#firstAnswer !== undefined) {
      this.#firstAnswer = undefined;
      this.#answered?.();
    }
  }

  /** The opening is over (or took too long): whoever waits goes on at the pace. */
  #closeOpening(): void {
    if (this.#openingOver) return;
    this.#openingOver = true;
    this.#firstAnswer = undefined;
    this.#restart();
    this.#answered?.();
  }

  /** Waits for this request's turn and takes it: the permit is made in the same tick as the check, so room is never given twice. */
  async #slot(signal: AbortSignal | undefined): Promise<Permit> {
    for (;;) {
      const now = this.#now();
      if (this.#pausedUntil > now) {
        await this.#sleep(this.#pausedUntil - now, signal);
        continue;
      }
      const room = this.#quota.room() > 0;
      if (!room && this.#quota.current(now)) {
        // the server's window is spent: its end, or an answer that shows room, lets us on
        await this.#sleep(this.#quota.windowEnd - now, signal);
        continue;
      }
      // within the server's room only a configured rate paces; beyond it, the pace
      const rate = room ? this.#paced(this.#configured) : this.#rate;
      if (rate === undefined) return this.#permit();
      const epoch = this.#epoch;
      const wait = this.#reserve(now, rate);
      if (wait <= 0) return this.#permit();
      this.#held = true;
      await this.#sleep(wait, signal);
      // our slot holds unless the pace changed or a pause began, and the server has not since said "no room"
      if (epoch === this.#epoch && (this.#quota.room() > 0 || !this.#quota.current(this.#now()))) {
        return this.#permit();
      }
    }
  }

  /** Holds every request of this client for `ms` (a 429's Retry-After, a drained quota). */
  pause(ms: number): void {
    const until = this.#now() + ms;
    if (until <= this.#pausedUntil) return;
    this.#pausedUntil = until;
    this.#restart();
  }

  #reserve(now: number, rate: number): number {
    const interval = 1000 / rate;
    const burst = Math.max(1, Math.floor(rate / 20));
    const slot = Math.max(this.#tat, now);
    this.#tat = slot + interval;
    return slot - (burst - 1) * interval - now;
  }

  /** Waits `ms`, or less when an answer shows room in the server's window. */
  #sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<void>((resolve, reject) => {
      const wake = () => {
        clearTimeout(timer);
        this.#sleepers.delete(wake);
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      const onAbort = () => {
        clearTimeout(timer);
        this.#sleepers.delete(wake);
        reject(signal?.reason);
      };
      const timer = setTimeout(wake, Math.max(0, ms));
      this.#sleepers.add(wake);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  #permit(): Permit {
    const started = this.#now();
    this.#lastGrant = started;
    this.#quota.sent();
    let settled = false;
    const settle = (report: QuotaReport | undefined) => {
      if (settled) return;
      settled = true;
      if (this.#quota.settled(report)) {
        // room the waiting requests may use now: their pace slots are void
        this.#restart();
        for (const wake of [...this.#sleepers]) wake();
      }
    };
    return {
      observe: (status, headers) => {
        settle(this.#observe(started, status, headers));
        // a 429 opens the gate only on release, once the client has paused for it
        if (status !== 429) this.#answer();
      },
      release: () => {
        settle(undefined);
        this.#answer();
      },
    };
  }

  /** Learns from an answer's status and headers; returns what they say of the server's window. */
  #observe(started: number, status: number, headers: Record<string, string>): QuotaReport | undefined {
    const now = this.#now();
    const limit = Number.parseFloat(headers['x-ratelimit-limit'] ?? '');
    if (limit > 0 && limit !== this.#advertised) {
      this.#advertised = limit;
      this.#update();
    }
    const remaining = Number.parseFloat(headers['x-ratelimit-remaining'] ?? '');
    const reset = resetMs(headers['x-ratelimit-reset'], now);
    const report =
      Number.isFinite(remaining) && reset !== undefined
        ? { sentAt: started, now, remaining: Math.max(0, remaining), resetMs: reset }
        : undefined;
    if (status === 429) {
      this.#rateLimited(started, now, resetMs(headers['retry-after'], now));
      return report;
    }
    if (status === 503) {
      this.#overloaded(started, now);
      return report;
    }
    this.#successes.push(now);
    while ((this.#successes[0] ?? now) <= now - WINDOW_MS) this.#successes.shift();
    this.#probe(now);
    this.#grow(started, now);
    if (remaining <= 0) this.pause(reset ?? 1000 / (this.#advertised ?? 1));
    return report;
  }

  /**
   * A 429 from a server that advertises nothing (3 above). What got through
   * is counted over the server's window when its Retry-After tells where
   * that window ends (a fixed window: the count is the limit), else over
   * the last second.
   */
  #rateLimited(started: number, now: number, retryAfterMs: number | undefined): void {
    // an advertised limit is authoritative; a 429 despite it is someone else's traffic
    if (this.#advertised !== undefined) return;
    // requests sent before the last cut were paced by the old estimate
    if (started < this.#lastDecrease) return;
    this.#lastDecrease = now;
    const since =
      retryAfterMs !== undefined && retryAfterMs < WINDOW_MS ? now + retryAfterMs - WINDOW_MS : now - WINDOW_MS;
    const through = this.#successes.filter((t) => t > since).length;
    const measured = through >= MIN_SAMPLE ? through * SAFETY : undefined;
    if (this.#estimated === undefined) {
      const current = this.#rate ?? Number.POSITIVE_INFINITY;
      if (measured !== undefined) this.#estimated = Math.min(measured, current);
      else if (this.#rate !== undefined) this.#estimated = this.#rate * (this.#growth > 1 ? HALVE : DECREASE);
      else return;
    } else {
      // fewer got through than the pace: that is the limit; as many or more: others share it, back off
      this.#estimated =
        measured !== undefined && measured < this.#estimated ? measured : Math.max(1, this.#estimated * DECREASE);
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

  /**
   * A 503 while the assumed pace grows (2b above): the slow start ends at
   * half the pace, never below the assumption the API documents (any server
   * takes that much; the retries and the concurrency window deal with an
   * overload below it).
   */
  #overloaded(started: number, now: number): void {
    if (!this.#growing() || this.#growth === 1) return;
    if (started < this.#lastDecrease) return;
    this.#lastDecrease = now;
    this.#estimated = Math.max((this.#assumed ?? 0) * SAFETY, (this.#rate ?? 0) * HALVE);
    this.#update();
  }

  /** True while the pace is the assumption (no limit configured, advertised or learned). */
  #growing(): boolean {
    if (this.#assumed === undefined || this.#configured !== undefined) return false;
    return this.#advertised === undefined && this.#estimated === undefined;
  }

  /**
   * The slow start of an assumed pace (2b above): a clean answer to a
   * request sent since the pace last doubled ends a round trip at that pace;
   * if the pace held requests back meanwhile, it doubles.
   */
  #grow(started: number, now: number): void {
    if (!this.#growing() || started < this.#grownAt || !this.#held) return;
    this.#grownAt = now;
    this.#held = false;
    this.#growth *= 2;
    this.#update();
  }

  /** What is known of the server, capped by the configuration; the assumption only when nothing is. */
  #target(): number | undefined {
    const server = this.#advertised !== undefined ? this.#advertised * SAFETY : this.#estimated;
    const known = [this.#paced(this.#configured), server].filter((r): r is number => r !== undefined);
    if (known.length > 0) return Math.min(...known);
    return this.#assumed !== undefined ? this.#assumed * SAFETY * this.#growth : undefined;
  }

  /** A limit in requests per second as paced: with the margin. */
  #paced(limit: number | undefined): number | undefined {
    return limit !== undefined ? limit * SAFETY : undefined;
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
