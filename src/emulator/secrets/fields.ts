/**
 * Request parameters as the secrets service converts them: a bool may come
 * as `"true"`, an int as `"22"`, a duration as seconds or as `30m`. A value
 * that does not convert is a 400 naming the field, as the service's
 * framework answers `Field validation failed`.
 */
import { durationSeconds } from '../../manifest/duration.ts';
import { isPlainObject } from '../../reconcile/equal.ts';
import type { Json } from '../jsonapi.ts';
import { refused } from './envelope.ts';

export type Body = Record<string, Json | undefined>;

/** The request body as an object; none at all is an empty one. */
export function bodyOf(raw: unknown): Body {
  if (raw === undefined || raw === null) return {};
  if (!isPlainObject(raw)) throw refused('the request body must be a JSON object');
  return raw as Body;
}

const invalid = (field: string, value: unknown, type: string) =>
  refused(
    `Field validation failed: error converting input ${JSON.stringify(value)} for field "${field}": not a ${type}`,
  );

export function str(body: Body, field: string, fallback = ''): string {
  const value = body[field];
  if (value === undefined || value === null) return fallback;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw invalid(field, value, 'string');
}

export function bool(body: Body, field: string, fallback = false): boolean {
  const value = body[field];
  if (value === undefined || value === null) return fallback;
  if (typeof value === 'boolean') return value;
  if (value === 'true' || value === '1' || value === 1) return true;
  if (value === 'false' || value === '0' || value === 0) return false;
  throw invalid(field, value, 'bool');
}

export function int(body: Body, field: string, fallback = 0): number {
  const value = body[field];
  if (value === undefined || value === null || value === '') return fallback;
  const number = typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value;
  if (typeof number === 'number' && Number.isInteger(number)) return number;
  throw invalid(field, value, 'int');
}

/** Integer seconds, or a duration string (`30m`, `1h30m`, `1500ms`: src/manifest/duration.ts). */
export function seconds(body: Body, field: string, fallback = 0): number {
  const value = body[field];
  if (value === undefined || value === null || value === '') return fallback;
  const parsed = typeof value === 'string' || typeof value === 'number' ? durationSeconds(value) : undefined;
  if (parsed === undefined) throw invalid(field, value, 'duration');
  return Math.floor(parsed);
}

/** A comma-separated string or a list of strings, as the service accepts both for its list parameters. */
export function commaList(body: Body, field: string): string[] {
  const value = body[field];
  if (value === undefined || value === null) return [];
  const items = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : undefined;
  if (!items?.every((item) => typeof item === 'string')) throw invalid(field, value, 'comma-separated string');
  return items.map((item) => (item as string).trim()).filter((item) => item !== '');
}

/** A map of strings (`default_extensions`). */
export function stringMap(body: Body, field: string): Record<string, string> {
  const value = body[field];
  if (value === undefined || value === null || value === '') return {};
  if (!isPlainObject(value)) throw invalid(field, value, 'map');
  const out: Record<string, string> = {};
  for (const [key, item] of Object.entries(value)) {
    if (typeof item === 'string') out[key] = item;
    else if (typeof item === 'number' || typeof item === 'boolean') out[key] = String(item);
    else throw invalid(field, value, 'map of strings');
  }
  return out;
}
