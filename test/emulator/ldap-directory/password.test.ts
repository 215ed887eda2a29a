/**
 * userPassword schemes: what hashSsha writes must be what slapd's own
 * slappasswd would accept, and verifyPassword must accept what slappasswd
 * writes, so passwords move freely between the two backends.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hashSsha, verifyPassword } from '../../../src/emulator/ldap/directory/index.ts';

const hasSlappasswd = spawnSync('slappasswd', ['-s', 'probe'], { encoding: 'utf8' }).status === 0;
if (!hasSlappasswd)
  console.warn('skipping the slappasswd cross-check: slappasswd is not installed (apt-get install -y slapd)');

describe('hashSsha and verifyPassword', () => {
  it('writes a salted SHA-1 value that verifies only with the right password', () => {
    const stored = hashSsha('s3cret', Buffer.from('saltsalt'));
    const digest = createHash('sha1').update('s3cret').update('saltsalt').digest();
    expect(stored).toBe(`{SSHA}${Buffer.concat([digest, Buffer.from('saltsalt')]).toString('base64')}`);
    expect(verifyPassword(stored, 's3cret')).toBe(true);
    expect(verifyPassword(stored, 's3cret ')).toBe(false);
  });

  it('salts every hash differently', () => {
    expect(hashSsha('same')).not.toBe(hashSsha('same'));
  });

  it('compares plain values as they are, and reads {SHA}, {SSHA512} and {CLEARTEXT}', () => {
    expect(verifyPassword('plain', 'plain')).toBe(true);
    expect(verifyPassword('plain', 'Plain')).toBe(false);
    expect(verifyPassword(`{SHA}${createHash('sha1').update('pw').digest('base64')}`, 'pw')).toBe(true);
    const salt = Buffer.from('0123456789abcdef');
    const ssha512 = Buffer.concat([createHash('sha512').update('pw').update(salt).digest(), salt]).toString('base64');
    expect(verifyPassword(`{ssha512}${ssha512}`, 'pw')).toBe(true);
    expect(verifyPassword('{CLEARTEXT}pw', 'pw')).toBe(true);
  });

  it('never matches an unknown scheme or a truncated hash', () => {
    expect(verifyPassword('{CRYPT}abcdefgh', 'abcdefgh')).toBe(false);
    expect(verifyPassword('{SSHA}AAAA', '')).toBe(false);
  });

  it.skipIf(!hasSlappasswd)('accepts the {SSHA} values slappasswd writes', () => {
    const made = spawnSync('slappasswd', ['-h', '{SSHA}', '-s', 'from-slappasswd'], { encoding: 'utf8' });
    const stored = made.stdout.trim();
    expect(stored).toMatch(/^\{SSHA\}/);
    expect(verifyPassword(stored, 'from-slappasswd')).toBe(true);
    expect(verifyPassword(stored, 'from-slappasswd!')).toBe(false);
  });
});
