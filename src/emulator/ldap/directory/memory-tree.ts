/**
 * The in-memory directory's tree and the rules a real server enforces on
 * it, where the LDAP secrets engine depends on them: an add needs a missing
 * entry (68) under an existing parent (32), and an objectClass (65), and
 * gets its RDN values added when it lacks them (as slapd does); a delete
 * needs an existing leaf (32, 66); a modify that deletes a value the entry
 * lacks fails (16), one that adds a value it has fails (20), and one that
 * removes an RDN value fails (64, slapd's code for it); a modrdn moves the
 * whole subtree. Each operation is atomic: it is checked in full
 * on a copy before the tree changes. Schema (required attributes, syntax)
 * is not checked.
 */
import type { LdifAddRecord, LdifModifyRecord, LdifModRdnRecord } from '../../../ldif/index.ts';
import { type DnAttributeValue, DnError, parseRdns } from '../../../ldif/index.ts';
import { DirectoryError } from './errors.ts';
import {
  type Attributes,
  cloneAttributes,
  dnOf,
  hasValue,
  isWithin,
  keyOf,
  type StoredEntry,
  valueKey,
} from './memory-entry.ts';

export class MemoryTree {
  private readonly entries = new Map<string, StoredEntry>();
  /** Entries loaded without a parent (naming contexts such as dc=example,dc=org); they may be re-added after a delete. */
  private readonly suffixes = new Set<string>();

  /** Parses a DN, turning syntax errors into result code 34 as a server does. */
  parse(dn: string): DnAttributeValue[][] {
    try {
      return parseRdns(dn);
    } catch (error) {
      if (error instanceof DnError) throw new DirectoryError(34, error.message);
      throw error;
    }
  }

  find(dn: string): StoredEntry | undefined {
    return this.entries.get(keyOf(this.parse(dn)));
  }

  /** The entry or DirectoryError 32. */
  require(dn: string): StoredEntry {
    const entry = this.find(dn);
    if (!entry) throw new DirectoryError(32, `no such entry "${dn}"`);
    return entry;
  }

  /**
   * Entries at or below `base`, in insertion order. By the entries' keys (the normalised DN): an
   * entry is within `base` when its key is the base's, or ends with "," and it where that comma
   * separates RDNs (not one escaped in a value: "\\,"). Formatting every entry's RDNs again for
   * each search made a library set's write, which looks its accounts up, grow with the directory
   * (docs/performance.md, "Request efficiency").
   */
  subtree(base: DnAttributeValue[][]): StoredEntry[] {
    const baseKey = keyOf(base);
    if (baseKey === '') return [...this.entries.values()];
    const found: StoredEntry[] = [];
    for (const [key, entry] of this.entries) if (isKeyWithin(key, baseKey)) found.push(entry);
    return found;
  }

  /** `seeding` lets an entry without a parent in (a naming context of the seed LDIF). */
  add(record: LdifAddRecord, seeding = false): void {
    const rdns = this.parse(record.dn);
    if (rdns.length === 0) throw new DirectoryError(53, 'cannot add the root DSE');
    const key = keyOf(rdns);
    if (this.entries.has(key)) throw new DirectoryError(68, `entry "${record.dn}" already exists`);
    const parent = rdns.slice(1);
    if (!seeding && !this.suffixes.has(key) && !this.entries.has(keyOf(parent))) {
      throw new DirectoryError(32, `parent "${dnOf(parent)}" of "${record.dn}" does not exist`);
    }
    const attributes: Attributes = new Map();
    for (const { name, values } of record.attributes) {
      for (const value of values) {
        if (hasValue(attributes, name, value)) throw new DirectoryError(20, `${name}: value "${value}" provided twice`);
        const stored = attributes.get(name.toLowerCase()) ?? { name, values: [] };
        stored.values.push(value);
        attributes.set(name.toLowerCase(), stored);
      }
    }
    if (!attributes.has('objectclass')) throw new DirectoryError(65, 'no objectClass attribute');
    // Like slapd, an entry gets the values of its RDN when the LDIF leaves them out.
    addRdnValues(attributes, rdns[0]!);
    if (seeding && !this.entries.has(keyOf(parent))) this.suffixes.add(key);
    this.entries.set(key, { rdns, attributes });
  }

  delete(dn: string): void {
    const entry = this.require(dn);
    if (this.subtree(entry.rdns).length > 1) throw new DirectoryError(66, 'subordinate objects must be deleted first');
    this.entries.delete(keyOf(entry.rdns));
  }

  modify(record: LdifModifyRecord): void {
    const entry = this.require(record.dn);
    const attributes = cloneAttributes(entry.attributes);
    for (const change of record.changes) applyChange(attributes, change);
    for (const ava of entry.rdns[0] ?? []) {
      if (!hasValue(attributes, ava.attribute, ava.value)) {
        throw new DirectoryError(64, `naming attribute '${ava.attribute}' is not present in entry`);
      }
    }
    if (!attributes.has('objectclass')) throw new DirectoryError(65, 'no objectClass attribute');
    entry.attributes = attributes;
  }

