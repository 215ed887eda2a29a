/**
 * Keyed digests of values converge must recognise but never keep: an HMAC
 * under a key derived by scrypt from a secret (an API token, or the saved
 * plans' own key) and a salt. A file holding such digests (the fingerprint
 * store, a saved plan) does not let anyone test guesses of a weak secret
 * offline without the secret the key came from (docs/security.md).
 */
import { createHmac, scryptSync } from 'node:crypto';

/** scrypt cost: about 16 MiB and tens of milliseconds per key; slow for a guesser. */
const SCRYPT = { N: 2 ** 14, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };

function deriveKey(secret: string, salt: string): Buffer {
  return scryptSync(secret, salt, 32, SCRYPT);
}

/**
 * A key, and its check: the keyed digest of a fixed text, kept beside what was digested so that a
 * later run tells whether its secret gives the same key without keeping the key.
 */
export function deriveKeyWithCheck(secret: string, salt: string, checkText: string): { key: Buffer; check: string } {
  const key = deriveKey(secret, salt);
  return { key, check: keyedHash(key, checkText) };
}

export function keyedHash(key: Buffer, text: string): string {
  return createHmac('sha256', key).update(text).digest('hex');
}
