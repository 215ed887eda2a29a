/**
 * The SSH secrets engine at one mount (docs/emulator.md, "SSH engine"):
 * roles, the zero-address list, one-time passwords, the certificate
 * authority, and signing and issuing certificates.
 */
import { envelope, listed, missing, noContent } from '../secrets/envelope.ts';
import { bodyOf } from '../secrets/fields.ts';
import type { MountRouter } from '../secrets/routes.ts';
import { registerCa } from './ca.ts';
import { registerOtp } from './otp.ts';
import { readBack, roleFromBody } from './roles.ts';
import { registerSigning } from './sign.ts';
import { sshData } from './state.ts';

export function registerSsh(router: MountRouter): void {
  const data = sshData(router.mount);
  const nameOf = (params: unknown) => (params as { name: string }).name;

  router.list('roles', () =>
    listed(
      Object.keys(data.roles),
      Object.fromEntries(Object.entries(data.roles).map(([name, role]) => [name, { key_type: role.key_type }])),
    ),
  );
  // a write is a create on a new role and an update on an existing one, as policies see it
  router.on(
    'POST',
    'roles/:name',
    (request) => (data.roles[nameOf(request.params)] ? ['update'] : ['create']),
    (request) => {
      data.roles[nameOf(request.params)] = roleFromBody(bodyOf(request.body));
      return noContent();
    },
  );
  router.on('GET', 'roles/:name', ['read'], (request) => {
    const role = data.roles[nameOf(request.params)];
    if (!role) throw missing();
    return envelope(readBack(role));
  });
  router.on('DELETE', 'roles/:name', ['delete'], (request) => {
    const name = nameOf(request.params);
    delete data.roles[name];
    // a deleted role leaves the zero-address list, so the list never names a role that does not exist
    if (data.zeroAddress) data.zeroAddress = data.zeroAddress.filter((role) => role !== name);
    return noContent();
  });

  registerCa(router, data);
  registerOtp(router, data);
  registerSigning(router, data);
}
