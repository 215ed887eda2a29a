/**
 * The emulated SSH engine's keys and certificates, checked against OpenSSH
 * itself: every certificate is written out and read back with
 * `ssh-keygen -L`, which also verifies the CA's signature, so a field in the
 * wrong place or a bad signature fails here rather than at a user's login.
 */
import { spawnSync } from 'node:child_process';
import { createHash, createPrivateKey, createPublicKey } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sshpk from 'sshpk';
import { afterAll, describe, expect, it } from 'vitest';
import { type AlgorithmSigner, type SignOptions, signCertificate } from '../../src/emulator/ssh/certificate.ts';
import {
  caKeyRequest,
  type GeneratedKeyPair,
  generateKeyPair,
  issueKeyRequest,
  type KeyAlgorithm,
  keysMatch,
  parsePrivateKey,
  parsePublicKey,
} from '../../src/emulator/ssh/keys.ts';
import { hasSshKeygen, listCertificate, SSH_KEYGEN_MISSING, sshFingerprint, sshTime } from './ssh-tools.ts';

const workDir = mkdtempSync(join(tmpdir(), 'converge-ssh-cert-'));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

interface KeySpec {
  name: string;
  type: KeyAlgorithm;
  bits: number;
  /** The key type as ssh-keygen -L names it. */
  listed: string;
  sshType: string;
}

const KEY_SPECS: KeySpec[] = [
  { name: 'rsa 2048', type: 'rsa', bits: 2048, listed: 'RSA', sshType: 'ssh-rsa' },
  { name: 'ecdsa 256', type: 'ec', bits: 256, listed: 'ECDSA', sshType: 'ecdsa-sha2-nistp256' },
  { name: 'ecdsa 384', type: 'ec', bits: 384, listed: 'ECDSA', sshType: 'ecdsa-sha2-nistp384' },
  { name: 'ecdsa 521', type: 'ec', bits: 521, listed: 'ECDSA', sshType: 'ecdsa-sha2-nistp521' },
  { name: 'ed25519', type: 'ed25519', bits: 0, listed: 'ED25519', sshType: 'ssh-ed25519' },
];

// One key of each kind serves as both CA and subject; RSA generation is the slow part.
const KEYS = new Map<string, GeneratedKeyPair>(
  KEY_SPECS.map((spec) => [spec.name, generateKeyPair(spec.type, spec.bits)]),
);

function keyOf(spec: KeySpec): GeneratedKeyPair {
  return KEYS.get(spec.name)!;
}

const VALID_AFTER = new Date('2024-05-01T10:00:00Z');
const VALID_BEFORE = new Date('2024-05-01T11:30:00Z');

function baseOptions(ca: GeneratedKeyPair, subject: GeneratedKeyPair): SignOptions {
  return {
    caPrivateKey: ca.privateKey,
    subjectPublicKey: subject.publicKey,
    certType: 'user',
    keyId: 'vault-root-abc123',
    principals: ['root', 'ubuntu'],
    validAfter: VALID_AFTER,
    validBefore: VALID_BEFORE,
    criticalOptions: { 'force-command': '/usr/bin/id', 'source-address': '10.0.0.0/8,127.0.0.1/32' },
    extensions: { 'permit-pty': '', 'permit-port-forwarding': '', 'permit-X11-forwarding': '' },
  };
}

/** The signature algorithm a CA of this kind uses by default. */
function defaultSignature(spec: KeySpec): string {
  return spec.type === 'rsa' ? 'rsa-sha2-256' : spec.sshType;
}

