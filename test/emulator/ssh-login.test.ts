/**
 * The proof that the emulator's SSH certificates are the real thing: a
 * throw-away OpenSSH server trusts an emulator-style CA, and the OpenSSH
 * client logs in with certificates signed by `signCertificate`. Parsing with
 * ssh-keygen shows the fields are in place; only sshd shows that principals,
 * validity, critical options and signature algorithms mean what they should.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SignOptions, signCertificate } from '../../src/emulator/ssh/certificate.ts';
import { type GeneratedKeyPair, generateKeyPair } from '../../src/emulator/ssh/keys.ts';
import { INSECURE_HOST, type SshResult, ThrowawaySshd, USER } from './ssh-tools.ts';

const HOUR = 3600;

const edCa = generateKeyPair('ed25519', 0);
const rsaCa = generateKeyPair('rsa', 2048);
const hostKey = generateKeyPair('ed25519', 0);

const sshd = new ThrowawaySshd({
  prefix: 'converge-ssh-login-',
  trustedUserCaKeys: `${edCa.publicKey}\n${rsaCa.publicKey}\n`,
  hostKey,
  hostCertificate: signCertificate({
    caPrivateKey: edCa.privateKey,
    subjectPublicKey: hostKey.publicKey,
    certType: 'host',
    keyId: 'host-127.0.0.1',
    principals: ['127.0.0.1'],
    validAfter: 0,
    validBefore: (1n << 64n) - 1n,
    criticalOptions: {},
    extensions: {},
  }).signedKey,
});

/** Why sshd cannot run here, or undefined when it can; checked before any test is declared. */
const unavailable = sshd.unavailable;
if (unavailable !== undefined) console.warn(`skipping SSH login tests: ${unavailable}`);

/** Runs `ssh` as the test user with the given key and certificate, with no user configuration or agent. */
function ssh(key: GeneratedKeyPair, signedKey: string, hostOptions: string[]): Promise<SshResult> {
  return sshd.ssh(key.privateKey, signedKey, hostOptions);
}

function userCert(ca: GeneratedKeyPair, subject: GeneratedKeyPair, overrides: Partial<SignOptions> = {}): string {
  const now = Math.floor(Date.now() / 1000);
  return signCertificate({
    caPrivateKey: ca.privateKey,
    subjectPublicKey: subject.publicKey,
    certType: 'user',
    keyId: `vault-${USER}`,
    principals: [USER],
    // Back-dated a little, as the real service does, against clock skew.
    validAfter: now - 30,
    validBefore: now + HOUR,
    criticalOptions: {},
    extensions: { 'permit-pty': '', 'permit-port-forwarding': '' },
    ...overrides,
  }).signedKey;
}

const sshdLogged = (text: string) => sshd.logged(text);
const context = (result: SshResult) => sshd.context(result);

describe('logging in to sshd with emulator-signed certificates', () => {
  beforeAll(async () => {
    if (unavailable === undefined) await sshd.start();
  }, 30_000);

  afterAll(async () => {
    await sshd.stop();
  });

  const LOGIN_TIMEOUT = 20_000;

  it.skipIf(unavailable !== undefined)(
    'logs in with an ed25519 CA certificate for the login user',
    async () => {
      const key = generateKeyPair('ed25519', 0);
      const result = await ssh(key, userCert(edCa, key), INSECURE_HOST);
      expect(result.stdout, context(result)).toBe('converge-ok\n');
      expect(result.status).toBe(0);
    },
    LOGIN_TIMEOUT,
  );

  it.skipIf(unavailable !== undefined)(
    'logs in with an RSA CA signing with rsa-sha2-256 (the default) and rsa-sha2-512, for an ECDSA key',
    async () => {
      const key = generateKeyPair('ec', 384);
      for (const algorithmSigner of ['default', 'rsa-sha2-512'] as const) {
        const result = await ssh(key, userCert(rsaCa, key, { algorithmSigner }), INSECURE_HOST);
        expect(result.stdout, context(result)).toBe('converge-ok\n');
      }
    },
    LOGIN_TIMEOUT,
  );

  it.skipIf(unavailable !== undefined)(
    'runs the force-command critical option instead of the requested command',
    async () => {
      const key = generateKeyPair('ed25519', 0);
      const cert = userCert(edCa, key, { criticalOptions: { 'force-command': 'echo forced-by-certificate' } });
      const result = await ssh(key, cert, INSECURE_HOST);
      expect(result.stdout, context(result)).toBe('forced-by-certificate\n');
    },
    LOGIN_TIMEOUT,
  );

  it.skipIf(unavailable !== undefined)(
    'refuses a certificate for another principal',
    async () => {
      const key = generateKeyPair('ed25519', 0);
      const result = await ssh(key, userCert(edCa, key, { principals: [`not-${USER}`] }), INSECURE_HOST);
      expect(result.status, context(result)).toBe(255);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain('Permission denied');
      await sshdLogged('Certificate invalid: name is not a listed principal');
    },
    LOGIN_TIMEOUT,
  );

  it.skipIf(unavailable !== undefined)(
    'refuses an expired certificate',
    async () => {
      const key = generateKeyPair('ed25519', 0);
      const now = Math.floor(Date.now() / 1000);
      const cert = userCert(edCa, key, { validAfter: now - 2 * HOUR, validBefore: now - HOUR });
      const result = await ssh(key, cert, INSECURE_HOST);
      expect(result.status, context(result)).toBe(255);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain('Permission denied');
      await sshdLogged('Certificate invalid: expired');
    },
    LOGIN_TIMEOUT,
  );

  it.skipIf(unavailable !== undefined)(
    'refuses a certificate signed by a CA sshd does not trust',
    async () => {
      const key = generateKeyPair('ed25519', 0);
      const result = await ssh(key, userCert(generateKeyPair('ed25519', 0), key), INSECURE_HOST);
      expect(result.status, context(result)).toBe(255);
      expect(result.stderr).toContain('Permission denied');
    },
    LOGIN_TIMEOUT,
  );

  it.skipIf(unavailable !== undefined)(
    'refuses an RSA CA signature made with ssh-rsa (SHA-1), as OpenSSH does by default, which is why default means rsa-sha2-256',
    async () => {
      const key = generateKeyPair('ed25519', 0);
      const result = await ssh(key, userCert(rsaCa, key, { algorithmSigner: 'ssh-rsa' }), INSECURE_HOST);
      expect(result.status, context(result)).toBe(255);
      expect(result.stderr).toContain('Permission denied');
      await sshdLogged('certificate signature algorithm ssh-rsa: signature algorithm not supported');
    },
    LOGIN_TIMEOUT,
  );

  it.skipIf(unavailable !== undefined)(
    'proves the server with a host certificate the client trusts through @cert-authority',
    async () => {
      const knownHosts = sshd.write(
        'known_hosts',
        `@cert-authority 127.0.0.1,[127.0.0.1]:${sshd.port} ${edCa.publicKey}\n`,
      );
      const strictHost = ['-o', 'StrictHostKeyChecking=yes', '-o', `UserKnownHostsFile=${knownHosts}`];
      const key = generateKeyPair('ed25519', 0);
      const result = await ssh(key, userCert(edCa, key), strictHost);
      expect(result.stdout, context(result)).toBe('converge-ok\n');
    },
    LOGIN_TIMEOUT,
  );
});
