/**
 * DN helpers (RFC 4514): escapes, spaces, normalisation and the errors
 * the LDIF parser relies on to reject a malformed "dn:" line.
 */
import { describe, expect, it } from 'vitest';
import { DnError, dnKey, escapeDnValue, normalizeDn, parseDn, parseRdns } from '../../../src/ldif/index.ts';

describe('parseDn', () => {
  it('splits a DN into attribute-value pairs', () => {
    expect(parseDn('cn=svc-app1,ou=service,dc=example,dc=org')).toEqual([
      { attribute: 'cn', value: 'svc-app1' },
      { attribute: 'ou', value: 'service' },
      { attribute: 'dc', value: 'example' },
      { attribute: 'dc', value: 'org' },
    ]);
  });

  it('undoes RFC 4514 escapes: special characters, hex pairs (UTF-8), leading and trailing spaces', () => {
    expect(parseDn('cn=Smith\\, James \\2B co\\;,o=\\23hash')).toEqual([
      { attribute: 'cn', value: 'Smith, James + co;' },
      { attribute: 'o', value: '#hash' },
    ]);
    expect(parseDn('cn=Lu\\C4\\8Di\\C4\\87')[0]!.value).toBe('Lučić');
    expect(parseDn('cn=\\ padded\\ ,dc=x')[0]!.value).toBe(' padded ');
    expect(parseDn('cn=a\\=b')[0]!.value).toBe('a=b');
  });

  it('ignores spaces around "=" and ","', () => {
    expect(parseDn(' CN = Jane Doe , DC=example ')).toEqual([
      { attribute: 'CN', value: 'Jane Doe' },
      { attribute: 'DC', value: 'example' },
    ]);
  });

  it('keeps a #hex value as written', () => {
    expect(parseRdns('1.3.6.1.4.1.1466.0=#04024869,dc=x')[0]).toEqual([
      { attribute: '1.3.6.1.4.1.1466.0', value: '#04024869', hex: true },
    ]);
  });

  it('reads multi-valued RDNs with parseRdns and refuses them in parseDn', () => {
    expect(parseRdns('cn=a+uid=b,dc=x')).toEqual([
      [
        { attribute: 'cn', value: 'a' },
        { attribute: 'uid', value: 'b' },
      ],
      [{ attribute: 'dc', value: 'x' }],
    ]);
    expect(() => parseDn('cn=a+uid=b,dc=x')).toThrow(DnError);
  });

  it('returns [] for the empty DN', () => {
    expect(parseDn('')).toEqual([]);
  });

  it.each([
    ['cn=a,', 'ends with a separator'],
    ['cn=a,,dc=x', 'expected "attribute=value"'],
    ['cn', 'expected "attribute=value"'],
    ['c n=a', 'invalid attribute type'],
    ['cn=a\\zz', 'invalid escape'],
    ['cn=a"b', 'must be escaped'],
    ['cn=a<b', 'must be escaped'],
    ['cn=#xyz', 'invalid hex value'],
  ])('refuses %s', (dn, reason) => {
    expect(() => parseDn(dn)).toThrow(reason);
  });
});

describe('normalizeDn and dnKey', () => {
  it('lower-cases attribute names, drops spaces and keeps value case', () => {
    expect(normalizeDn('CN=Jane Doe, OU=People , DC=Example,DC=org')).toBe('cn=Jane Doe,ou=People,dc=Example,dc=org');
  });

  it('re-escapes values minimally', () => {
    expect(normalizeDn('cn=Smith\\2C James,dc=x')).toBe('cn=Smith\\, James,dc=x');
    expect(normalizeDn('cn=\\ a \\ ,dc=x')).toBe('cn=\\ a \\ ,dc=x');
    expect(normalizeDn('cn=a+UID=b,dc=x')).toBe('cn=a+uid=b,dc=x');
  });

  it('makes DNs naming the same entry equal', () => {
    expect(dnKey('CN=Svc-App1, ou=Service,dc=EXAMPLE,dc=org')).toBe(dnKey('cn=svc-app1,ou=service,dc=example,dc=org'));
    expect(dnKey('cn=a\\,cn=b,dc=x')).not.toBe(dnKey('cn=a,cn=b,dc=x'));
  });

  it('round-trips escaping', () => {
    for (const value of ['#lead', ' both ', 'a,b+c;d<e>f"g\\h', 'plain', 'tab\tand=equals']) {
      expect(parseDn(`cn=${escapeDnValue(value)}`)[0]!.value).toBe(value);
    }
  });
});
