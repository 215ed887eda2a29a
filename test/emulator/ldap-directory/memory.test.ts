/**
 * The in-memory directory: the shared behaviour suite, plus what only it
 * has (seeding from LDIF, being closed).
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_DIRECTORY_LDIF, DirectoryError, memoryDirectory } from '../../../src/emulator/ldap/directory/index.ts';
import { LdifError } from '../../../src/ldif/index.ts';
import { directoryBehaviour } from './behaviour.ts';

describe('memoryDirectory behaviour', () => {
  directoryBehaviour(async () => {
    const directory = memoryDirectory(DEFAULT_DIRECTORY_LDIF);
    return { directory, dispose: () => directory.close() };
  });
});

describe('memoryDirectory seeding', () => {
  it('starts empty without a seed, and then has no naming context to add under', async () => {
    const directory = memoryDirectory();
    expect(await directory.get('dc=example,dc=org')).toBeUndefined();
    await expect(
      directory.apply({
        line: 1,
        dn: 'cn=a,dc=x',
        changetype: 'add',
        attributes: [{ name: 'objectClass', values: ['top'] }],
      }),
    ).rejects.toMatchObject({ code: 32 });
  });

  it('lets a naming context of the seed be added back after it was deleted', async () => {
    const directory = memoryDirectory('dn: dc=x\nobjectClass: domain\ndc: x\n');
    await directory.apply({ line: 1, dn: 'dc=x', changetype: 'delete' });
    await directory.apply({
      line: 1,
      dn: 'dc=x',
      changetype: 'add',
      attributes: [{ name: 'objectClass', values: ['domain'] }],
    });
    expect((await directory.get('DC=X'))?.attributes).toEqual({ objectClass: ['domain'], dc: ['x'] });
  });

  it('refuses a seed with change records or bad LDIF', () => {
    expect(() => memoryDirectory('dn: dc=x\nchangetype: delete\n')).toThrow(DirectoryError);
    expect(() => memoryDirectory('cn: x\n')).toThrow(LdifError);
  });

  it('refuses to work once closed', async () => {
    const directory = memoryDirectory(DEFAULT_DIRECTORY_LDIF);
    await directory.close();
    await expect(directory.get('dc=example,dc=org')).rejects.toThrow(DirectoryError);
  });

  it('formats errors like the real engine', async () => {
    const directory = memoryDirectory(DEFAULT_DIRECTORY_LDIF);
    await expect(
      directory.apply({ line: 1, dn: 'ou=service,dc=example,dc=org', changetype: 'delete' }),
    ).rejects.toThrow('LDAP Result Code 66 "Not Allowed On Non Leaf": subordinate objects must be deleted first');
  });
});
