/**
 * Durations as the schemas accept them (`schemas/*.schema.json#/definitions/duration`):
 * `2h`, `90m`, `1.5h`, `1h30m`, `3600s`, `1500ms`, `"3600"` or 3600 (seconds). Providers use
 * this to normalize both sides before diffing, so `1h`, `60m` and `3600` compare equal.
 */
const UNIT_SECONDS: Record<string, number> = { h: 3600, m: 60, s: 1, ms: 1e-3, us: 1e-6, µs: 1e-6, ns: 1e-9 };
/**
 * The units: Go's, as the platform and the secrets engine parse a duration (`1500ms` is `1.5s`;
 * `ms` before `m`, or `1ms` would read as a minute and an `s`). converge keeps a duration to the
 * millisecond.
 */
export const DURATION_UNIT = '(?:ns|us|µs|ms|h|m|s)';
/** A duration with units (`2h`, `1h30m`, `1500ms`), as schemas/*.schema.json#/definitions/duration writes it. */
const WHOLE = new RegExp(`^(?:\\d+(?:\\.\\d+)?${DURATION_UNIT})+$`);
const PART = new RegExp(`(\\d+(?:\\.\\d+)?)(${DURATION_UNIT})`, 'g');

/**
 * The longest duration converge accepts: 2562047h47m16s, the most a Go duration holds (the secrets
 * engine parses durations as one; about 292 years). Up to it a duration keeps its milliseconds
 * exactly through its canonical form and its wire form; far beyond it, `Math.round(s * 1000)`
 * runs past what a double holds exactly, and a value read back could differ from the one sent in
 * its last millisecond, a change in every plan.
 */
export const MAX_DURATION_SECONDS = 9_223_372_036;

/**
 * Why a duration field's value written as a string cannot be kept (a field's check, as the field
 * tables run it: `apply-timeout is longer than ...`); undefined when it can or is not a duration.
 * A whole number of seconds past the limit is the schema's to refuse (its `maximum`).
 */
export function durationLimitProblem(value: unknown): string | undefined {
  const seconds = typeof value === 'string' ? durationSeconds(value.trim()) : undefined;
  if (seconds === undefined || seconds <= MAX_DURATION_SECONDS) return undefined;
  return 'is longer than converge keeps (at most 2562047h, about 292 years: the longest a Go duration holds)';
}

/** Seconds in a duration, or undefined when the value is not one. */
export function durationSeconds(value: string | number): number | undefined {
  if (typeof value === 'number') return Number.isInteger(value) && value >= 0 ? value : undefined;
  if (/^\d+$/.test(value)) return Number(value);
  if (!WHOLE.test(value)) return undefined;
  let seconds = 0;
  for (const [, amount, unit] of value.matchAll(PART)) seconds += Number(amount) * (UNIT_SECONDS[unit ?? 's'] ?? 1);
  return Math.round(seconds * 1000) / 1000;
}
