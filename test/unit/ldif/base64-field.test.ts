/**
 * isBase64Ldif / decodeLdifField: a role's LDIF field may hold the LDIF as
 * is or base64-encoded as a whole, and the two must never be confused.
 */
import { describe, expect, it } from 'vitest';
import { decodeLdifField, isBase64Ldif, parseLdif } from '../../../src/ldif/index.ts';

const ldif = '# creation\nversion: 1\ndn: cn={{.Username}},ou=people,dc=example,dc=org\nobjectClass: person\n';
const encoded = Buffer.from(ldif).toString('base64');

describe('isBase64Ldif', () => {
  it('recognises base64 of LDIF, even wrapped over lines like `base64` prints it', () => {
    expect(isBase64Ldif(encoded)).toBe(true);
    expect(isBase64Ldif(`${encoded.replace(/(.{20})/g, '$1\n')}\n`)).toBe(true);
  });

  it('recognises base64 of LDIF starting with a base64 DN', () => {
    expect(isBase64Ldif(Buffer.from('dn:: Y249YQ==\ncn: a\n').toString('base64'))).toBe(true);
  });

  it('does not take plain LDIF for base64', () => {
    expect(isBase64Ldif(ldif)).toBe(false);
    expect(isBase64Ldif('dn: cn=a,dc=x\nchangetype: delete')).toBe(false);
  });

  it('does not take base64 of something else for LDIF', () => {
    expect(isBase64Ldif(Buffer.from('hello world').toString('base64'))).toBe(false);
    expect(isBase64Ldif(Buffer.from('cn: a\ndn: cn=a').toString('base64'))).toBe(false);
    expect(isBase64Ldif(Buffer.from([0xff, 0xfe, 0x00]).toString('base64'))).toBe(false);
    expect(isBase64Ldif('')).toBe(false);
    expect(isBase64Ldif('abc')).toBe(false);
  });
});

describe('decodeLdifField', () => {
  it('decodes a base64 field and leaves a plain one alone', () => {
    expect(decodeLdifField(encoded)).toBe(ldif);
    expect(decodeLdifField(ldif)).toBe(ldif);
  });

  it('gives text parseLdif reads the same either way', () => {
    expect(parseLdif(decodeLdifField(encoded))).toEqual(parseLdif(decodeLdifField(ldif)));
  });
});