describe('signCertificate, read back by ssh-keygen', () => {
  it('has ssh-keygen to read certificates with', () => {
    if (!hasSshKeygen) throw new Error(SSH_KEYGEN_MISSING);
  });

  for (const caSpec of KEY_SPECS) {
    describe(`${caSpec.name} CA`, () => {
      it.each(KEY_SPECS.map((spec) => [spec.name, spec] as const))('signs a %s user key', (_name, subjectSpec) => {
        const ca = keyOf(caSpec);
        const subject = keyOf(subjectSpec);
        const signed = signCertificate({ ...baseOptions(ca, subject), serial: 4242n });
        expect(signed.signedKey).toMatch(
          new RegExp(`^${subjectSpec.sshType}-cert-v01@openssh\\.com [A-Za-z0-9+/=]+\\n$`),
        );
        expect(signed.signatureAlgorithm).toBe(defaultSignature(caSpec));
        const listing = listCertificate(signed.signedKey);
        expect(listing).toEqual({
          type: `${subjectSpec.sshType}-cert-v01@openssh.com user certificate`,
          publicKey: `${subjectSpec.listed}-CERT ${sshFingerprint(subject.publicKey)}`,
          signingCa: `${caSpec.listed} ${sshFingerprint(ca.publicKey)} (using ${defaultSignature(caSpec)})`,
          keyId: '"vault-root-abc123"',
          serial: '4242',
          valid: `from ${sshTime(VALID_AFTER)} to ${sshTime(VALID_BEFORE)}`,
          principals: ['root', 'ubuntu'],
          criticalOptions: ['force-command /usr/bin/id', 'source-address 10.0.0.0/8,127.0.0.1/32'],
          // Sorted by byte value, so the upper-case X comes before the lower-case p.
          extensions: ['permit-X11-forwarding', 'permit-port-forwarding', 'permit-pty'],
        });
      });

      it('signs a host certificate', () => {
        const ca = keyOf(caSpec);
        const subject = keyOf(KEY_SPECS[4]!);
        const signed = signCertificate({
          ...baseOptions(ca, subject),
          certType: 'host',
          principals: ['web.example.com'],
          criticalOptions: {},
          extensions: {},
        });
        const listing = listCertificate(signed.signedKey);
        expect(listing.type).toBe('ssh-ed25519-cert-v01@openssh.com host certificate');
        expect(listing.principals).toEqual(['web.example.com']);
        expect(listing.criticalOptions).toEqual([]);
        expect(listing.extensions).toEqual([]);
        expect(listing.serial).toBe(signed.serial.toString());
      });
    });
  }

  it('signs with an Ed25519 CA whose seed starts with a zero byte (sshpk writes it a byte short as PKCS#8)', () => {
    // sshpk trims the seed as it trims a positive integer: a zero byte before one below 0x80 goes.
    // About one generated key in 500 has such a seed: a generated CA then could not sign (a 500)
    const seed = Buffer.concat([Buffer.from([0, 0x7f]), createHash('sha256').update('converge').digest().subarray(2)]);
    const x = createPublicKey(
      createPrivateKey({ key: { kty: 'OKP', crv: 'Ed25519', d: seed.toString('base64url'), x: '' }, format: 'jwk' }),
    ).export({ format: 'jwk' }).x as string;
    const pkcs8 = createPrivateKey({
      key: { kty: 'OKP', crv: 'Ed25519', d: seed.toString('base64url'), x },
      format: 'jwk',
    })
      .export({ type: 'pkcs8', format: 'pem' })
      .toString();
    const key = sshpk.parsePrivateKey(pkcs8, 'pkcs8');
    const ca = { privateKey: key.toString('openssh'), publicKey: key.toPublic().toString('ssh') };
    const signed = signCertificate(baseOptions({ ...ca, keyType: 'ssh-ed25519' }, keyOf(KEY_SPECS[4]!)));
    expect(listCertificate(signed.signedKey).signingCa).toBe(
      `ED25519 ${sshFingerprint(ca.publicKey)} (using ssh-ed25519)`,
    );
  });

  describe('an RSA CA follows algorithm_signer', () => {
    const rsa = KEY_SPECS[0]!;
    const cases: Array<[AlgorithmSigner | undefined, string]> = [
      [undefined, 'rsa-sha2-256'],
      ['', 'rsa-sha2-256'],
      ['default', 'rsa-sha2-256'],
      ['rsa-sha2-256', 'rsa-sha2-256'],
      ['rsa-sha2-512', 'rsa-sha2-512'],
      ['ssh-rsa', 'ssh-rsa'],
    ];
    it.each(cases)('algorithm_signer %s signs with %s', (signer, algorithm) => {
      const ca = keyOf(rsa);
      const signed = signCertificate({ ...baseOptions(ca, keyOf(KEY_SPECS[4]!)), algorithmSigner: signer });
      expect(signed.signatureAlgorithm).toBe(algorithm);
      expect(listCertificate(signed.signedKey).signingCa).toBe(
        `RSA ${sshFingerprint(ca.publicKey)} (using ${algorithm})`,
      );
    });
  });

  it('refuses an algorithm_signer other than default for a non-RSA CA', () => {
    const options = baseOptions(keyOf(KEY_SPECS[4]!), keyOf(KEY_SPECS[1]!));
    expect(() => signCertificate({ ...options, algorithmSigner: 'rsa-sha2-512' })).toThrow(/not valid/);
    expect(() => signCertificate({ ...options, algorithmSigner: 'default' })).not.toThrow();
  });

  it('takes the CA key as PKCS#8 or PKCS#1 PEM as well as OpenSSH', () => {
    const ca = keyOf(KEY_SPECS[0]!);
    const openssh = parsePrivateKey(ca.privateKey);
    if ('error' in openssh) throw new Error(openssh.error);
    const pkcs8 = openssh.toString('pkcs8');
    const pkcs1 = createPrivateKey(pkcs8).export({ type: 'pkcs1', format: 'pem' }).toString();
    for (const pem of [pkcs8, pkcs1]) {
      const signed = signCertificate({ ...baseOptions(ca, keyOf(KEY_SPECS[4]!)), caPrivateKey: pem });
      expect(listCertificate(signed.signedKey).signingCa).toContain(sshFingerprint(ca.publicKey));
    }
  });

  it('writes values as strings inside the option data, and flags as empty data', () => {
    const signed = signCertificate({
      ...baseOptions(keyOf(KEY_SPECS[4]!), keyOf(KEY_SPECS[4]!)),
      criticalOptions: { 'verify-required': '' },
      extensions: { 'login@github.com': 'alice', 'no-touch-required': '' },
    });
    const listing = listCertificate(signed.signedKey);
    expect(listing.criticalOptions).toEqual(['verify-required']);
    // ssh-keygen shows unknown extensions' raw data: a uint32 length 5 and "alice".
    expect(listing.extensions).toEqual([
      `login@github.com UNKNOWN OPTION: 00000005${Buffer.from('alice').toString('hex')} (len 9)`,
      'no-touch-required',
    ]);
  });

  it('accepts seconds and the uint64 maximum for validity, which ssh-keygen shows as forever', () => {
    const options = baseOptions(keyOf(KEY_SPECS[4]!), keyOf(KEY_SPECS[4]!));
    const forever = signCertificate({ ...options, validAfter: 0, validBefore: (1n << 64n) - 1n });
    expect(listCertificate(forever.signedKey).valid).toBe('forever');
    const seconds = signCertificate({
      ...options,
      validAfter: VALID_AFTER.getTime() / 1000,
      validBefore: VALID_BEFORE,
    });
    expect(listCertificate(seconds.signedKey).valid).toBe(`from ${sshTime(VALID_AFTER)} to ${sshTime(VALID_BEFORE)}`);
  });

  it('picks a random 64-bit serial and reports it in hex too', () => {
    const options = baseOptions(keyOf(KEY_SPECS[4]!), keyOf(KEY_SPECS[4]!));
    const first = signCertificate(options);
    const second = signCertificate(options);
    expect(first.serial).not.toBe(second.serial);
    expect(first.serial < 1n << 64n).toBe(true);
    expect(BigInt(`0x${first.serialHex}`)).toBe(first.serial);
    expect(listCertificate(first.signedKey).serial).toBe(first.serial.toString());
  });
});

