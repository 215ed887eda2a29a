/**
 * The records parseLdif produces. They mirror RFC 2849's change records; a
 * content record (an entry without "changetype:") is reported as an 'add',
 * since that is what a directory does with it when it is loaded.
 */

export interface LdifAttribute {
  /** The attribute description as written (options such as ";lang-en" kept). */
  name: string;
  values: string[];
}

export interface LdifModification {
  op: 'add' | 'delete' | 'replace';
  attribute: string;
  /** Empty for "delete: attr" (the whole attribute) and "replace: attr" (remove it). */
  values: string[];
}

export interface LdifAddRecord {
  /** 1-based line of the record's "dn:" line. */
  line: number;
  dn: string;
  changetype: 'add';
  attributes: LdifAttribute[];
}

export interface LdifDeleteRecord {
  line: number;
  dn: string;
  changetype: 'delete';
}

export interface LdifModifyRecord {
  line: number;
  dn: string;
  changetype: 'modify';
  changes: LdifModification[];
}

export interface LdifModRdnRecord {
  line: number;
  dn: string;
  changetype: 'modrdn' | 'moddn';
  newrdn: string;
  deleteoldrdn: boolean;
  newsuperior?: string;
}

export type LdifRecord = LdifAddRecord | LdifDeleteRecord | LdifModifyRecord | LdifModRdnRecord;
