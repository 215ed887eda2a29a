/**
 * The interface between the emulator's LDAP secrets engine and a directory.
 * The engine needs only a handful of operations (verify a password, find a
 * service account, rotate its password, run a role's LDIF), so a small
 * in-memory directory can stand in for a real server in the demo and fast
 * tests, while the same engine code can drive a real slapd through ldapts.
 */
import type { LdifRecord } from '../../../ldif/index.ts';

export interface DirectoryEntry {
  dn: string;
  /** Attribute names as the directory writes them; look them up with entryValues (case-insensitive). */
  attributes: Record<string, string[]>;
}

export interface Directory {
  /** Simple bind: true when the DN exists and the password matches (userPassword, plain or {SSHA}). */
  bind(dn: string, password: string): Promise<boolean>;
  /** Entries under `base` (subtree, base included) whose `attribute` equals `value` (case-insensitively, like cn/uid). */
  findBy(base: string, attribute: string, value: string): Promise<DirectoryEntry[]>;
  get(dn: string): Promise<DirectoryEntry | undefined>;
  /** Sets userPassword of an entry (the engine rotates passwords); throws DirectoryError when the entry does not exist. */
  setPassword(dn: string, password: string): Promise<void>;
  /** Runs one LDIF record; throws DirectoryError with an LDAP-style message on failure. */
  apply(record: LdifRecord): Promise<void>;
  close(): Promise<void>;
}

/** The values of an attribute of an entry, matching the name case-insensitively. */
export function entryValues(entry: DirectoryEntry, attribute: string): string[] {
  const wanted = attribute.toLowerCase();
  for (const [name, values] of Object.entries(entry.attributes)) if (name.toLowerCase() === wanted) return values;
  return [];
}
