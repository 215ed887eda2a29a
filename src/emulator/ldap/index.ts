/**
 * The LDAP secrets engine at one mount (docs/emulator.md, "LDAP engine"):
 * its configuration and root rotation, static roles, dynamic roles and
 * library sets, over an in-memory directory or a real one. Time-driven work
 * (static rotations, lease ends) runs on the emulator's clock.
 */

import { envelope, failed, missing, noContent } from '../secrets/envelope.ts';
import { bodyOf } from '../secrets/fields.ts';
import type { Leases } from '../secrets/leases.ts';
import type { MountRouter } from '../secrets/routes.ts';
import { configFromBody, newPassword, readBack } from './config.ts';
import { type Directories, directoryMessage } from './connection.ts';
import { DirectoryError } from './directory/index.ts';
import { registerDynamicRoles } from './dynamic-roles.ts';
import type { LdapEngine } from './engine.ts';
import { registerLibrary } from './library.ts';
import { ldapData } from './state.ts';
import { registerStaticRoles, rotateDue } from './static-roles.ts';

/** How often the engine looks for due rotations: its queue ticks every 5 s; 1 s keeps tests short. */
const TICK_MS = 1000;

/** `router` answers directory errors (`answerDirectoryError`, given to its mountRouter). */
export function registerLdap(router: MountRouter, directories: Directories, leases: Leases): void {
  const engine: LdapEngine = { router, data: ldapData(router.mount), directories, leases, now: router.ctx.now };
  const { data } = engine;

  router.on('GET', 'config', ['read'], () => {
    if (!data.config) throw missing();
    return envelope(readBack(data.config));
  });
  router.on(
    'POST',
    'config',
    () => (data.config ? ['update'] : ['create']),
    async (request) => {
      data.config = configFromBody(bodyOf(request.body), data.config);
      await directories.forget();
      return noContent();
    },
  );
  router.on('DELETE', 'config', ['delete'], async () => {
    data.config = null;
    await directories.forget();
    return noContent();
  });
  // a new root password, set in the directory and kept by the engine only: it is never answered
  router.on('POST', 'rotate-root', ['update'], async () => {
    const config = data.config;
    if (!config) throw failed('missing LDAP configuration');
    const directory = await directories.open(config);
    const password = newPassword(config);
    try {
      await directory.setPassword(String(config.binddn), password);
    } catch (error) {
      throw failed(`failed to rotate the root credential: ${directoryMessage(error)}`);
    }
    config.bindpass = password;
    config.last_bind_password_rotation = new Date(engine.now()).toISOString();
    await directories.forget();
    return noContent();
  });

  registerStaticRoles(engine);
  registerDynamicRoles(engine);
  registerLibrary(engine);
  router.ctx.every(TICK_MS, () => rotateDue(engine));
}

/**
 * The engine answers a directory's error with its message, as the real one
 * does (`LDAP Result Code 200 "Network Error": …` while the server is down),
 * wherever in a route it happened: without this, an error no route caught
 * would be an anonymous 500. The mount's router applies it to every handler.
 */
export function answerDirectoryError(error: unknown): unknown {
  return error instanceof DirectoryError ? failed(directoryMessage(error)) : error;
}
