/**
 * Static roles: an existing directory entry whose password the engine
 * rotates every `rotation_period` (at least 5 s), on `rotate-role`, and once
 * on creation unless `skip_import_rotation`. `username` and `dn` cannot
 * change. Names are lower-cased and may hold `/`.
 */
import type { FastifyRequest } from 'fastify';
import { envelope, failed, missing, noContent, refused } from '../secrets/envelope.ts';
import { bodyOf, bool, seconds, str } from '../secrets/fields.ts';
import { isListing } from '../secrets/routes.ts';
import { newPassword, userAttribute } from './config.ts';
import { directoryMessage } from './connection.ts';
import { type LdapEngine, listLevel, managedElsewhere, nameOf, readOrList, requireConfig } from './engine.ts';
import type { StaticRole } from './state.ts';

/** The engine's queue ticks every 5 s: a shorter period could not be kept. */
export const MIN_ROTATION_SECONDS = 5;

export function registerStaticRoles(engine: LdapEngine): void {
  const { router, data } = engine;
  const roleName = (request: FastifyRequest) => nameOf(request).toLowerCase();

  router.list('static-role', () => listLevel(Object.keys(data.staticRoles), ''));
  router.on('GET', 'static-role/*', readOrList, (request) => {
    const name = roleName(request);
    if (isListing(request)) return listLevel(Object.keys(data.staticRoles), name);
    const role = data.staticRoles[name];
    if (!role) throw missing();
    return envelope({
      dn: role.dn,
      username: role.username,
      rotation_period: role.rotation_period,
      ...(role.last_service_rotation && { last_service_rotation: role.last_service_rotation }),
    });
  });
  router.on(
    'POST',
    'static-role/*',
    (request) => (data.staticRoles[roleName(request)] ? ['update'] : ['create']),
    async (request) => {
      const name = roleName(request);
      const body = bodyOf(request.body);
      const existing = data.staticRoles[name];
      if (existing) update(engine, existing, body);
      else data.staticRoles[name] = await create(engine, name, body);
      return noContent();
    },
  );
  router.on('DELETE', 'static-role/*', ['delete'], (request) => {
    delete data.staticRoles[roleName(request)];
    return noContent();
  });

  router.on('GET', 'static-cred/*', ['read'], (request) => {
    const role = data.staticRoles[roleName(request)];
    if (!role) throw missing();
    return envelope({
      dn: role.dn,
      username: role.username,
      password: role.password ?? '',
      last_password: role.last_password ?? '',
      rotation_period: role.rotation_period,
      ttl: secondsToNextRotation(engine, role),
      ...(role.last_service_rotation && { last_service_rotation: role.last_service_rotation }),
    });
  });
  router.on('POST', 'rotate-role/*', ['update'], async (request) => {
    const role = data.staticRoles[roleName(request)];
    if (!role) throw refused('role not found');
    await rotate(engine, role);
    return noContent();
  });
}

async function create(engine: LdapEngine, name: string, body: ReturnType<typeof bodyOf>): Promise<StaticRole> {
  const { data } = engine;
  if (body.username === undefined) throw refused('username is a required field to manage a static account');
  const username = str(body, 'username');
  if (username === '') throw refused('username must not be empty');
  if (managedElsewhere(data, username, { role: name }))
    throw refused(`"${username}" is already managed by the secrets engine`);
  if (body.rotation_period === undefined) throw refused('rotation_period is required to create static accounts');
  const period = seconds(body, 'rotation_period');
  if (period < MIN_ROTATION_SECONDS) throw refused(`rotation_period must be ${MIN_ROTATION_SECONDS} seconds or more`);
  const config = requireConfig(engine, 'missing LDAP configuration');
  const directory = await engine.directories.open(config);
  const given = str(body, 'dn');
  const entry = given
    ? await directory.get(given)
    : (await directory.findBy(String(config.userdn), userAttribute(config), username))[0];
  if (!entry) throw refused(`could not find the account "${given || username}" in the directory`);
  const role: StaticRole = {
    username,
    dn: entry.dn,
    rotation_period: period,
    last_service_rotation: null,
    password: null,
    last_password: null,
    next_rotation: engine.now() + period * 1000,
  };
  const skip = bool(body, 'skip_import_rotation', config.skip_static_role_import_rotation === true);
  if (!skip) await rotate(engine, role);
  return role;
}

function update(engine: LdapEngine, role: StaticRole, body: ReturnType<typeof bodyOf>): void {
  if (body.username !== undefined && str(body, 'username') !== role.username)
    throw refused('cannot update static account username');
  if (body.dn !== undefined && str(body, 'dn').toLowerCase() !== role.dn.toLowerCase()) {
    throw refused('cannot update static account distinguished name (dn)');
  }
  if (body.skip_import_rotation !== undefined) throw refused('skip_import_rotation has no effect on updates');
  if (body.rotation_period !== undefined) {
    const period = seconds(body, 'rotation_period');
    if (period < MIN_ROTATION_SECONDS) throw refused(`rotation_period must be ${MIN_ROTATION_SECONDS} seconds or more`);
    role.rotation_period = period;
    role.next_rotation = engine.now() + period * 1000;
  }
}

/** A new password for the account, in the directory first: the engine keeps the old one as `last_password`. */
export async function rotate(engine: LdapEngine, role: StaticRole): Promise<void> {
  const config = requireConfig(engine, 'missing LDAP configuration');
  const password = newPassword(config);
  const directory = await engine.directories.open(config);
  try {
    await directory.setPassword(role.dn, password);
  } catch (error) {
    throw failed(`failed to rotate the password of ${role.dn}: ${directoryMessage(error)}`);
  }
  role.last_password = role.password;
  role.password = password;
  role.last_service_rotation = new Date(engine.now()).toISOString();
  role.next_rotation = engine.now() + role.rotation_period * 1000;
}

function secondsToNextRotation(engine: LdapEngine, role: StaticRole): number {
  return Math.max(0, Math.round((role.next_rotation - engine.now()) / 1000));
}

/** Engines whose queue is running: a tick that comes while a slow directory still answers the last one waits. */
const busy = new WeakSet<LdapEngine>();

/** Rotates every role whose period has passed (the engine's queue). */
export async function rotateDue(engine: LdapEngine): Promise<void> {
  if (!engine.data.config || busy.has(engine)) return;
  busy.add(engine);
  try {
    for (const role of Object.values(engine.data.staticRoles)) {
      if (role.next_rotation > engine.now()) continue; // not the rounded ttl: that would rotate up to 0.5 s early
      await rotate(engine, role).catch(() => {}); // a failed rotation is tried again at the next tick
    }
  } finally {
    busy.delete(engine);
  }
}
