/**
 * Durations as the schemas accept them (`schemas/*.schema.json#/definitions/duration`):
 * `2h`, `90m`, `1.5h`, `1h30m`, `3600s`, `"3600"` or 3600 (seconds). Providers use
 * this to normalize both sides before diffing, so `1h`, `60m` and `3600` compare equal.
 */
const UNIT_SECONDS: Record<string, number> = { h: 3600, m: 60, s: 1 };
const WHOLE = /^(?:\d+(?:\.\d+)?[hms])+$/;
const PART = /(\d+(?:\.\d+)?)([hms])/g;

/** Seconds in a duration, or undefined when the value is not one. */
export function durationSeconds(value: string | number): number | undefined {
  if (typeof value === 'number') return Number.isInteger(value) && value >= 0 ? value : undefined;
  if (/^\d+$/.test(value)) return Number(value);
  if (!WHOLE.test(value)) return undefined;
  let seconds = 0;
  for (const [, amount, unit] of value.matchAll(PART)) seconds += Number(amount) * (UNIT_SECONDS[unit ?? 's'] ?? 1);
  return Math.round(seconds * 1000) / 1000;
}
