/**
 * Signs OpenSSH certificates for the emulated SSH secrets engine, byte for
 * byte in the format of OpenSSH's PROTOCOL.certkeys, so that real `ssh`,
 * `sshd` and `ssh-keygen` accept what the emulator hands out.
 *
 * The bytes are written here and signed with node:crypto rather than with
 * sshpk's certificate support: sshpk signs RSA certificates only with SHA-1
 * (`ssh-rsa`, which current OpenSSH refuses by default) and does not write
 * critical options and extensions the way OpenSSH reads them.
 */
import { createPrivateKey, type KeyObject, randomBytes, sign } from 'node:crypto';
import type sshpk from 'sshpk';
import { blobKeyType, parsePrivateKey, parsePublicKey } from './keys.ts';

export type CertType = 'user' | 'host';

export type AlgorithmSigner = 'ssh-rsa' | 'rsa-sha2-256' | 'rsa-sha2-512' | 'default' | '';

/** A point in time: a Date, or seconds since the epoch. */
export type CertTime = Date | number | bigint;

export interface SignOptions {
  /** The CA's private key, OpenSSH or PEM (PKCS#1, PKCS#8, SEC1). */
  caPrivateKey: string;
  /** The key to certify, one OpenSSH public key line. */
  subjectPublicKey: string;
  certType: CertType;
  keyId: string;
  principals: string[];
  validAfter: CertTime;
  validBefore: CertTime;
  criticalOptions: Record<string, string>;
  extensions: Record<string, string>;
  /** Only meaningful for an RSA CA; other CAs sign with their own algorithm. */
  algorithmSigner?: AlgorithmSigner;
  /** Fixed serial (tests); a random 64-bit one otherwise, as the real service does. */
  serial?: bigint;
}

export interface SignedCertificate {
  serial: bigint;
  /** The serial in lower-case hex, the form the real service reports as `serial_number`. */
  serialHex: string;
  /** `<type>-cert-v01@openssh.com <base64>` and a newline, like an `authorized_keys` line. */
  signedKey: string;
  /** The signature algorithm the CA used, e.g. `rsa-sha2-256`. */
  signatureAlgorithm: string;
}

const CERT_TYPE_CODES: Record<CertType, number> = { user: 1, host: 2 };

/** "Forever" in a certificate is the largest uint64. */
const MAX_UINT64 = (1n << 64n) - 1n;

/** Each RSA signature algorithm name and the hash it implies. */
const RSA_ALGORITHMS: Record<string, string> = {
  'ssh-rsa': 'sha1',
  'rsa-sha2-256': 'sha256',
  'rsa-sha2-512': 'sha512',
};

/** ECDSA hashes follow the curve size (RFC 5656 section 6.2.1). */
const ECDSA_HASHES: Record<string, string> = {
  'ecdsa-sha2-nistp256': 'sha256',
  'ecdsa-sha2-nistp384': 'sha384',
  'ecdsa-sha2-nistp521': 'sha512',
};

function uint32(value: number): Buffer {
  const buffer = Buffer.alloc(4);
  buffer.writeUInt32BE(value);
  return buffer;
}

function uint64(value: bigint): Buffer {
  const buffer = Buffer.alloc(8);
  buffer.writeBigUInt64BE(value);
  return buffer;
}

/** An SSH `string`: a uint32 length and the bytes. */
function sshString(value: Buffer | string): Buffer {
  const bytes = typeof value === 'string' ? Buffer.from(value, 'utf8') : value;
  return Buffer.concat([uint32(bytes.length), bytes]);
}

/** An SSH `mpint` from unsigned big-endian bytes: no leading zeros, a zero byte if the top bit is set. */
function mpint(unsigned: Buffer): Buffer {
  let start = 0;
  while (start < unsigned.length && unsigned[start] === 0) start++;
  const trimmed = unsigned.subarray(start);
  const needsPad = trimmed.length > 0 && (trimmed[0]! & 0x80) !== 0;
  return sshString(needsPad ? Buffer.concat([Buffer.from([0]), trimmed]) : trimmed);
}

function seconds(time: CertTime): bigint {
  if (time instanceof Date) return BigInt(Math.floor(time.getTime() / 1000));
  if (typeof time === 'bigint') return time;
  return BigInt(Math.floor(time));
}

/** Clamped into uint64, since the wire form cannot say "before 1970" or "after forever". */
function timestamp(time: CertTime): bigint {
  const value = seconds(time);
  if (value < 0n) return 0n;
  return value > MAX_UINT64 ? MAX_UINT64 : value;
}

/**
 * Critical options and extensions: sorted by name, each a name and its data,
 * where a value is wrapped in a string of its own and an empty value (a flag
 * such as `permit-pty`) is empty data.
 */
function optionList(options: Record<string, string>): Buffer {
  const names = Object.keys(options).sort();
  const parts = names.map((name) => {
    const value = options[name] ?? '';
    return Buffer.concat([sshString(name), sshString(value === '' ? Buffer.alloc(0) : sshString(value))]);
  });
  return sshString(Buffer.concat(parts));
}

function principalList(principals: string[]): Buffer {
  return sshString(Buffer.concat(principals.map((principal) => sshString(principal))));
}

function randomSerial(): bigint {
  return randomBytes(8).readBigUInt64BE();
}

