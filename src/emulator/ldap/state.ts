/** The LDAP engine's objects in one mount, as plain JSON (saved with the emulator state). */
import type { Mount } from '../secrets/slice.ts';

export interface LdapConfig {
  /** Every parameter as the engine keeps it (durations in seconds), `bindpass` included. */
  [field: string]: string | number | boolean | null;
}

export interface StaticRole {
  username: string;
  dn: string;
  rotation_period: number;
  /** RFC 3339, once rotated by the engine. */
  last_service_rotation: string | null;
  password: string | null;
  last_password: string | null;
  /** Epoch ms of the next scheduled rotation. */
  next_rotation: number;
}

export interface DynamicRole {
  creation_ldif: string;
  deletion_ldif: string;
  rollback_ldif: string;
  username_template: string;
  default_ttl: number;
  max_ttl: number;
}

export interface LibrarySet {
  service_account_names: string[];
  ttl: number;
  max_ttl: number;
  disable_check_in_enforcement: boolean;
}

export interface CheckOut {
  set: string;
  /** The token that checked it out (check-in enforcement). */
  borrower: string;
  leaseId: string;
}

export interface LdapData {
  config: LdapConfig | null;
  staticRoles: Record<string, StaticRole>;
  dynamicRoles: Record<string, DynamicRole>;
  libraries: Record<string, LibrarySet>;
  /** Account name -> its check-out. */
  checkOuts: Record<string, CheckOut>;
}

export function ldapData(mount: Mount): LdapData {
  const data = mount.data as Partial<LdapData>;
  data.config ??= null;
  data.staticRoles ??= {};
  data.dynamicRoles ??= {};
  data.libraries ??= {};
  data.checkOuts ??= {};
  return data as LdapData;
}

/** Names at one level of a hierarchy: `a`, `b/` for `a` and `b/c`, under `prefix` (`''` or `b/`). */
export function namesAt(names: Iterable<string>, prefix: string): string[] {
  const level = new Set<string>();
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const rest = name.slice(prefix.length);
    const slash = rest.indexOf('/');
    level.add(slash === -1 ? rest : rest.slice(0, slash + 1));
  }
  return [...level].filter((n) => n !== '');
}
