/**
 * parseLdif against the examples of RFC 2849 (adapted where they use URL
 * values, which are refused on purpose) and the layout rules around them:
 * folding, comments, CRLF, version line, trailing newline or not.
 */
import { describe, expect, it } from 'vitest';
import { parseLdif } from '../../../src/ldif/index.ts';

describe('parseLdif: content records (RFC 2849 examples 1-3)', () => {
  it('reads a version line and two entries as adds', () => {
    const records = parseLdif(
      [
        'version: 1',
        'dn: cn=Barbara Jensen, ou=Product Development, dc=airius, dc=com',
        'objectclass: top',
        'objectclass: person',
        'objectclass: organizationalPerson',
        'cn: Barbara Jensen',
        'cn: Barbara J Jensen',
        'cn: Babs Jensen',
        'sn: Jensen',
        'uid: bjensen',
        'telephonenumber: +1 408 555 1212',
        'description: A big sailing fan.',
        '',
        'dn: cn=Bjorn Jensen, ou=Accounting, dc=airius, dc=com',
        'objectclass: top',
        'objectclass: person',
        'cn: Bjorn Jensen',
        'sn: Jensen',
        'telephonenumber: +1 408 555 1212',
        '',
      ].join('\n'),
    );
    expect(records).toHaveLength(2);
    expect(records[0]).toEqual({
      line: 2,
      dn: 'cn=Barbara Jensen, ou=Product Development, dc=airius, dc=com',
      changetype: 'add',
      attributes: [
        { name: 'objectclass', values: ['top', 'person', 'organizationalPerson'] },
        { name: 'cn', values: ['Barbara Jensen', 'Barbara J Jensen', 'Babs Jensen'] },
        { name: 'sn', values: ['Jensen'] },
        { name: 'uid', values: ['bjensen'] },
        { name: 'telephonenumber', values: ['+1 408 555 1212'] },
        { name: 'description', values: ['A big sailing fan.'] },
      ],
    });
    expect(records[1]).toMatchObject({ line: 14, dn: 'cn=Bjorn Jensen, ou=Accounting, dc=airius, dc=com' });
  });

  it('unfolds continuation lines (example 2)', () => {
    const [record] = parseLdif(
      [
        'version: 1',
        'dn:cn=Barbara Jensen, ou=Product Development, dc=airius, dc=com',
        'objectclass:top',
        'cn:Barbara Jensen',
        'description:Babs is a big sailing fan, and travels extensively in sea',
        ' rch of perfect sailing conditions.',
        'title:Product Manager, Rod and Reel Division',
      ].join('\n'),
    );
    expect(record).toMatchObject({
      dn: 'cn=Barbara Jensen, ou=Product Development, dc=airius, dc=com',
      attributes: [
        { name: 'objectclass', values: ['top'] },
        { name: 'cn', values: ['Barbara Jensen'] },
        {
          name: 'description',
          values: ['Babs is a big sailing fan, and travels extensively in search of perfect sailing conditions.'],
        },
        { name: 'title', values: ['Product Manager, Rod and Reel Division'] },
      ],
    });
  });

  it('decodes base64 values, folded ones included (example 3)', () => {
    const [record] = parseLdif(
      [
        'version: 1',
        'dn: cn=Gern Jensen, ou=Product Testing, dc=airius, dc=com',
        'objectclass: person',
        'cn: Gern Jensen',
        'description:: V2hhdCBhIGNhcmVmdWwgcmVhZGVyIHlvdSBhcmUhICBUaGlzIHZhbHVl',
        ' IGlzIGJhc2UtNjQtZW5jb2RlZCBiZWNhdXNlIGl0IGhhcyBhIGNvbnRyb2wgY2hhcmFjdG',
        ' VyIGluIGl0IChhIENSKS4NICBCeSB0aGUgd2F5LCB5b3Ugc2hvdWxkIHJlYWxseSBnZXQg',
        ' b3V0IG1vcmUu',
      ].join('\n'),
    );
    expect(record).toMatchObject({
      attributes: [
        { name: 'objectclass', values: ['person'] },
        { name: 'cn', values: ['Gern Jensen'] },
        {
          name: 'description',
          values: [
            'What a careful reader you are!  This value is base-64-encoded because it has a control character in it (a CR).\r  By the way, you should really get out more.',
          ],
        },
      ],
    });
  });

  it('decodes UTF-8 in base64 DNs and values (example 5)', () => {
    const dn = 'ou=営業部,o=Airius';
    const [record] = parseLdif(
      `dn:: ${Buffer.from(dn).toString('base64')}\nobjectclass: organizationalUnit\nou:: ${Buffer.from('営業部').toString('base64')}\n`,
    );
    expect(record).toMatchObject({ dn, attributes: [{ name: 'objectclass' }, { name: 'ou', values: ['営業部'] }] });
  });

  it('keeps attribute options and gathers lines of one attribute written apart', () => {
    const [record] = parseLdif('dn: cn=a,dc=x\ncn: a\ncn;lang-ja: エー\nobjectClass: person\nCN: b\n');
    expect(record).toMatchObject({
      attributes: [
        { name: 'cn', values: ['a', 'b'] },
        { name: 'cn;lang-ja', values: ['エー'] },
        { name: 'objectClass', values: ['person'] },
      ],
    });
  });
});

describe('parseLdif: layout', () => {
  const ldif =
    '# a leading comment\n# folded\n  comment\ndn: cn=a,dc=x\n# inside a record\ncn: a\n\n\n\ndn: cn=b,dc=x\ncn: b';

  it('skips comments (folded ones too), runs of blank lines, and needs no trailing newline', () => {
    expect(parseLdif(ldif).map((record) => [record.line, record.dn])).toEqual([
      [4, 'cn=a,dc=x'],
      [10, 'cn=b,dc=x'],
    ]);
  });

  it('reads CRLF text the same as LF text', () => {
    expect(parseLdif(ldif.replaceAll('\n', '\r\n'))).toEqual(parseLdif(ldif));
  });

  it('keeps spaces inside a folded value (only the first space of a continuation goes)', () => {
    const [record] = parseLdif('dn: cn=a,dc=x\ndescription: one\n  two\n');
    expect(record).toMatchObject({ attributes: [{ name: 'description', values: ['one two'] }] });
  });

  it('returns nothing for empty text or comments alone', () => {
    expect(parseLdif('')).toEqual([]);
    expect(parseLdif('# nothing\n\nversion: 1\n')).toEqual([]);
  });
});
