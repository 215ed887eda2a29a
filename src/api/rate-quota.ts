/**
 * What the server's `X-RateLimit-Remaining` and `X-RateLimit-Reset` say this
 * client may still send before its window ends, so that a burst that fits
 * goes at once instead of at the sustained pace (src/api/rate-limit.ts).
 *
 * The server counts a request when it arrives; an answer tells what was
 * left at that moment. Every request not yet answered may still be counted
 * (or may already be: the answers do not say), so the room is the lowest
 * remaining the window reported, less every request in flight. That never
 * over-counts: a request the server counted after that lowest report is
 * still in flight, or its own answer would have lowered it.
 *
 * Windows are told apart by when requests were sent, not by the reset's
 * value (a sliding window's reset moves a little with every request): the
 * first answer to a request sent after the known window's end starts the
 * next window. The end is estimated late (the reset counts from when the
 * answer arrived, not from when the server wrote it) and only ever moves
 * later within a window, so a request sent after it was counted in the next
 * window.
 */

export interface QuotaReport {
  /** When the answered request was granted, by the limiter's clock. */
  sentAt: number;
  /** When its answer arrived. */
  now: number;
  remaining: number;
  /** Milliseconds from `now` to the end of the server's window. */
  resetMs: number;
}

export class Quota {
  /** The lowest remaining the current window reported; undefined until an answer carried one. */
  #remaining: number | undefined;
  /** When the current window is over, by our clock: never earlier than the server's end. */
  #windowEnd = Number.NEGATIVE_INFINITY;
  #unanswered = 0;

  /**
   * Requests that may go now on the server's word. After the window's end
   * the old room still holds (no server takes back what it allowed); the
   * next window's is unknown until one of its answers arrives.
   */
  room(): number {
    if (this.#remaining === undefined) return 0;
    return Math.max(0, this.#remaining - this.#unanswered);
  }

  /** Whether any answer told a quota. */
  get known(): boolean {
    return this.#remaining !== undefined;
  }

  /** When the window the quota describes is over (-Infinity before any report). */
  get windowEnd(): number {
    return this.#windowEnd;
  }

  /** True while the window the quota describes is running: with no room, wait for its end. */
  current(now: number): boolean {
    return this.#remaining !== undefined && now < this.#windowEnd;
  }

  sent(): void {
    this.#unanswered++;
  }

  /**
   * A request's exchange is over, with what its answer told of the quota
   * (undefined: nothing, or no answer). Returns true when the room grew.
   */
  settled(report: QuotaReport | undefined): boolean {
    const before = this.room();
    this.#unanswered = Math.max(0, this.#unanswered - 1);
    if (report) this.#learn(report);
    return this.room() > before;
  }

  #learn({ sentAt, now, remaining, resetMs }: QuotaReport): void {
    const end = now + Math.max(0, resetMs);
    if (this.#remaining === undefined || sentAt >= this.#windowEnd) {
      // the first word of a new window
      this.#remaining = remaining;
      this.#windowEnd = end;
    } else if (remaining < this.#remaining) {
      this.#remaining = remaining;
      this.#windowEnd = Math.max(this.#windowEnd, end);
    }
  }
}
