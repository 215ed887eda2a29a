/**
 * The behaviour the LDAP secrets engine depends on, written once and run
 * against each Directory backend (memory.test.ts, slapd.test.ts): if the
 * in-memory directory drifts from what a real slapd does, the slapd run of
 * the same test shows which side is wrong. Every test gets a fresh
 * directory seeded with DEFAULT_DIRECTORY_LDIF.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Directory, DirectoryError, entryValues } from '../../../src/emulator/ldap/directory/index.ts';
import { type LdifRecord, parseLdif } from '../../../src/ldif/index.ts';

export interface DirectoryFixture {
  directory: Directory;
  dispose(): Promise<void>;
}

const BASE = 'dc=example,dc=org';
const SERVICE = `ou=service,${BASE}`;
const PEOPLE = `ou=people,${BASE}`;
const GROUP = `cn=dev,ou=groups,${BASE}`;
const APP1 = `cn=svc-app1,${SERVICE}`;
const BATCH1 = `cn=svc-batch1,${SERVICE}`;
const BATCH3 = `cn=svc-batch3,${SERVICE}`;

/** The code of the DirectoryError `action` rejects with. */
async function codeOf(action: Promise<unknown>): Promise<number> {
  try {
    await action;
  } catch (error) {
    if (error instanceof DirectoryError) return error.code;
    throw error;
  }
  throw new Error('expected a DirectoryError, but the operation succeeded');
}

function one(ldif: string): LdifRecord {
  const [record] = parseLdif(ldif);
  return record!;
}

function person(cn: string, password = `${cn}-password`, parent = PEOPLE): string {
  return `dn: cn=${cn},${parent}\nobjectClass: inetOrgPerson\ncn: ${cn}\nsn: ${cn}\nuserPassword: ${password}\n`;
}

