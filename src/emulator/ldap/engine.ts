/**
 * What the LDAP engine's routes share: the mount's objects, its directory,
 * the leases, the hierarchical names of the URL, and the rule that an
 * account is managed by one role or set only.
 */
import type { FastifyRequest } from 'fastify';
import type { Capability } from '../secrets/access.ts';
import { listed, refused } from '../secrets/envelope.ts';
import type { Leases } from '../secrets/leases.ts';
import { isListing, type MountRouter } from '../secrets/routes.ts';
import type { Directories } from './connection.ts';
import { type LdapData, namesAt } from './state.ts';

export interface LdapEngine {
  router: MountRouter;
  data: LdapData;
  directories: Directories;
  leases: Leases;
  now(): number;
}

/** The `:name` of a hierarchical path (`static-role/apps/app1`): the rest of the URL after the collection. */
export function nameOf(request: FastifyRequest): string {
  return decodeURIComponent((request.params as Record<string, string>)['*'] ?? '');
}

/** A GET on a collection path is a read, or with `?list=true` a list: capabilities differ. */
export const readOrList = (request: FastifyRequest): readonly Capability[] =>
  isListing(request) ? ['list'] : ['read'];

/**
 * The names at the level a LIST names (`team` and `team/` alike: the
 * service appends the `/` to every list path); folders end in `/`.
 */
export function listLevel(names: Iterable<string>, level: string) {
  const prefix = level === '' || level.endsWith('/') ? level : `${level}/`;
  return listed(namesAt(names, prefix));
}

/** The config, or the engine's refusal for an operation that needs it. */
export function requireConfig(engine: LdapEngine, message: string) {
  const config = engine.data.config;
  if (!config) throw refused(message);
  return config;
}

/** Whether an account is already managed by a static role or a library set (other than `except`). */
export function managedElsewhere(
  data: LdapData,
  account: string,
  except: { role?: string; set?: string } = {},
): boolean {
  const lower = account.toLowerCase();
  const byRole = Object.entries(data.staticRoles).some(
    ([name, role]) => name !== except.role && role.username.toLowerCase() === lower,
  );
  const bySet = Object.entries(data.libraries).some(
    ([name, set]) => name !== except.set && set.service_account_names.some((n) => n.toLowerCase() === lower),
  );
  return byRole || bySet;
}
