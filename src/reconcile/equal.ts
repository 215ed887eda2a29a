import { isDeepStrictEqual } from 'node:util';
import type { Json } from './types.ts';

/** Structural equality of canonical JSON values (key order does not matter). */
export function jsonEqual(a: Json | undefined, b: Json | undefined): boolean {
  return isDeepStrictEqual(a, b);
}

export function isPlainObject(value: unknown): value is Record<string, Json> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