/** The RSA signature algorithm: the real service treats `default` and empty as `rsa-sha2-256`. */
function rsaAlgorithm(signer: AlgorithmSigner | undefined): string {
  return signer === undefined || signer === '' || signer === 'default' ? 'rsa-sha2-256' : signer;
}

interface CaSigner {
  /** The CA's public key blob, written into the certificate. */
  publicBlob: Buffer;
  algorithm: string;
  /** The SSH signature blob (algorithm name and signature) over data. */
  sign(data: Buffer): Buffer;
}

function ecdsaSignature(algorithm: string, hash: string, key: KeyObject, data: Buffer): Buffer {
  // ieee-p1363 gives r || s at fixed width; SSH wants them as two mpints.
  const raw = sign(hash, data, { key, dsaEncoding: 'ieee-p1363' });
  const half = raw.length / 2;
  const inner = Buffer.concat([mpint(raw.subarray(0, half)), mpint(raw.subarray(half))]);
  return Buffer.concat([sshString(algorithm), sshString(inner)]);
}

/**
 * The CA's private key for node:crypto. sshpk writes every key type it reads as PKCS#8, which
 * node:crypto imports, except an Ed25519 key whose 32-byte seed starts with a zero byte and then
 * one below 0x80 (about one in 500): sshpk trims that seed as it trims an integer, a byte short, and
 * OpenSSL refuses it, so such a generated CA could not sign (a 500). An Ed25519 key goes in as
 * JWK, from its seed and public key.
 */
function cryptoKeyOf(caKey: sshpk.PrivateKey): KeyObject {
  if (caKey.type !== 'ed25519') return createPrivateKey(caKey.toString('pkcs8'));
  // the 32-byte seed (k) and public key (A) sshpk read, as they are
  const part = (name: string): string =>
    (caKey.parts.find((p) => p.name === name)?.data ?? Buffer.alloc(0)).toString('base64url');
  return createPrivateKey({
    key: { kty: 'OKP', crv: 'Ed25519', d: part('k'), x: part('A') },
    format: 'jwk',
  });
}

function caSigner(caKey: sshpk.PrivateKey, signer: AlgorithmSigner | undefined): CaSigner {
  const publicBlob = caKey.toPublic().toBuffer('rfc4253');
  const keyType = blobKeyType(publicBlob);
  const key = cryptoKeyOf(caKey);
  if (caKey.type === 'rsa') {
    const algorithm = rsaAlgorithm(signer);
    const hash = RSA_ALGORITHMS[algorithm];
    if (hash === undefined) throw new Error(`unknown algorithm_signer: ${algorithm}`);
    return {
      publicBlob,
      algorithm,
      sign: (data) => Buffer.concat([sshString(algorithm), sshString(sign(hash, data, key))]),
    };
  }
  if (signer !== undefined && signer !== '' && signer !== 'default') {
    throw new Error(`algorithm_signer ${signer} is not valid for a ${keyType} CA key`);
  }
  const ecdsaHash = ECDSA_HASHES[keyType];
  if (ecdsaHash !== undefined) {
    return { publicBlob, algorithm: keyType, sign: (data) => ecdsaSignature(keyType, ecdsaHash, key, data) };
  }
  if (keyType === 'ssh-ed25519') {
    return {
      publicBlob,
      algorithm: keyType,
      sign: (data) => Buffer.concat([sshString(keyType), sshString(sign(null, data, key))]),
    };
  }
  throw new Error(`unsupported CA key type: ${keyType}`);
}

/** The certificate up to (not including) its signature: everything the CA signs. */
function certificateBody(options: SignOptions, subjectBlob: Buffer, serial: bigint, caBlob: Buffer): Buffer {
  const subjectType = blobKeyType(subjectBlob);
  // The subject key's own fields follow its type name in its wire blob.
  const subjectFields = subjectBlob.subarray(4 + Buffer.byteLength(subjectType, 'latin1'));
  return Buffer.concat([
    sshString(`${subjectType}-cert-v01@openssh.com`),
    sshString(randomBytes(32)),
    subjectFields,
    uint64(serial),
    uint32(CERT_TYPE_CODES[options.certType]),
    sshString(options.keyId),
    principalList(options.principals),
    uint64(timestamp(options.validAfter)),
    uint64(timestamp(options.validBefore)),
    optionList(options.criticalOptions),
    optionList(options.extensions),
    sshString(''),
    sshString(caBlob),
  ]);
}

/** Signs `subjectPublicKey` with the CA; throws on keys it cannot read (callers validate first). */
export function signCertificate(options: SignOptions): SignedCertificate {
  const caKey = parsePrivateKey(options.caPrivateKey);
  if ('error' in caKey) throw new Error(caKey.error);
  const subject = parsePublicKey(options.subjectPublicKey);
  if ('error' in subject) throw new Error(subject.error);
  const signer = caSigner(caKey, options.algorithmSigner);
  const serial = options.serial ?? randomSerial();
  const body = certificateBody(options, subject.key.toBuffer('rfc4253'), serial, signer.publicBlob);
  const certificate = Buffer.concat([body, sshString(signer.sign(body))]);
  return {
    serial,
    serialHex: serial.toString(16),
    signedKey: `${blobKeyType(certificate)} ${certificate.toString('base64')}\n`,
    signatureAlgorithm: signer.algorithm,
  };
}
