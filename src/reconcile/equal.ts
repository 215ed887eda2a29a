import { isDeepStrictEqual } from 'node:util';
import type { Json } from './types.ts';

/** Structural equality of canonical JSON values (key order does not matter). */
export function jsonEqual(a: Json | undefined, b: Json | undefined): boolean {
  // most fields are scalars: compared as isDeepStrictEqual compares them (Object.is), without its set-up
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) return Object.is(a, b);
  return isDeepStrictEqual(a, b);
}

export function isPlainObject(value: unknown): value is Record<string, Json> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