describe('generateKeyPair', () => {
  it.each(KEY_SPECS.map((spec) => [spec.name, spec] as const))('makes a %s pair in OpenSSH forms', (_name, spec) => {
    const pair = keyOf(spec);
    expect(pair.keyType).toBe(spec.sshType);
    expect(pair.privateKey).toMatch(
      /^-----BEGIN OPENSSH PRIVATE KEY-----\n[\s\S]+-----END OPENSSH PRIVATE KEY-----\n?$/,
    );
    expect(pair.publicKey).toMatch(new RegExp(`^${spec.sshType} [A-Za-z0-9+/=]+$`));
    expect(keysMatch(pair.privateKey, pair.publicKey)).toBe(true);
    if (!hasSshKeygen) throw new Error(SSH_KEYGEN_MISSING);
    // ssh-keygen -y derives the public key from the private key file.
    const file = join(workDir, `key-${spec.name.replace(' ', '-')}`);
    writeFileSync(file, pair.privateKey, { mode: 0o600 });
    const derived = spawnSync('ssh-keygen', ['-y', '-f', file], { encoding: 'utf8' });
    expect(derived.stderr).toBe('');
    expect(derived.stdout.trim()).toBe(pair.publicKey);
  });
});

describe('parsePublicKey', () => {
  it.each(KEY_SPECS.map((spec) => [spec.name, spec] as const))('reads a %s key', (_name, spec) => {
    const pair = keyOf(spec);
    const parsed = parsePublicKey(`${pair.publicKey} someone@example.com\n`);
    if ('error' in parsed) throw new Error(parsed.error);
    expect(parsed.sshType).toBe(spec.sshType);
    expect(parsed.type).toBe(spec.type === 'ec' ? 'ecdsa' : spec.type);
    expect(parsed.bits).toBe(spec.type === 'ed25519' ? 256 : spec.bits);
    const blob = Buffer.from(pair.publicKey.split(' ')[1]!, 'base64');
    expect(parsed.fingerprintSha256).toBe(createHash('sha256').update(blob).digest('hex'));
  });

  it('refuses what is not a public key', () => {
    expect(parsePublicKey('not a key')).toHaveProperty('error');
    expect(parsePublicKey('')).toHaveProperty('error');
  });
});

