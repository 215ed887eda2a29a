/**
 * How many requests of one client may be in flight: an AIMD window, as TCP
 * does it. A fixed parallelism is either too low for a fast server (10,000
 * reads at 20 ms take 20 s at 10) or too high for a struggling one; the
 * window finds the level the server sustains.
 *
 * - Slow start: until the server first says it is overloaded, every good
 *   answer widens the window by one (it doubles per round trip).
 * - Additive increase: afterwards, a whole window of good answers widens it
 *   by one.
 * - Multiplicative decrease: a 429, a 503, a timeout or dropped connection,
 *   or a round trip well above the quietest one seen narrows it to 70 %,
 *   at most once per round trip, so one burst of bad answers counts once.
 * - Recovery: a cut on round trips alone is weak evidence (the client's own
 *   event loop, busy with the answers of a wide window, a garbage
 *   collection or another process on the same cores makes every answer look
 *   late), so it does not end slow start, and out of slow start answers back
 *   at a normal round trip widen the window by one each again up to where it
 *   was cut; beyond that, by one per window. Round trips that stay long cut
 *   it again instead. Only the server saying so (429, 503, no answer) ends
 *   slow start.
 *
 * The window stays between 1 and `max`; `initial === max` is a fixed
 * parallelism (what `--parallelism N` asks for).
 */
import { until } from './sleep.ts';

export interface WindowOptions {
  initial: number;
  max: number;
  now?: () => number;
}

/** What one exchange told about the server's health. */
export interface Sample {
  /** The server said it is overloaded (429, 503) or did not answer (timeout, dropped connection). */
  overloaded: boolean;
  latencyMs: number;
}

/** One request always goes: a window of 0 would never learn that the server recovered. */
const MIN = 1;
const DECREASE = 0.7;
/** A round trip this many times the quietest one, plus the slack below, means a queue is building. */
const LATENCY_FACTOR = 2;
const LATENCY_SLACK_MS = 10;
/** Weight of the newest sample in the smoothed round trip. */
const SMOOTHING = 0.125;
/** The quietest round trip is forgotten slowly, so a server that got slower for good is learnt. */
const BASELINE_DRIFT = 1.001;

export class ConcurrencyWindow {
  readonly #max: number;
  readonly #now: () => number;
  #limit: number;
  #inFlight = 0;
  #slowStart = true;
  /** The window before a cut on round trips alone: good answers grow it back this far as in slow start. */
  #recoverTo = 0;
  #smoothed: number | undefined;
  #baseline: number | undefined;
  #lastDecrease = Number.NEGATIVE_INFINITY;
  readonly #waiting: Array<() => void> = [];

  constructor(options: WindowOptions) {
    this.#max = Math.max(MIN, Math.floor(options.max));
    this.#limit = Math.min(this.#max, Math.max(MIN, Math.floor(options.initial)));
    this.#now = options.now ?? Date.now;
  }

  /** The current window, in requests. */
  get limit(): number {
    return Math.floor(this.#limit);
  }

  get inFlight(): number {
    return this.#inFlight;
  }

  /** Waits for room in the window; the returned function gives it back with what the exchange showed. */
  async acquire(signal?: AbortSignal): Promise<(sample?: Sample) => void> {
    while (this.#inFlight >= this.limit) {
      let wake = () => {};
      const turn = new Promise<void>((resolve) => {
        wake = resolve;
        this.#waiting.push(resolve);
      });
      try {
        await until(turn, signal);
      } catch (error) {
        const index = this.#waiting.indexOf(wake);
        if (index >= 0) this.#waiting.splice(index, 1);
        // else our wake-up was already spent on us: pass it on
        else this.#wake();
        throw error;
      }
    }
    this.#inFlight++;
    const started = this.#now();
    let released = false;
    return (sample) => {
      if (released) return;
      released = true;
      this.#inFlight--;
      if (sample) this.#learn(sample, started);
      this.#wake();
    };
  }

  #learn(sample: Sample, started: number): void {
    const latency = Math.max(0, sample.latencyMs);
    this.#baseline = this.#baseline === undefined ? latency : Math.min(latency, this.#baseline * BASELINE_DRIFT);
    const slow = (rtt: number) => rtt > (this.#baseline ?? rtt) * LATENCY_FACTOR + LATENCY_SLACK_MS;
    if (started < this.#lastDecrease) {
      // sent before the last cut: the late answers that caused it would refill the smoothed round trip
      // the cut forgot, and cut again on the next normal one; a good one still counts as good
      if (!sample.overloaded && !slow(latency)) this.#increase();
      return;
    }
    this.#smoothed = this.#smoothed === undefined ? latency : this.#smoothed + SMOOTHING * (latency - this.#smoothed);
    const congested = slow(this.#smoothed);
    if (sample.overloaded || congested) this.#decrease(sample.overloaded);
    else this.#increase();
  }

  /** At most once per round trip: requests sent before the last cut never get here (see #learn). */
  #decrease(overloaded: boolean): void {
    this.#lastDecrease = this.#now();
    // only the server saying so ends slow start; after a cut on round trips alone, good answers grow the
    // window back as fast as they did, to where it was (or on to max in slow start)
    if (overloaded) this.#slowStart = false;
    this.#recoverTo = overloaded ? 0 : Math.max(this.#recoverTo, this.#limit);
    this.#limit = Math.max(MIN, this.#limit * DECREASE);
    // the smoothed round trip still carries the slow answers that caused this cut: were it kept,
    // the normal answers of the next round would cut the window again for the same slowdown
    this.#smoothed = undefined;
  }

  #increase(): void {
    const step = this.#slowStart || this.#limit < this.#recoverTo ? 1 : 1 / this.#limit;
    this.#limit = Math.min(this.#max, this.#limit + step);
  }

  #wake(): void {
    let room = this.limit - this.#inFlight;
    while (room > 0 && this.#waiting.length > 0) {
      this.#waiting.shift()?.();
      room--;
    }
  }
}
