/**
 * SSH key handling for the emulated SSH secrets engine: which key type and
 * size a request asks for (the CA's `config/ca` and the `issue` endpoint
 * have different defaults and accepted values), generating key pairs in the
 * OpenSSH forms the real service returns, and reading keys a caller hands in
 * (a public key to sign, an imported CA pair). Pure functions, so the routes
 * stay thin and the rules can be tested on their own.
 */
import { createHash, generateKeyPairSync, type KeyObject } from 'node:crypto';
import sshpk from 'sshpk';

export type KeyAlgorithm = 'rsa' | 'ec' | 'ed25519';

export interface KeyRequest {
  type: KeyAlgorithm;
  /** Modulus size for RSA, curve size for EC, 0 for ed25519 (which has one size). */
  bits: number;
}

export interface KeyRequestError {
  error: string;
}

export interface GeneratedKeyPair {
  /** `-----BEGIN OPENSSH PRIVATE KEY-----` PEM. */
  privateKey: string;
  /** One `authorized_keys` line without a comment, e.g. `ssh-ed25519 AAAA...`. */
  publicKey: string;
  /** The SSH key-type identifier, e.g. `ssh-rsa`, `ecdsa-sha2-nistp256`, `ssh-ed25519`. */
  keyType: string;
}

export interface ParsedKey {
  type: 'rsa' | 'ecdsa' | 'ed25519' | 'dsa';
  bits: number;
  sshType: string;
  /** Hex SHA-256 of the key's wire blob: what `{{public_key_hash}}` expands to in a key ID format. */
  fingerprintSha256: string;
  key: sshpk.Key;
}

const RSA_BITS = [2048, 3072, 4096];
const EC_BITS = [256, 384, 521];

/** The ECDSA SSH identifiers fix the curve, so they fix the size too. */
const ECDSA_IDENTIFIER_BITS: Record<string, number> = {
  'ecdsa-sha2-nistp256': 256,
  'ecdsa-sha2-nistp384': 384,
  'ecdsa-sha2-nistp521': 521,
};

const NODE_CURVES: Record<number, string> = { 256: 'P-256', 384: 'P-384', 521: 'P-521' };

function invalidBits(bits: number, algorithm: string): KeyRequestError {
  return { error: `invalid key_bits ${bits} for ${algorithm}` };
}

/** RSA or EC size check: 0 picks the default, anything else must be one of the accepted sizes. */
function sized(type: KeyAlgorithm, bits: number, accepted: number[], fallback: number): KeyRequest | KeyRequestError {
  if (bits === 0) return { type, bits: fallback };
  return accepted.includes(bits) ? { type, bits } : invalidBits(bits, type);
}

/**
 * The key a CA configuration asks to generate. It accepts both SSH
 * identifiers and bare algorithm names, and a CA's RSA key defaults to 4096
 * bits because a CA key lives long and signs everything.
 */
export function caKeyRequest(keyType: string | undefined, keyBits: number | undefined): KeyRequest | KeyRequestError {
  const type = keyType === undefined || keyType === '' ? 'ssh-rsa' : keyType;
  const bits = keyBits ?? 0;
  if (!Number.isInteger(bits) || bits < 0) return invalidBits(bits, type);
  if (type === 'ssh-rsa' || type === 'rsa') return sized('rsa', bits, RSA_BITS, 4096);
  if (type === 'ec') return sized('ec', bits, EC_BITS, 256);
  const curveBits = ECDSA_IDENTIFIER_BITS[type];
  if (curveBits !== undefined) {
    // key_bits may repeat what the identifier says, but not contradict it.
    return bits === 0 || bits === curveBits ? { type: 'ec', bits: curveBits } : invalidBits(bits, type);
  }
  if (type === 'ssh-ed25519' || type === 'ed25519') return { type: 'ed25519', bits: 0 };
  return { error: `unknown key_type: ${type}` };
}

/**
 * The key `/ssh/issue` generates for a caller: algorithm names only, and a
 * smaller RSA default than a CA's because the key is short-lived.
 */