describe('keysMatch', () => {
  const ed = keyOf(KEY_SPECS[4]!);
  const ec = keyOf(KEY_SPECS[1]!);

  it('accepts a pair, whatever the private key form', () => {
    const parsed = parsePrivateKey(ec.privateKey);
    if ('error' in parsed) throw new Error(parsed.error);
    expect(keysMatch(ec.privateKey, ec.publicKey)).toBe(true);
    expect(keysMatch(parsed.toString('pkcs8'), `${ec.publicKey} comment`)).toBe(true);
  });

  it('refuses keys that are not a pair, or not keys', () => {
    expect(keysMatch(ed.privateKey, ec.publicKey)).toBe(false);
    expect(keysMatch(ec.privateKey, generateKeyPair('ec', 256).publicKey)).toBe(false);
    expect(keysMatch('garbage', ec.publicKey)).toBe(false);
    expect(keysMatch(ec.privateKey, 'garbage')).toBe(false);
  });

  it('refuses an unreadable private key with a message', () => {
    expect(
      parsePrivateKey('-----BEGIN OPENSSH PRIVATE KEY-----\nAAAA\n-----END OPENSSH PRIVATE KEY-----'),
    ).toHaveProperty('error');
  });
});

describe('caKeyRequest', () => {
  const accepted: Array<[string | undefined, number | undefined, string, number]> = [
    [undefined, undefined, 'rsa', 4096],
    ['', 0, 'rsa', 4096],
    ['ssh-rsa', 0, 'rsa', 4096],
    ['ssh-rsa', 2048, 'rsa', 2048],
    ['rsa', 3072, 'rsa', 3072],
    ['rsa', 4096, 'rsa', 4096],
    ['ec', undefined, 'ec', 256],
    ['ec', 256, 'ec', 256],
    ['ec', 384, 'ec', 384],
    ['ec', 521, 'ec', 521],
    ['ecdsa-sha2-nistp256', 0, 'ec', 256],
    ['ecdsa-sha2-nistp384', undefined, 'ec', 384],
    ['ecdsa-sha2-nistp521', 521, 'ec', 521],
    ['ssh-ed25519', 0, 'ed25519', 0],
    ['ed25519', 4096, 'ed25519', 0],
  ];
  it.each(accepted)('key_type %s key_bits %s gives %s %i', (keyType, keyBits, type, bits) => {
    expect(caKeyRequest(keyType, keyBits)).toEqual({ type, bits });
  });

  const refused: Array<[string | undefined, number | undefined, string]> = [
    ['foo', 0, 'unknown key_type: foo'],
    ['ssh-dss', 0, 'unknown key_type: ssh-dss'],
    ['ecdsa', 256, 'unknown key_type: ecdsa'],
    ['ssh-rsa', 1000, 'invalid key_bits 1000 for rsa'],
    ['rsa', 1024, 'invalid key_bits 1024 for rsa'],
    [undefined, 8192, 'invalid key_bits 8192 for rsa'],
    ['ec', 224, 'invalid key_bits 224 for ec'],
    ['ec', 2048, 'invalid key_bits 2048 for ec'],
    ['ecdsa-sha2-nistp256', 384, 'invalid key_bits 384 for ecdsa-sha2-nistp256'],
    ['ecdsa-sha2-nistp521', 512, 'invalid key_bits 512 for ecdsa-sha2-nistp521'],
    ['rsa', -1, 'invalid key_bits -1 for rsa'],
  ];
  it.each(refused)('key_type %s key_bits %s is refused: %s', (keyType, keyBits, error) => {
    expect(caKeyRequest(keyType, keyBits)).toEqual({ error });
  });
});

