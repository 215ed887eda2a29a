/**
 * LDIF (RFC 2849) for the emulator's LDAP secrets engine and for offline
 * validation of the LDIF fields of LDAP roles: parsing, the base64-or-plain
 * decision for whole fields, and DN helpers (RFC 4514).
 */
export { decodeLdifField, isBase64Ldif } from './base64-field.ts';
export type { DnAttributeValue } from './dn.ts';
export { DnError, dnKey, escapeDnValue, formatRdn, normalizeDn, parseDn, parseRdns } from './dn.ts';
export { LdifError } from './errors.ts';
export { parseLdif } from './parse.ts';
export type {
  LdifAddRecord,
  LdifAttribute,
  LdifDeleteRecord,
  LdifModification,
  LdifModifyRecord,
  LdifModRdnRecord,
  LdifRecord,
} from './types.ts';