export function issueKeyRequest(
  keyType: string | undefined,
  keyBits: number | undefined,
): KeyRequest | KeyRequestError {
  const type = keyType === undefined || keyType === '' ? 'rsa' : keyType;
  const bits = keyBits ?? 0;
  if (!Number.isInteger(bits) || bits < 0) return invalidBits(bits, type);
  if (type === 'rsa') return sized('rsa', bits, RSA_BITS, 2048);
  if (type === 'ec') return sized('ec', bits, EC_BITS, 256);
  if (type === 'ed25519') return { type: 'ed25519', bits: 0 };
  return { error: `unknown key_type: ${type}` };
}

export function isKeyRequestError<T extends object>(value: T | KeyRequestError): value is KeyRequestError {
  return 'error' in value;
}

function nodePrivateKey(type: KeyAlgorithm, bits: number): KeyObject {
  if (type === 'rsa') return generateKeyPairSync('rsa', { modulusLength: bits }).privateKey;
  if (type === 'ec') {
    const namedCurve = NODE_CURVES[bits];
    if (namedCurve === undefined) throw new Error(`invalid key_bits ${bits} for ec`);
    return generateKeyPairSync('ec', { namedCurve }).privateKey;
  }
  return generateKeyPairSync('ed25519').privateKey;
}

/** The first string of an SSH wire blob, which names the key type. */
export function blobKeyType(blob: Buffer): string {
  const length = blob.readUInt32BE(0);
  return blob.subarray(4, 4 + length).toString('latin1');
}

/** `type base64`, without the comment sshpk would otherwise append. */
function publicKeyLine(key: sshpk.Key): string {
  const blob = key.toBuffer('rfc4253');
  return `${blobKeyType(blob)} ${blob.toString('base64')}`;
}

/**
 * Generates a key pair with node:crypto (sshpk's own generator cannot make
 * RSA keys) and converts it to the OpenSSH forms the real service hands out.
 */
export function generateKeyPair(type: KeyAlgorithm, bits: number): GeneratedKeyPair {
  const pkcs8 = nodePrivateKey(type, bits).export({ type: 'pkcs8', format: 'pem' }).toString();
  const privateKey = sshpk.parsePrivateKey(pkcs8, 'pkcs8');
  // sshpk would otherwise write the comment "(unnamed)" into the key file.
  privateKey.comment = '';
  const publicKey = privateKey.toPublic();
  return {
    privateKey: privateKey.toString('openssh'),
    publicKey: publicKeyLine(publicKey),
    keyType: blobKeyType(publicKey.toBuffer('rfc4253')),
  };
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Reads one OpenSSH public key line (a comment is allowed). */
export function parsePublicKey(text: string): ParsedKey | KeyRequestError {
  let key: sshpk.Key;
  try {
    key = sshpk.parseKey(text.trim(), 'ssh');
  } catch (error) {
    return { error: `failed to parse public key: ${message(error)}` };
  }
  const type = key.type;
  if (type !== 'rsa' && type !== 'ecdsa' && type !== 'ed25519' && type !== 'dsa') {
    return { error: `unsupported public key type: ${type}` };
  }
  const blob = key.toBuffer('rfc4253');
  return {
    type,
    bits: key.size,
    sshType: blobKeyType(blob),
    fingerprintSha256: createHash('sha256').update(blob).digest('hex'),
    key,
  };
}

/** Reads a private key in any form sshpk knows (OpenSSH, PKCS#1, PKCS#8, SEC1); encrypted keys are refused. */
export function parsePrivateKey(text: string): sshpk.PrivateKey | KeyRequestError {
  try {
    return sshpk.parsePrivateKey(text.trim(), 'auto');
  } catch (error) {
    return { error: `failed to parse private key: ${message(error)}` };
  }
}

/** Whether an imported CA's private and public key belong together; compared by their wire blobs. */
export function keysMatch(privatePem: string, publicLine: string): boolean {
  const privateKey = parsePrivateKey(privatePem);
  const publicKey = parsePublicKey(publicLine);
  if ('error' in privateKey || 'error' in publicKey) return false;
  return privateKey.toPublic().toBuffer('rfc4253').equals(publicKey.key.toBuffer('rfc4253'));
}
