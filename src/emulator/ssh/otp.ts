/**
 * One-time passwords: issued for an address inside an OTP role's CIDR
 * blocks (any address for a role on the zero-address list), verified once
 * without authentication, and looked up by address.
 */
import { randomUUID } from 'node:crypto';
import { isIP } from 'node:net';
import { envelope, missing, noContent, refused } from '../secrets/envelope.ts';
import { type Body, bodyOf, commaList, str } from '../secrets/fields.ts';
import type { MountRouter } from '../secrets/routes.ts';
import { contains, parseCidrList } from './cidr.ts';
import type { SshRole } from './roles.ts';
import type { SshData } from './state.ts';

export function registerOtp(router: MountRouter, data: SshData): void {
  router.on('POST', 'creds/:name', ['update'], (request) => {
    const name = (request.params as { name: string }).name;
    const role = data.roles[name];
    if (!role) throw refused(`Role "${name}" not found`);
    if (role.key_type !== 'otp')
      throw refused(`credentials are not generated for roles of key type "${role.key_type}"; use sign or issue`);
    const body = bodyOf(request.body);
    const ip = addressOf(body);
    const username = str(body, 'username') || role.default_user;
    if (!userAllowed(role, username)) throw refused(`username "${username}" is not in the role's allowed_users`);
    if (!data.zeroAddress?.includes(name)) {
      if (!contains(parseCidrList(role.cidr_list) ?? [], ip))
        throw refused(`IP "${ip}" does not belong to role "${name}"`);
      if (contains(parseCidrList(role.exclude_cidr_list) ?? [], ip))
        throw refused(`IP "${ip}" is in the role's exclude_cidr_list`);
    }
    const key = randomUUID();
    data.otps[key] = { username, ip, role_name: name };
    return envelope({ ip, key, key_type: 'otp', port: role.port, username });
  });

  router.on('POST', 'verify', 'unauthenticated', (request) => {
    const otp = str(bodyOf(request.body), 'otp');
    if (otp === '') throw refused('missing otp');
    if (otp === 'ping') return envelope({ message: 'pong' });
    const issued = data.otps[otp];
    if (!issued) throw refused('OTP not found');
    delete data.otps[otp]; // single use
    return envelope({ ...issued });
  });

  router.on('POST', 'lookup', ['update'], (request) => {
    const ip = addressOf(bodyOf(request.body));
    const roles = Object.entries(data.roles)
      .filter(
        ([, role]) =>
          role.key_type === 'otp' &&
          contains(parseCidrList(role.cidr_list) ?? [], ip) &&
          !contains(parseCidrList(role.exclude_cidr_list) ?? [], ip),
      )
      .map(([name]) => name);
    for (const name of data.zeroAddress ?? []) if (!roles.includes(name)) roles.push(name);
    return envelope({ roles: roles.sort() });
  });

  router.on('GET', 'config/zeroaddress', ['read'], () => {
    if (!data.zeroAddress) throw missing();
    return envelope({ roles: data.zeroAddress });
  });
  router.on('POST', 'config/zeroaddress', ['update'], (request) => {
    const roles = commaList(bodyOf(request.body), 'roles');
    if (roles.length === 0) throw refused('Missing roles');
    const unknown = roles.filter((name) => !data.roles[name]);
    if (unknown.length > 0) throw refused(`Role "${unknown[0]}" does not exist`);
    data.zeroAddress = [...new Set(roles)];
    return noContent();
  });
  router.on('DELETE', 'config/zeroaddress', ['delete'], () => {
    data.zeroAddress = null;
    return noContent();
  });

  router.on('DELETE', 'tidy/dynamic-keys', ['delete'], () => envelope({ message: 'Successfully deleted 0 keys.' }));
}

function addressOf(body: Body): string {
  const ip = str(body, 'ip').trim();
  if (ip === '') throw refused('Missing ip');
  if (isIP(ip) === 0) throw refused(`Invalid IP "${ip}"`);
  return ip;
}

/** For OTP roles, no list or `*` lets any user in; otherwise the default user and the listed ones. */
function userAllowed(role: SshRole, username: string): boolean {
  if (username === role.default_user) return true;
  const allowed = role.allowed_users
    .split(',')
    .map((u) => u.trim())
    .filter((u) => u !== '');
  return allowed.length === 0 || allowed.includes('*') || allowed.includes(username);
}
