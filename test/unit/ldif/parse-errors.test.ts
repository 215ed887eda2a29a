/**
 * What parseLdif refuses, and where it says the problem is: the line and
 * column must point at the physical line an operator sees in their editor,
 * folded lines included.
 */
import { describe, expect, it } from 'vitest';
import { LdifError, parseLdif } from '../../../src/ldif/index.ts';

function failure(text: string): LdifError {
  try {
    parseLdif(text);
  } catch (error) {
    if (error instanceof LdifError) return error;
    throw error;
  }
  throw new Error('parseLdif accepted the text');
}

describe('parseLdif errors', () => {
  const cases: Array<{ name: string; text: string; message: string; col: number }> = [
    {
      name: 'a record not starting with dn:',
      text: 'dn: cn=a,dc=x\ncn: a\n\ncn: b\n',
      message: 'line 4: expected "dn:", found "cn"',
      col: 1,
    },
    {
      name: 'a record not starting with dn: after a version line and comments',
      text: 'version: 1\n# c\nobjectClass: top\n',
      message: 'line 3: expected "dn:", found "objectClass"',
      col: 1,
    },
    {
      name: 'a line without a colon',
      text: 'dn: cn=a,dc=x\ncn a\n',
      message: 'line 2: expected "attribute: value", found no ":"',
      col: 1,
    },
    {
      name: 'a missing changetype value',
      text: 'dn: cn=a,dc=x\nchangetype:\n',
      message: 'line 2: missing changetype value (expected one of add, delete, modify, modrdn, moddn)',
      col: 12,
    },
    {
      name: 'an unknown changetype',
      text: '\n\ndn: cn=a,dc=x\nchangetype: rename\n',
      message: 'line 4: unknown changetype "rename" (expected one of add, delete, modify, modrdn, moddn)',
      col: 13,
    },
    {
      name: 'bad base64',
      text: 'dn: cn=a,dc=x\ncn:: not*base64\n',
      message: 'line 2: base64 value of "cn" is not valid base64',
      col: 6,
    },
    {
      name: 'base64 of bytes that are not UTF-8',
      text: `dn: cn=a,dc=x\njpegPhoto:: ${Buffer.from([0xff, 0xd8, 0xff]).toString('base64')}\n`,
      message: 'line 2: base64 value of "jpegPhoto" is not UTF-8 text (binary values are not supported)',
      col: 13,
    },
    {
      name: 'bad base64 on a continuation line',
      text: 'dn: cn=a,dc=x\ndescription:: QUJD\n REVG\n !!\n',
      message: 'line 2: base64 value of "description" is not valid base64',
      col: 15,
    },
    {
      name: 'a URL value',
      text: 'dn: cn=a,dc=x\njpegPhoto:< file:///etc/passwd\n',
      message: 'line 2: URL values ("jpegPhoto:< url") are not supported',
      col: 11,
    },
    {
      name: 'a continuation line with nothing to continue',
      text: 'dn: cn=a,dc=x\ncn: a\n\n more\n',
      message: 'line 4: continuation line (starting with a space) has no line to continue',
      col: 1,
    },
    {
      name: 'an invalid DN',
      text: 'dn: cn=a,,dc=x\ncn: a\n',
      message: 'line 1: invalid DN "cn=a,,dc=x": expected "attribute=value" at offset 5',
      col: 10,
    },
    {
      name: 'an empty DN',
      text: 'dn:\ncn: a\n',
      message: 'line 1: "dn:" has no value',
      col: 4,
    },
    {
      name: 'an entry without attributes',
      text: 'dn: cn=a,dc=x\n',
      message: 'line 1: entry "cn=a,dc=x" has no attributes',
      col: 1,
    },
    {
      name: 'a modify line that is not add/delete/replace',
      text: 'dn: cn=a,dc=x\nchangetype: modify\nincrement: uidNumber\n',
      message: 'line 3: expected "add:", "delete:" or "replace:", found "increment:"',
      col: 1,
    },
    {
      name: 'a value of another attribute inside a modify change',
      text: 'dn: cn=a,dc=x\nchangetype: modify\nadd: member\nmember: cn=b\ncn: c\n-\n',
      message: 'line 5: expected a value of "member" or "-", found "cn:"',
      col: 1,
    },
    {
      name: 'a modify without changes',
      text: 'dn: cn=a,dc=x\nchangetype: modify\n',
      message: 'line 1: modify record for "cn=a,dc=x" has no changes',
      col: 1,
    },
    {
      name: 'lines after changetype: delete',
      text: 'dn: cn=a,dc=x\nchangetype: delete\ncn: a\n',
      message: 'line 3: a delete record has no lines after "changetype: delete"',
      col: 1,
    },
    {
      name: 'a modrdn without deleteoldrdn',
      text: 'dn: cn=a,dc=x\nchangetype: modrdn\nnewrdn: cn=b\n',
      message: 'line 1: modrdn record for "cn=a,dc=x" has no "deleteoldrdn:"',
      col: 1,
    },
    {
      name: 'a modrdn with a bad deleteoldrdn',
      text: 'dn: cn=a,dc=x\nchangetype: modrdn\nnewrdn: cn=b\ndeleteoldrdn: yes\n',
      message: 'line 4: deleteoldrdn must be 0 or 1, not "yes"',
      col: 15,
    },
    {
      name: 'a newrdn of two RDNs',
      text: 'dn: cn=a,dc=x\nchangetype: modrdn\nnewrdn: cn=b,dc=y\ndeleteoldrdn: 1\n',
      message: 'line 3: newrdn "cn=b,dc=y" is not a single RDN',
      col: 9,
    },
    {
      name: 'a control',
      text: 'dn: cn=a,dc=x\ncontrol: 1.2.840.113556.1.4.805 true\nchangetype: delete\n',
      message: 'line 2: LDIF controls ("control:") are not supported',
      col: 1,
    },
    {
      name: 'an unsupported version',
      text: 'version: 2\ndn: cn=a,dc=x\ncn: a\n',
      message: 'line 1: unsupported LDIF version "2" (only 1 exists)',
      col: 10,
    },
    {
      name: 'a "-" in an add',
      text: 'dn: cn=a,dc=x\ncn: a\n-\n',
      message: 'line 3: "-" only separates the changes of a modify record',
      col: 1,
    },
    {
      name: 'an invalid attribute name',
      text: 'dn: cn=a,dc=x\nmy attr: a\n',
      message: 'line 2: invalid attribute name "my attr"',
      col: 1,
    },
  ];

  for (const { name, text, message, col } of cases) {
    it(`reports ${name}`, () => {
      const error = failure(text);
      expect(error.message).toBe(message);
      expect(error.line).toBe(Number(/^line (\d+)/.exec(message)![1]));
      expect(error.col).toBe(col);
    });
  }

  it('reports the physical line with CRLF line ends too', () => {
    const error = failure('dn: cn=a,dc=x\r\ncn: a\r\n\r\nsn: b\r\n');
    expect([error.line, error.col]).toEqual([4, 1]);
  });
});
