/**
 * Value normalizers: each turns the forms a person writes, and the forms the
 * API returns, into one canonical value, so that the same setting compares
 * equal on both sides. A value a normalizer does not recognise is returned
 * unchanged: it then shows up as a difference instead of being guessed at.
 */
import { DURATION_UNIT, durationSeconds } from '../../manifest/duration.ts';
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

/** One number with one unit (`90m`, `1500ms`): a form the API keeps as it is sent. */
const ONE_UNIT = new RegExp(`^\\d+(?:\\.\\d+)?${DURATION_UNIT}$`);

/**
 * The wire form of a duration the API stores as a string: the user's own
 * string when they wrote one number with one unit (the API keeps what it is
 * sent), a unit form otherwise, because the API wants a number plus a unit
 * suffix (`1h30m` and `5400` both go as `90m`).
 */
export function durationString(canonical: Json, written: Json | undefined): Json {
  if (typeof written === 'string' && ONE_UNIT.test(written.trim())) return written.trim();
  return typeof canonical === 'number' ? formatDuration(canonical) : canonical;
}

/**
 * A set the API keeps as a comma-separated string (`cidr_list`): a list or a
 * comma string, trimmed, without duplicates, sorted, because the API treats
 * the items as a set and reads back whatever order it was sent.
 */
export const commaSet: Normalizer = (value) => {
  const items = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : undefined;
  if (!items?.every((item) => typeof item === 'string')) return value;
  return [...new Set(items.map((item) => (item as string).trim()).filter((item) => item !== ''))].sort();
};

/** The wire form of a comma set: one string. */
export const commaString = (canonical: Json): Json => (Array.isArray(canonical) ? canonical.join(',') : canonical);

/** A map whose values are normalized one by one, keys in order; none (null, `""`) is the empty map. */
const eachValue =
  (each: (item: Json) => Json): Normalizer =>
  (value) => {
    if (value === null || value === '') return {};
    if (typeof value !== 'object' || Array.isArray(value)) return value;
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, each(value[key] ?? null)]),
    );
  };

/** A map of strings (`default_extensions`): scalars become strings. */
export const stringMap: Normalizer = eachValue((item) =>
  typeof item === 'number' || typeof item === 'boolean' ? String(item) : item,
);

/**
 * Sizes per key type (`allowed_user_key_lengths`): an int, a list, or a
 * comma string of sizes each become a sorted list of numbers.
 */
export const sizesByType: Normalizer = eachValue((sizes) => {
  const items = Array.isArray(sizes) ? sizes : typeof sizes === 'string' ? sizes.split(',') : [sizes];
  const numbers = items.map((item) => (typeof item === 'string' && /^\d+$/.test(item.trim()) ? Number(item) : item));
  return numbers.every((n) => typeof n === 'number') ? [...new Set(numbers as number[])].sort((a, b) => a - b) : sizes;
});

/** A text whose empty form means the API's default (`algorithm_signer: ""` is `default`). */
export const emptyAs =
  (fallback: string): Normalizer =>
  (value) =>
    value === '' || value === null ? fallback : value;
