/**
 * What every suite hands back: rows of figures, each figure that has a
 * target carrying it and whether it was met, plus a line or two for people.
 * Timing never fails the run (the issue: benchmarks print figures).
 */

export interface Checked {
  /** The target, in words: `<= 150 ms`, `== lower bound`. */
  target: string;
  met: boolean;
}

/** Options every suite gets. */
export interface SuiteOptions {
  /** Smaller N and fewer repetitions: proves the harness works, not the figures. */
  quick: boolean;
  /**
   * Smaller still (`--smoke`, which implies `quick`): the fewest objects and runs that still go
   * through every path of a suite, with the emulator in the bench's own process. For the
   * harness's own test (test/bench/harness.test.ts), whose point is that the harness works and
   * that request counts are at their lower bound; its figures mean nothing. Suites without smoke
   * sizes run their quick ones.
   */
  smoke: boolean;
  /** Human-readable progress (stderr). */
  log: (line: string) => void;
}

/** A size or count by the run's mode: the full run's, the quick run's, or the smoke run's (the quick one's if not given). */
export function bySize<T>(options: SuiteOptions, full: T, quick: T, smoke: T = quick): T {
  if (options.smoke) return smoke;
  return options.quick ? quick : full;
}

export function median(values: readonly number[]): number {
  return quantile(values, 0.5);
}

/** Nearest-rank quantile. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank] ?? Number.NaN;
}

/** Rounded for reports: 1 decimal below 100, whole numbers above. */
export function round(value: number): number {
  if (!Number.isFinite(value)) return value;
  return Math.abs(value) >= 100 ? Math.round(value) : Math.round(value * 10) / 10;
}

export function ratio(value: number, reference: number): number {
  return reference > 0 ? Math.round((value / reference) * 100) / 100 : Number.NaN;
}

export function atMost(value: number, limit: number, unit: string): Checked {
  return { target: `<= ${limit}${unit}`, met: value <= limit };
}

export function atLeast(value: number, limit: number, unit: string): Checked {
  return { target: `>= ${limit}${unit}`, met: value >= limit };
}

export function mark(check: Checked): string {
  return check.met ? 'met' : 'MISSED';
}

/** A change as a person reads it: `+8.4`, `-1.2`, `0`. */
export function signed(value: number): string {
  return value > 0 ? `+${value}` : String(value);
}

/** `1234.5` -> `1,235`; NaN and Infinity pass through as `-`. */
export function fmt(value: number, digits = 0): string {
  if (!Number.isFinite(value)) return '-';
  return value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
}
