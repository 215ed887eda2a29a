/**
 * userPassword values as OpenLDAP stores and checks them (RFC 2307 style
 * "{SCHEME}base64"). Both backends store rotated passwords as {SSHA}
 * (salted SHA-1): it is what slapd verifies out of the box without extra
 * modules, so a password the engine sets is accepted by a real slapd and by
 * any LDAP client binding to it, and the plaintext never rests in the
 * directory. Plain values (as seed LDIF often has them) are compared as-is.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Digest algorithm and digest length for each supported scheme; salted ones append the salt after the digest. */
const SCHEMES: Readonly<Record<string, { algorithm: string; length: number; salted: boolean }>> = {
  SSHA: { algorithm: 'sha1', length: 20, salted: true },
  SHA: { algorithm: 'sha1', length: 20, salted: false },
  SSHA256: { algorithm: 'sha256', length: 32, salted: true },
  SSHA512: { algorithm: 'sha512', length: 64, salted: true },
};

/** A "{SSHA}..." userPassword value for `password` with a fresh 8-byte salt. */
export function hashSsha(password: string, salt: Buffer = randomBytes(8)): string {
  const digest = createHash('sha1').update(password, 'utf8').update(salt).digest();
  return `{SSHA}${Buffer.concat([digest, salt]).toString('base64')}`;
}

/** True when `candidate` matches a stored userPassword value; an unknown {SCHEME} never matches. */
export function verifyPassword(stored: string, candidate: string): boolean {
  const match = /^\{([A-Za-z0-9-]+)\}(.*)$/s.exec(stored);
  if (!match) return sameBytes(Buffer.from(stored, 'utf8'), Buffer.from(candidate, 'utf8'));
  const scheme = SCHEMES[match[1]!.toUpperCase()];
  if (!scheme) return match[1]!.toUpperCase() === 'CLEARTEXT' && match[2] === candidate;
  const decoded = Buffer.from(match[2]!, 'base64');
  if (decoded.length < scheme.length || (!scheme.salted && decoded.length !== scheme.length)) return false;
  const digest = decoded.subarray(0, scheme.length);
  const salt = decoded.subarray(scheme.length);
  const computed = createHash(scheme.algorithm).update(candidate, 'utf8').update(salt).digest();
  return sameBytes(digest, computed);
}

function sameBytes(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}
