/**
 * parseLdif on change records (RFC 2849 example 6 and the LDIF a dynamic
 * LDAP role is configured with): add, delete, modify with its "-"
 * separators, modrdn and moddn.
 */
import { describe, expect, it } from 'vitest';
import { parseLdif } from '../../../src/ldif/index.ts';

describe('parseLdif: change records (RFC 2849 example 6)', () => {
  const records = parseLdif(
    [
      'version: 1',
      '# Add a new entry',
      'dn: cn=Fiona Jensen, ou=Marketing, dc=airius, dc=com',
      'changetype: add',
      'objectclass: top',
      'objectclass: person',
      'cn: Fiona Jensen',
      'sn: Jensen',
      'telephonenumber: +1 408 555 1212',
      '',
      '# Delete an existing entry',
      'dn: cn=Robert Jensen, ou=Marketing, dc=airius, dc=com',
      'changetype: delete',
      '',
      "# Modify an entry's relative distinguished name",
      'dn: cn=Paul Jensen, ou=Product Development, dc=airius, dc=com',
      'changetype: modrdn',
      'newrdn: cn=Paula Jensen',
      'deleteoldrdn: 1',
      '',
      '# Rename an entry and move all of its children to a new location',
      'dn: ou=PD Accountants, ou=Product Development, dc=airius, dc=com',
      'changetype: modrdn',
      'newrdn: ou=Product Development Accountants',
      'deleteoldrdn: 0',
      'newsuperior: ou=Accounting, dc=airius, dc=com',
      '',
      '# Modify an entry: add an additional value to the postaladdress',
      '# attribute, completely delete the description attribute, replace',
      '# the telephonenumber attribute with two values, and delete a specific',
      '# value from the facsimiletelephonenumber attribute',
      'dn: cn=Paula Jensen, ou=Product Development, dc=airius, dc=com',
      'changetype: modify',
      'add: postaladdress',
      'postaladdress: 123 Anystreet $ Sunnyvale, CA $ 94086',
      '-',
      'delete: description',
      '-',
      'replace: telephonenumber',
      'telephonenumber: +1 408 555 1234',
      'telephonenumber: +1 408 555 5678',
      '-',
      'delete: facsimiletelephonenumber',
      'facsimiletelephonenumber: +1 408 555 9876',
      '-',
      '',
      '# Modify an entry: replace the postaladdress attribute with an empty',
      '# set of values (which will cause the attribute to be removed), and',
      '# delete the entire description attribute.',
      'dn: cn=Ingrid Jensen, ou=Product Support, dc=airius, dc=com',
      'changetype: modify',
      'replace: postaladdress',
      '-',
      'delete: description',
      '-',
    ].join('\n'),
  );

  it('reads every record with the line of its dn', () => {
    expect(records.map((record) => [record.line, record.changetype])).toEqual([
      [3, 'add'],
      [12, 'delete'],
      [16, 'modrdn'],
      [22, 'modrdn'],
      [32, 'modify'],
      [50, 'modify'],
    ]);
  });

  it('reads an add with changetype like a content record', () => {
    expect(records[0]).toMatchObject({
      changetype: 'add',
      attributes: [
        { name: 'objectclass', values: ['top', 'person'] },
        { name: 'cn', values: ['Fiona Jensen'] },
        { name: 'sn', values: ['Jensen'] },
        { name: 'telephonenumber', values: ['+1 408 555 1212'] },
      ],
    });
  });

  it('reads a delete', () => {
    expect(records[1]).toEqual({
      line: 12,
      dn: 'cn=Robert Jensen, ou=Marketing, dc=airius, dc=com',
      changetype: 'delete',
    });
  });

  it('reads modrdn with and without a new superior', () => {
    expect(records[2]).toEqual({
      line: 16,
      dn: 'cn=Paul Jensen, ou=Product Development, dc=airius, dc=com',
      changetype: 'modrdn',
      newrdn: 'cn=Paula Jensen',
      deleteoldrdn: true,
    });
    expect(records[3]).toMatchObject({
      newrdn: 'ou=Product Development Accountants',
      deleteoldrdn: false,
      newsuperior: 'ou=Accounting, dc=airius, dc=com',
    });
  });

  it('reads modify changes in order, with the values of each', () => {
    expect(records[4]).toMatchObject({
      changetype: 'modify',
      changes: [
        { op: 'add', attribute: 'postaladdress', values: ['123 Anystreet $ Sunnyvale, CA $ 94086'] },
        { op: 'delete', attribute: 'description', values: [] },
        { op: 'replace', attribute: 'telephonenumber', values: ['+1 408 555 1234', '+1 408 555 5678'] },
        { op: 'delete', attribute: 'facsimiletelephonenumber', values: ['+1 408 555 9876'] },
      ],
    });
    expect(records[5]).toMatchObject({
      changes: [
        { op: 'replace', attribute: 'postaladdress', values: [] },
        { op: 'delete', attribute: 'description', values: [] },
      ],
    });
  });

  it('accepts moddn, and a modify whose last "-" is missing', () => {
    const [moddn, modify] = parseLdif(
      'dn: cn=a,dc=x\nchangetype: moddn\nnewrdn: cn=b\ndeleteoldrdn: 1\n\n' +
        'dn: cn=b,dc=x\nchangetype: modify\nreplace: description\ndescription: d\n',
    );
    expect(moddn).toMatchObject({ changetype: 'moddn', newrdn: 'cn=b', deleteoldrdn: true });
    expect(modify).toMatchObject({ changes: [{ op: 'replace', attribute: 'description', values: ['d'] }] });
  });
});

describe('parseLdif: the LDIF of a dynamic LDAP role', () => {
  // What the engine gets after rendering the role's templates ({{.Username}}, {{.Password}}).
  const creation = [
    'dn: cn=v-token-dev-1a2b3c,ou=people,dc=example,dc=org',
    'objectClass: person',
    'objectClass: top',
    'cn: v-token-dev-1a2b3c',
    'sn: v-token-dev-1a2b3c',
    'userPassword: Zx9-generated-password',
    '',
    'dn: cn=dev,ou=groups,dc=example,dc=org',
    'changetype: modify',
    'add: member',
    'member: cn=v-token-dev-1a2b3c,ou=people,dc=example,dc=org',
    '-',
  ].join('\n');
  const deletion = 'dn: cn=v-token-dev-1a2b3c,ou=people,dc=example,dc=org\nchangetype: delete\n';
  const rollback = deletion;

  it('creation: adds a person and adds it to a group', () => {
    expect(parseLdif(creation)).toEqual([
      {
        line: 1,
        dn: 'cn=v-token-dev-1a2b3c,ou=people,dc=example,dc=org',
        changetype: 'add',
        attributes: [
          { name: 'objectClass', values: ['person', 'top'] },
          { name: 'cn', values: ['v-token-dev-1a2b3c'] },
          { name: 'sn', values: ['v-token-dev-1a2b3c'] },
          { name: 'userPassword', values: ['Zx9-generated-password'] },
        ],
      },
      {
        line: 8,
        dn: 'cn=dev,ou=groups,dc=example,dc=org',
        changetype: 'modify',
        changes: [{ op: 'add', attribute: 'member', values: ['cn=v-token-dev-1a2b3c,ou=people,dc=example,dc=org'] }],
      },
    ]);
  });

  it('deletion and rollback: delete the person', () => {
    const expected = [{ line: 1, dn: 'cn=v-token-dev-1a2b3c,ou=people,dc=example,dc=org', changetype: 'delete' }];
    expect(parseLdif(deletion)).toEqual(expected);
    expect(parseLdif(rollback)).toEqual(expected);
  });
});