export function directoryBehaviour(open: () => Promise<DirectoryFixture>): void {
  let fixture: DirectoryFixture;
  let directory: Directory;
  beforeEach(async () => {
    fixture = await open();
    directory = fixture.directory;
  });
  afterEach(async () => {
    await fixture.dispose();
  });

  describe('bind', () => {
    it('accepts the right password, plain or {SSHA}', async () => {
      expect(await directory.bind(APP1, 'svc-app1-password')).toBe(true);
      expect(await directory.bind(BATCH1, 'svc-batch1-password')).toBe(true);
      expect(await directory.bind(`cn=admin,${BASE}`, 'admin-password')).toBe(true);
    });

    it('refuses a wrong password, an unknown DN, an entry without userPassword and an empty password', async () => {
      expect(await directory.bind(APP1, 'svc-app1-passwordX')).toBe(false);
      expect(await directory.bind(BATCH1, 'svc-app1-password')).toBe(false);
      expect(await directory.bind(`cn=nobody,${SERVICE}`, 'svc-app1-password')).toBe(false);
      expect(await directory.bind(SERVICE, 'anything')).toBe(false);
      expect(await directory.bind(APP1, '')).toBe(false);
    });

    it('compares DNs case-insensitively and ignores spaces after commas', async () => {
      expect(await directory.bind('CN=SVC-APP1, OU=Service, DC=Example, DC=org', 'svc-app1-password')).toBe(true);
    });
  });

  describe('findBy and get', () => {
    it('finds entries under a base by cn and by uid, whatever the value case', async () => {
      const byCn = await directory.findBy(SERVICE, 'cn', 'SVC-App1');
      expect(byCn.map((entry) => entry.dn)).toEqual([APP1]);
      const byUid = await directory.findBy(BASE, 'uid', 'svc-batch2');
      expect(byUid.map((entry) => entry.dn)).toEqual([`cn=svc-batch2,${SERVICE}`]);
      expect(entryValues(byUid[0]!, 'SN')).toEqual(['svc-batch2']);
    });

    it('finds nothing outside the base or for an unknown value', async () => {
      expect(await directory.findBy(PEOPLE, 'cn', 'svc-app1')).toEqual([]);
      expect(await directory.findBy(SERVICE, 'uid', 'nobody')).toEqual([]);
    });

    it('tells a comma escaped in a value from one between RDNs', async () => {
      // a sibling of ou=service whose DN ends in ",ou=service,dc=example,dc=org" as text
      const dn = `cn=x\\,ou=service,${BASE}`;
      await directory.apply(one(`dn: ${dn}\nobjectClass: inetOrgPerson\ncn: x,ou=service\nsn: x\n`));
      expect(await directory.findBy(SERVICE, 'sn', 'x')).toEqual([]);
      // slapd writes the DN back with hex escapes (\\2c): compare the value, not the DN's text
      const found = await directory.findBy(BASE, 'sn', 'x');
      expect(found.map((entry) => entryValues(entry, 'cn'))).toEqual([['x,ou=service']]);
    });

    it('includes the base itself in the subtree', async () => {
      const found = await directory.findBy(APP1, 'uid', 'svc-app1');
      expect(found.map((entry) => entry.dn)).toEqual([APP1]);
    });

    it('fails with 32 under a base that does not exist', async () => {
      expect(await codeOf(directory.findBy(`ou=nope,${BASE}`, 'cn', 'x'))).toBe(32);
    });

    it('gets an entry with its attributes, and undefined for a missing one', async () => {
      const group = await directory.get(GROUP);
      expect(group?.dn).toBe(GROUP);
      expect(entryValues(group!, 'member')).toEqual([APP1, BATCH1]);
      expect(entryValues(group!, 'objectclass')).toEqual(['groupOfNames']);
      expect(await directory.get(`cn=nobody,${BASE}`)).toBeUndefined();
    });
  });

  describe('setPassword', () => {
    it('rotates a password: the new one binds, the old one no longer does', async () => {
      await directory.setPassword(APP1, 'rotated-Password-1');
      expect(await directory.bind(APP1, 'rotated-Password-1')).toBe(true);
      expect(await directory.bind(APP1, 'svc-app1-password')).toBe(false);
      const entry = await directory.get(APP1);
      const stored = entryValues(entry!, 'userPassword');
      expect(stored).toHaveLength(1);
      expect(stored[0]).toMatch(/^\{SSHA\}/);
    });

    it('fails with 32 for an entry that does not exist', async () => {
      expect(await codeOf(directory.setPassword(`cn=nobody,${SERVICE}`, 'x'))).toBe(32);
    });
  });

  describe('apply: add and delete', () => {
    it('adds an entry, then refuses to add it again (68)', async () => {
      await directory.apply(one(person('alice')));
      const alice = await directory.get(`cn=alice,${PEOPLE}`);
      expect(entryValues(alice!, 'sn')).toEqual(['alice']);
      expect(await directory.bind(`cn=alice,${PEOPLE}`, 'alice-password')).toBe(true);
      expect(await codeOf(directory.apply(one(person('alice'))))).toBe(68);
    });

    it('refuses an entry whose parent does not exist (32)', async () => {
      expect(await codeOf(directory.apply(one(person('bob', 'x', `ou=nope,${BASE}`))))).toBe(32);
    });

    it('refuses an entry without objectClass (65)', async () => {
      expect(await codeOf(directory.apply(one(`dn: cn=carol,${PEOPLE}\ncn: carol\nsn: carol\n`)))).toBe(65);
    });

    it('deletes a leaf, and refuses a missing entry (32) or one with children (66)', async () => {
      await directory.apply(one(`dn: ${BATCH3}\nchangetype: delete\n`));
      expect(await directory.get(BATCH3)).toBeUndefined();
      expect(await codeOf(directory.apply(one(`dn: ${BATCH3}\nchangetype: delete\n`)))).toBe(32);
      expect(await codeOf(directory.apply(one(`dn: ${SERVICE}\nchangetype: delete\n`)))).toBe(66);
    });
  });

  describe('apply: modify', () => {
    const modify = (body: string): LdifRecord => one(`dn: ${GROUP}\nchangetype: modify\n${body}`);

    it('adds, deletes and replaces values in one record', async () => {
      await directory.apply(
        modify(
          `add: member\nmember: ${BATCH3}\n-\ndelete: member\nmember: ${BATCH1}\n-\n` +
            'replace: description\ndescription: developers\ndescription: on call\n-\n',
        ),
      );
      const group = await directory.get(GROUP);
      expect(entryValues(group!, 'member')).toEqual([APP1, BATCH3]);
      expect(entryValues(group!, 'description')).toEqual(['developers', 'on call']);
      await directory.apply(modify('replace: description\n-\n'));
      expect(entryValues((await directory.get(GROUP))!, 'description')).toEqual([]);
    });

    it('fails with 16 deleting a value or an attribute the entry does not have', async () => {
      expect(await codeOf(directory.apply(modify(`delete: member\nmember: cn=nobody,${BASE}\n-\n`)))).toBe(16);
      expect(await codeOf(directory.apply(modify('delete: description\n-\n')))).toBe(16);
    });

    it('fails with 20 adding a value the entry already has', async () => {
      expect(await codeOf(directory.apply(modify(`add: member\nmember: ${APP1}\n-\n`)))).toBe(20);
    });

    it('fails with 32 for a missing entry and 64 when removing the RDN value', async () => {
      const missing = one(`dn: cn=nobody,${BASE}\nchangetype: modify\nreplace: description\ndescription: x\n-\n`);
      expect(await codeOf(directory.apply(missing))).toBe(32);
      expect(await codeOf(directory.apply(modify('delete: cn\n-\n')))).toBe(64);
    });

    it('changes nothing when one change of a record fails', async () => {
      const record = modify(`add: member\nmember: ${BATCH3}\n-\ndelete: description\n-\n`);
      expect(await codeOf(directory.apply(record))).toBe(16);
      expect(entryValues((await directory.get(GROUP))!, 'member')).toEqual([APP1, BATCH1]);
    });
  });

  describe('apply: modrdn', () => {
    const rename = (dn: string, rest: string): LdifRecord => one(`dn: ${dn}\nchangetype: modrdn\n${rest}`);

    it('renames an entry, dropping the old RDN value with deleteoldrdn: 1', async () => {
      await directory.apply(rename(BATCH3, 'newrdn: cn=svc-batch4\ndeleteoldrdn: 1\n'));
      expect(await directory.get(BATCH3)).toBeUndefined();
      const renamed = await directory.get(`cn=svc-batch4,${SERVICE}`);
      expect(entryValues(renamed!, 'cn')).toEqual(['svc-batch4']);
      expect(await directory.bind(`cn=svc-batch4,${SERVICE}`, 'svc-batch3-password')).toBe(true);
    });

    it('keeps the old RDN value with deleteoldrdn: 0', async () => {
      await directory.apply(rename(BATCH3, 'newrdn: cn=svc-batch4\ndeleteoldrdn: 0\n'));
      const renamed = await directory.get(`cn=svc-batch4,${SERVICE}`);
      expect(new Set(entryValues(renamed!, 'cn'))).toEqual(new Set(['svc-batch3', 'svc-batch4']));
    });

    it('moves an entry under a new superior', async () => {
      await directory.apply(rename(BATCH3, `newrdn: cn=svc-batch3\ndeleteoldrdn: 1\nnewsuperior: ${PEOPLE}\n`));
      expect((await directory.findBy(BASE, 'cn', 'svc-batch3')).map((entry) => entry.dn)).toEqual([
        `cn=svc-batch3,${PEOPLE}`,
      ]);
    });

    it('renames a subtree: children follow their parent', async () => {
      await directory.apply(rename(SERVICE, 'newrdn: ou=services\ndeleteoldrdn: 1\n'));
      expect(await directory.get(APP1)).toBeUndefined();
      expect(await directory.bind(`cn=svc-app1,ou=services,${BASE}`, 'svc-app1-password')).toBe(true);
    });

    it('fails with 68 onto an existing entry and 32 for a missing entry or superior', async () => {
      expect(await codeOf(directory.apply(rename(BATCH3, 'newrdn: cn=svc-app1\ndeleteoldrdn: 1\n')))).toBe(68);
      expect(await codeOf(directory.apply(rename(`cn=nobody,${SERVICE}`, 'newrdn: cn=x\ndeleteoldrdn: 1\n')))).toBe(32);
      const lost = rename(BATCH3, `newrdn: cn=svc-batch3\ndeleteoldrdn: 1\nnewsuperior: ou=nope,${BASE}\n`);
      expect(await codeOf(directory.apply(lost))).toBe(32);
    });
  });

  describe('a dynamic role', () => {
    const username = 'v-token-dev-1a2b3c';
    const password = 'Zx9-generated-password';
    const dn = `cn=${username},${PEOPLE}`;
    const creation = `${person(username, password)}\ndn: ${GROUP}\nchangetype: modify\nadd: member\nmember: ${dn}\n-\n`;
    const deletion = `dn: ${dn}\nchangetype: delete\n`;

    it('creates a user who can bind and is a group member, then deletes it', async () => {
      for (const record of parseLdif(creation)) await directory.apply(record);
      expect(await directory.bind(dn, password)).toBe(true);
      expect(entryValues((await directory.get(GROUP))!, 'member')).toContain(dn);
      for (const record of parseLdif(deletion)) await directory.apply(record);
      expect(await directory.get(dn)).toBeUndefined();
      expect(await directory.bind(dn, password)).toBe(false);
    });

    it('rolls back a creation that failed half-way', async () => {
      const broken = creation.replace(GROUP, `cn=missing,ou=groups,${BASE}`);
      const [add, modify] = parseLdif(broken);
      await directory.apply(add!);
      expect(await codeOf(directory.apply(modify!))).toBe(32);
      for (const record of parseLdif(deletion)) await directory.apply(record);
      expect(await directory.findBy(BASE, 'cn', username)).toEqual([]);
    });
  });
}