  modRdn(record: LdifModRdnRecord): void {
    const entry = this.require(record.dn);
    const parsedRdn = this.parse(record.newrdn);
    const newRdn = parsedRdn[0];
    if (!newRdn || parsedRdn.length > 1) throw new DirectoryError(34, `newrdn "${record.newrdn}" is not one RDN`);
    const superior = record.newsuperior === undefined ? entry.rdns.slice(1) : this.parse(record.newsuperior);
    if (record.newsuperior !== undefined && superior.length > 0 && !this.entries.has(keyOf(superior))) {
      throw new DirectoryError(32, 'new superior not found');
    }
    if (isWithin(superior, entry.rdns)) throw new DirectoryError(53, 'cannot move an entry below itself');
    const target = [newRdn, ...superior];
    const targetKey = keyOf(target);
    if (targetKey !== keyOf(entry.rdns) && this.entries.has(targetKey)) {
      throw new DirectoryError(68, `entry "${dnOf(target)}" already exists`);
    }
    const attributes = cloneAttributes(entry.attributes);
    if (record.deleteoldrdn) for (const ava of entry.rdns[0]!) removeValue(attributes, ava.attribute, ava.value);
    addRdnValues(attributes, newRdn);
    this.move(entry, target);
    entry.attributes = attributes;
  }

  /** Re-keys an entry and its subtree under new RDNs, keeping insertion order otherwise. */
  private move(entry: StoredEntry, target: DnAttributeValue[][]): void {
    const depth = entry.rdns.length;
    for (const member of this.subtree(entry.rdns)) {
      this.entries.delete(keyOf(member.rdns));
      member.rdns = [...member.rdns.slice(0, member.rdns.length - depth), ...target];
      this.entries.set(keyOf(member.rdns), member);
    }
  }
}

function applyChange(attributes: Attributes, change: LdifModifyRecord['changes'][number]): void {
  const key = change.attribute.toLowerCase();
  const stored = attributes.get(key);
  switch (change.op) {
    case 'add': {
      if (change.values.length === 0) throw new DirectoryError(2, 'modify/add operation requires values');
      const target = stored ?? { name: change.attribute, values: [] };
      for (const value of change.values) {
        if (target.values.some((candidate) => valueKey(key, candidate) === valueKey(key, value))) {
          throw new DirectoryError(20, `modify/add: ${change.attribute}: value "${value}" already exists`);
        }
        target.values.push(value);
      }
      attributes.set(key, target);
      return;
    }
    case 'delete':
      if (!stored) throw new DirectoryError(16, `modify/delete: ${change.attribute}: no such attribute`);
      if (change.values.length === 0) {
        attributes.delete(key);
        return;
      }
      for (const value of change.values) {
        if (!removeValue(attributes, change.attribute, value)) {
          throw new DirectoryError(16, `modify/delete: ${change.attribute}: no such value`);
        }
      }
      return;
    case 'replace': {
      if (change.values.length === 0) {
        attributes.delete(key);
        return;
      }
      const values: string[] = [];
      for (const value of change.values) {
        if (values.some((candidate) => valueKey(key, candidate) === valueKey(key, value))) {
          throw new DirectoryError(20, `modify/replace: ${change.attribute}: value "${value}" provided twice`);
        }
        values.push(value);
      }
      attributes.set(key, { name: stored?.name ?? change.attribute, values });
      return;
    }
  }
}

function addRdnValues(attributes: Attributes, rdn: DnAttributeValue[]): void {
  for (const ava of rdn) {
    if (hasValue(attributes, ava.attribute, ava.value)) continue;
    const stored = attributes.get(ava.attribute.toLowerCase()) ?? { name: ava.attribute, values: [] };
    stored.values.push(ava.value);
    attributes.set(ava.attribute.toLowerCase(), stored);
  }
}

/** Removes one value (by the attribute's equality); drops the attribute when it empties. False when absent. */
function removeValue(attributes: Attributes, attribute: string, value: string): boolean {
  const key = attribute.toLowerCase();
  const stored = attributes.get(key);
  if (!stored) return false;
  const index = stored.values.findIndex((candidate) => valueKey(key, candidate) === valueKey(key, value));
  if (index < 0) return false;
  stored.values.splice(index, 1);
  if (stored.values.length === 0) attributes.delete(key);
  return true;
}

/** Whether normalised DN `key` names `baseKey` or an entry below it. */
function isKeyWithin(key: string, baseKey: string): boolean {
  if (key === baseKey) return true;
  const comma = key.length - baseKey.length - 1;
  if (comma < 1 || key[comma] !== ',' || !key.endsWith(baseKey)) return false;
  // an escaped comma is preceded by an odd number of backslashes (a backslash is escaped as two)
  let backslashes = 0;
  for (let i = comma - 1; i >= 0 && key[i] === '\\'; i--) backslashes++;
  return backslashes % 2 === 0;
}
