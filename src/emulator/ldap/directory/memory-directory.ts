/**
 * memoryDirectory: the Directory the emulator uses when no real LDAP server
 * is configured (the demo, fast tests). It is seeded from LDIF content
 * records and enforces the rules of memory-tree.ts, so that a role's LDIF
 * that works here also works against slapd; the shared suite in
 * test/emulator/ldap-directory/ runs against both to keep it that way.
 */
import { parseLdif } from '../../../ldif/index.ts';
import { DirectoryError } from './errors.ts';
import { hasValue, toDirectoryEntry } from './memory-entry.ts';
import { MemoryTree } from './memory-tree.ts';
import { hashSsha, verifyPassword } from './password.ts';
import type { Directory, DirectoryEntry } from './types.ts';

/**
 * An in-memory directory holding the entries of `seed` (LDIF; entries
 * without a parent in it become naming contexts). Change records in the seed
 * other than adds are refused: a seed describes a tree, not a history.
 */
export function memoryDirectory(seed?: string): Directory {
  const tree = new MemoryTree();
  for (const record of seed ? parseLdif(seed) : []) {
    if (record.changetype !== 'add') {
      throw new DirectoryError(53, `seed LDIF line ${record.line}: only entries can seed a directory`);
    }
    tree.add(record, true);
  }
  let closed = false;
  const open = (): void => {
    if (closed) throw new DirectoryError(200, 'the directory is closed');
  };

  return {
    async bind(dn, password) {
      open();
      // An empty password is an unauthenticated bind in LDAP: never a proof of identity.
      if (password === '') return false;
      let entry: ReturnType<MemoryTree['find']>;
      try {
        entry = tree.find(dn);
      } catch {
        return false;
      }
      const stored = entry?.attributes.get('userpassword')?.values ?? [];
      return stored.some((value) => verifyPassword(value, password));
    },

    async findBy(base, attribute, value) {
      open();
      const baseRdns = tree.parse(base);
      if (baseRdns.length > 0 && !tree.find(base)) throw new DirectoryError(32, `search base "${base}" does not exist`);
      const found: DirectoryEntry[] = [];
      for (const entry of tree.subtree(baseRdns)) {
        if (hasValue(entry.attributes, attribute, value)) found.push(toDirectoryEntry(entry));
      }
      return found;
    },

    async get(dn) {
      open();
      const entry = tree.find(dn);
      return entry ? toDirectoryEntry(entry) : undefined;
    },

    async setPassword(dn, password) {
      open();
      const entry = tree.require(dn);
      const name = entry.attributes.get('userpassword')?.name ?? 'userPassword';
      entry.attributes.set('userpassword', { name, values: [hashSsha(password)] });
    },

    async apply(record) {
      open();
      switch (record.changetype) {
        case 'add':
          tree.add(record);
          return;
        case 'delete':
          tree.delete(record.dn);
          return;
        case 'modify':
          tree.modify(record);
          return;
        case 'modrdn':
        case 'moddn':
          tree.modRdn(record);
          return;
      }
    },

    async close() {
      closed = true;
    },
  };
}
