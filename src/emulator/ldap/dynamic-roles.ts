/**
 * Dynamic roles: accounts made by a templated creation LDIF when
 * credentials are asked for, and removed by the deletion LDIF when their
 * lease ends (expiry or revoke). A failed creation stops at the first entry
 * and runs the rollback LDIF, which goes on past its own errors. A POST to
 * an existing role changes only the fields it sends; an empty string
 * removes one.
 */
import type { FastifyRequest } from 'fastify';
import { DEFAULT_USERNAME_TEMPLATE } from '../../template/index.ts';
import { envelope, failed, missing, noContent, refused } from '../secrets/envelope.ts';
import { type Body, bodyOf, seconds } from '../secrets/fields.ts';
import type { Lease } from '../secrets/leases.ts';
import { isListing } from '../secrets/routes.ts';
import { newPassword } from './config.ts';
import { type LdapEngine, listLevel, nameOf, readOrList, requireConfig } from './engine.ts';
import {
  type FieldProblem,
  ldifProblem,
  parseLdif,
  render,
  runLdif,
  storedLdif,
  usernameTemplateProblem,
} from './ldif-fields.ts';
import type { DynamicRole } from './state.ts';

/** The service's default and maximum lease when neither the role nor the mount sets one: 768h. */
export const SYSTEM_TTL = 768 * 3600;

const LDIF_FIELDS = ['creation_ldif', 'deletion_ldif', 'rollback_ldif'] as const;

export function registerDynamicRoles(engine: LdapEngine): void {
  const { router, data } = engine;
  router.list('role', () => listLevel(Object.keys(data.dynamicRoles), ''));
  router.on('GET', 'role/*', readOrList, (request) => {
    const name = nameOf(request);
    if (isListing(request)) return listLevel(Object.keys(data.dynamicRoles), name);
    const role = data.dynamicRoles[name];
    if (!role) throw missing();
    return envelope({ ...role });
  });
  router.on(
    'POST',
    'role/*',
    (request) => (data.dynamicRoles[nameOf(request)] ? ['update'] : ['create']),
    (request) => {
      const name = nameOf(request);
      data.dynamicRoles[name] = roleFromBody(bodyOf(request.body), data.dynamicRoles[name]);
      return noContent();
    },
  );
  router.on('DELETE', 'role/*', ['delete'], (request) => {
    delete data.dynamicRoles[nameOf(request)];
    return noContent();
  });
  router.on('GET', 'creds/*', ['read'], (request, token) => issue(engine, request, token?.displayName ?? ''));
  engine.leases.onEnd(router.mount.path, 'creds', (lease) => remove(engine, lease));
}

function roleFromBody(body: Body, existing: DynamicRole | undefined): DynamicRole {
  const role: DynamicRole = existing
    ? { ...existing }
    : { creation_ldif: '', deletion_ldif: '', rollback_ldif: '', username_template: '', default_ttl: 0, max_ttl: 0 };
  for (const field of [...LDIF_FIELDS, 'username_template'] as const) {
    const value = body[field];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'string') throw failed(`invalid ${field}: expected a string`);
    role[field] = field === 'username_template' ? value : storedLdif(value);
  }
  try {
    if (body.default_ttl !== undefined) role.default_ttl = seconds(body, 'default_ttl');
    if (body.max_ttl !== undefined) role.max_ttl = seconds(body, 'max_ttl');
  } catch (error) {
    throw failed(`failed to convert TTLs to duration: ${(error as Error).message}`);
  }
  if (role.creation_ldif === '') throw failed('missing creation_ldif');
  if (role.deletion_ldif === '') throw failed('missing deletion_ldif');
  for (const field of LDIF_FIELDS) {
    const problem = role[field] === '' ? undefined : ldifProblem(role[field]);
    if (problem) throw invalidField(field, problem);
  }
  const problem = role.username_template ? usernameTemplateProblem(role.username_template) : undefined;
  if (problem) throw invalidField('username_template', problem);
  if (role.max_ttl > 0 && role.default_ttl > role.max_ttl) throw refused('default_ttl cannot be greater than max_ttl');
  return role;
}

/** The engine's failed check of a template is a 500; a template past a render bound is bad input, a 400. */
const invalidField = (field: string, problem: FieldProblem) =>
  (problem.limit ? refused : failed)(`invalid ${field}: ${problem.message}`);

async function issue(engine: LdapEngine, request: FastifyRequest, displayName: string) {
  const name = nameOf(request);
  const role = engine.data.dynamicRoles[name];
  if (!role) throw refused(`role "${name}" not found`);
  const config = requireConfig(engine, 'missing LDAP configuration');
  const directory = await engine.directories.open(config);
  const ttl = Math.min(role.default_ttl || SYSTEM_TTL, role.max_ttl || SYSTEM_TTL);
  const now = engine.now();
  const username = render(
    role.username_template || DEFAULT_USERNAME_TEMPLATE,
    { RoleName: name, DisplayName: displayName },
    false,
    'username_template',
  );
  const fields = {
    Username: username,
    Password: newPassword(config),
    RoleName: name,
    DisplayName: displayName,
    IssueTime: new Date(now).toISOString(),
    IssueTimeSeconds: Math.floor(now / 1000),
    ExpirationTime: new Date(now + ttl * 1000).toISOString(),
    ExpirationTimeSeconds: Math.floor(now / 1000) + ttl,
  };
  const creation = parseLdif(render(role.creation_ldif, fields, true, 'creation_ldif'));
  const errors = await runLdif(directory, creation, true);
  if (errors.length > 0) {
    if (role.rollback_ldif)
      await runLdif(directory, parseLdif(render(role.rollback_ldif, fields, true, 'rollback_ldif')), false);
    throw failed(`failed to create the account: ${errors[0]}`);
  }
  // the deletion LDIF is rendered now, with the same values: the role may change before the lease ends
  const deletion = render(role.deletion_ldif, fields, true, 'deletion_ldif');
  const lease = engine.leases.issue(
    engine.router.mount.path,
    'creds',
    `creds/${name}`,
    { deletion },
    ttl,
    role.max_ttl || SYSTEM_TTL,
  );
  const names = [...new Set(creation.map((record) => record.dn))];
  return envelope(
    { distinguished_names: names, password: fields.Password, username },
    { lease_id: lease.id, lease_duration: ttl, renewable: true },
  );
}

async function remove(engine: LdapEngine, lease: Lease): Promise<void> {
  const config = engine.data.config;
  if (!config) return;
  const directory = await engine.directories.open(config);
  await runLdif(directory, parseLdif(String(lease.data.deletion)), false);
}