describe('issueKeyRequest', () => {
  const accepted: Array<[string | undefined, number | undefined, string, number]> = [
    [undefined, undefined, 'rsa', 2048],
    ['rsa', 0, 'rsa', 2048],
    ['rsa', 2048, 'rsa', 2048],
    ['rsa', 3072, 'rsa', 3072],
    ['rsa', 4096, 'rsa', 4096],
    ['ec', undefined, 'ec', 256],
    ['ec', 0, 'ec', 256],
    ['ec', 384, 'ec', 384],
    ['ec', 521, 'ec', 521],
    ['ed25519', 0, 'ed25519', 0],
    ['ed25519', 1234, 'ed25519', 0],
  ];
  it.each(accepted)('key_type %s key_bits %s gives %s %i', (keyType, keyBits, type, bits) => {
    expect(issueKeyRequest(keyType, keyBits)).toEqual({ type, bits });
  });

  const refused: Array<[string | undefined, number | undefined, string]> = [
    ['ssh-rsa', 0, 'unknown key_type: ssh-rsa'],
    ['ssh-ed25519', 0, 'unknown key_type: ssh-ed25519'],
    ['ecdsa-sha2-nistp256', 0, 'unknown key_type: ecdsa-sha2-nistp256'],
    ['dsa', 0, 'unknown key_type: dsa'],
    ['rsa', 1024, 'invalid key_bits 1024 for rsa'],
    [undefined, 1000, 'invalid key_bits 1000 for rsa'],
    ['ec', 224, 'invalid key_bits 224 for ec'],
    ['ec', 512, 'invalid key_bits 512 for ec'],
  ];
  it.each(refused)('key_type %s key_bits %s is refused: %s', (keyType, keyBits, error) => {
    expect(issueKeyRequest(keyType, keyBits)).toEqual({ error });
  });
});
