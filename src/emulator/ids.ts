/**
 * Identifiers and secrets the emulator hands out: `<prefix>-` plus 16
 * base-62 characters, as the platform's ids look (`user-3Fk9…`, `tool-…`),
 * and longer random tokens. Both come from the crypto RNG, so tokens cannot
 * be guessed from one another.
 */
import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** The largest multiple of 62 below 256: bytes at or above it are skipped, so every character is equally likely. */
const UNBIASED = 248;

export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte >= UNBIASED) continue;
      out += ALPHABET[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

export function newId(prefix: string): string {
  return `${prefix}-${randomBase62(16)}`;
}

export function newToken(): string {
  return randomBase62(40);
}
