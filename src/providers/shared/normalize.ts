/**
 * Value normalizers: each turns the forms a person writes, and the forms the
 * API returns, into one canonical value, so that the same setting compares
 * equal on both sides. A value a normalizer does not recognise is returned
 * unchanged: it then shows up as a difference instead of being guessed at.
 */
import { durationSeconds } from '../../manifest/duration.ts';
import type { Json } from '../../reconcile/types.ts';

export type Normalizer = (value: Json) => Json;

/** Seconds: `3h` = `180m` = `10800` = 10800. */
export const duration: Normalizer = (value) => {
  if (typeof value !== 'string' && typeof value !== 'number') return value;
  return durationSeconds(typeof value === 'string' ? value.trim() : value) ?? value;
};

export const boolean: Normalizer = (value) => {
  if (value === 'true') return true;
  if (value === 'false') return false;
  return value;
};

export const integer: Normalizer = (value) =>
  typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value.trim()) : value;

/** Line endings, indentation and blank lines do not change a PEM document. */
export const pem: Normalizer = (value) => {
  if (typeof value !== 'string') return value;
  return value
    .split(/\r\n|\r|\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .join('\n');
};

/** Checksums are hexadecimal: case does not matter. */
export const lowerCase: Normalizer = (value) => (typeof value === 'string' ? value.trim().toLowerCase() : value);

/** An empty optional string means "none". */
export const nullIfEmpty: Normalizer = (value) => (value === '' ? null : value);

/** The shortest whole-unit form of a number of seconds: 7200 -> `2h`, 5400 -> `90m`, 45 -> `45s`. */
export function formatDuration(seconds: number): string {
  if (seconds > 0 && Number.isInteger(seconds / 3600)) return `${seconds / 3600}h`;
  if (seconds > 0 && Number.isInteger(seconds / 60)) return `${seconds / 60}m`;
  return `${seconds}s`;
}

/**
 * The wire form of a duration the API stores as a string: the user's own
 * string when they wrote one number with one unit (the API keeps what it is
 * sent), a unit form otherwise, because the API wants a number plus a unit
 * suffix (`1h30m` and `5400` both go as `90m`).
 */
export function durationString(canonical: Json, written: Json | undefined): Json {
  if (typeof written === 'string' && /^\d+(?:\.\d+)?[hms]$/.test(written.trim())) return written.trim();
  return typeof canonical === 'number' ? formatDuration(canonical) : canonical;
}
