/**
 * Directory backends for the emulator's LDAP secrets engine, behind one
 * interface: memoryDirectory for the demo and fast tests, ldapDirectory for
 * a real server. test/emulator/ldap-directory/ runs one behaviour suite
 * against both.
 */
export {
  DEFAULT_ADMIN_DN,
  DEFAULT_ADMIN_PASSWORD,
  DEFAULT_BASE_DN,
  DEFAULT_DIRECTORY_LDIF,
} from './default-seed.ts';
export { DirectoryError, NETWORK_ERROR, RESULT_CODE_NAMES } from './errors.ts';
export { splitUrls } from './ldap-connection.ts';
export { type LdapDirectoryOptions, ldapDirectory } from './ldap-directory.ts';
export { memoryDirectory } from './memory-directory.ts';
export { hashSsha, verifyPassword } from './password.ts';
export { type Directory, type DirectoryEntry, entryValues } from './types.ts';
