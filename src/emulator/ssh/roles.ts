/**
 * SSH roles as the service keeps them: a POST rebuilds the role from its
 * body (every parameter not sent takes its default), and a read returns
 * only the fields of the role's key type, durations as integer seconds and
 * `allowed_user_key_lengths` as lists of sizes (docs/emulator.md).
 */
import type { Json } from '../jsonapi.ts';
import { refused } from '../secrets/envelope.ts';
import { type Body, bool, int, seconds, str, stringMap } from '../secrets/fields.ts';
import { parseCidrList } from './cidr.ts';

export type SshKeyType = 'otp' | 'ca';

export interface SshRole {
  key_type: SshKeyType;
  default_user: string;
  default_user_template: boolean;
  cidr_list: string;
  exclude_cidr_list: string;
  port: number;
  allowed_users: string;
  allowed_users_template: boolean;
  allowed_domains: string;
  allowed_domains_template: boolean;
  ttl: number;
  max_ttl: number;
  allowed_critical_options: string;
  allowed_extensions: string;
  default_critical_options: Record<string, string>;
  default_extensions: Record<string, string>;
  default_extensions_template: boolean;
  allow_user_certificates: boolean;
  allow_host_certificates: boolean;
  allow_bare_domains: boolean;
  allow_subdomains: boolean;
  allow_user_key_ids: boolean;
  key_id_format: string;
  allowed_user_key_lengths: Record<string, number[]>;
  allow_empty_principals: boolean;
  algorithm_signer: string;
  not_before_duration: number;
}

export const ALGORITHM_SIGNERS = ['', 'default', 'ssh-rsa', 'rsa-sha2-256', 'rsa-sha2-512'];

/** The role a POST body describes, or the service's 400. */
export function roleFromBody(body: Body): SshRole {
  const keyType = str(body, 'key_type').trim().toLowerCase();
  if (keyType === '') throw refused('missing key type');
  if (keyType === 'dynamic') throw refused('dynamic key type roles are no longer supported');
  if (keyType !== 'otp' && keyType !== 'ca') throw refused('invalid key type');
  const role: SshRole = {
    key_type: keyType,
    default_user: str(body, 'default_user'),
    default_user_template: bool(body, 'default_user_template'),
    cidr_list: str(body, 'cidr_list'),
    exclude_cidr_list: str(body, 'exclude_cidr_list'),
    port: int(body, 'port', 22) || 22,
    allowed_users: str(body, 'allowed_users'),
    allowed_users_template: bool(body, 'allowed_users_template'),
    allowed_domains: str(body, 'allowed_domains'),
    allowed_domains_template: bool(body, 'allowed_domains_template'),
    ttl: seconds(body, 'ttl'),
    max_ttl: seconds(body, 'max_ttl'),
    allowed_critical_options: str(body, 'allowed_critical_options'),
    allowed_extensions: str(body, 'allowed_extensions'),
    default_critical_options: stringMap(body, 'default_critical_options'),
    default_extensions: stringMap(body, 'default_extensions'),
    default_extensions_template: bool(body, 'default_extensions_template'),
    allow_user_certificates: bool(body, 'allow_user_certificates'),
    allow_host_certificates: bool(body, 'allow_host_certificates'),
    allow_bare_domains: bool(body, 'allow_bare_domains'),
    allow_subdomains: bool(body, 'allow_subdomains'),
    allow_user_key_ids: bool(body, 'allow_user_key_ids'),
    key_id_format: str(body, 'key_id_format'),
    allowed_user_key_lengths: keyLengths(body.allowed_user_key_lengths),
    allow_empty_principals: bool(body, 'allow_empty_principals'),
    algorithm_signer: str(body, 'algorithm_signer', 'default') || 'default',
    not_before_duration: seconds(body, 'not_before_duration', 30),
  };
  return keyType === 'otp' ? checkOtp(role) : checkCa(role);
}

function checkOtp(role: SshRole): SshRole {
  if (role.default_user === '') throw refused('missing default user');
  if (parseCidrList(role.cidr_list) === undefined) throw refused('failed to validate cidr_list');
  if (parseCidrList(role.exclude_cidr_list) === undefined) throw refused('failed to validate exclude_cidr_list');
  return role;
}

function checkCa(role: SshRole): SshRole {
  if (!role.allow_user_certificates && !role.allow_host_certificates) {
    throw refused("Either 'allow_user_certificates' or 'allow_host_certificates' must be set to 'true'");
  }
  if (role.ttl !== 0 && role.max_ttl !== 0 && role.ttl > role.max_ttl) {
    throw refused('"ttl" value must be less than "max_ttl" when both are specified');
  }
  if (!ALGORITHM_SIGNERS.includes(role.algorithm_signer)) {
    throw refused(`unknown algorithm signer "${role.algorithm_signer}"`);
  }
  return role;
}

/** Sizes per key type: an int, a list of ints, or a comma-separated string of them. */
function keyLengths(value: Json | undefined): Record<string, number[]> {
  if (value === undefined || value === null || value === '') return {};
  const fail = (why: string) => refused(`error processing allowed_user_key_lengths: ${why}`);
  if (typeof value !== 'object' || Array.isArray(value)) throw fail('expected a map of key type to sizes');
  const out: Record<string, number[]> = {};
  for (const [type, sizes] of Object.entries(value)) {
    const items = Array.isArray(sizes) ? sizes : typeof sizes === 'string' ? sizes.split(',') : [sizes];
    const numbers = items.map((item) => (typeof item === 'string' ? Number(item.trim()) : item));
    if (!numbers.every((n) => typeof n === 'number' && Number.isInteger(n) && n >= 0)) {
      throw fail(`sizes of ${type} must be whole numbers`);
    }
    out[type] = numbers as number[];
  }
  return out;
}

/** What a read answers: the fields of the role's key type. */
export function readBack(role: SshRole): Record<string, Json> {
  if (role.key_type === 'otp') {
    return {
      key_type: 'otp',
      default_user: role.default_user,
      cidr_list: role.cidr_list,
      exclude_cidr_list: role.exclude_cidr_list,
      port: role.port,
      allowed_users: role.allowed_users,
    };
  }
  return {
    key_type: 'ca',
    allowed_users: role.allowed_users,
    allowed_users_template: role.allowed_users_template,
    allowed_domains: role.allowed_domains,
    allowed_domains_template: role.allowed_domains_template,
    default_user: role.default_user,
    default_user_template: role.default_user_template,
    ttl: role.ttl,
    max_ttl: role.max_ttl,
    allowed_critical_options: role.allowed_critical_options,
    allowed_extensions: role.allowed_extensions,
    allow_user_certificates: role.allow_user_certificates,
    allow_host_certificates: role.allow_host_certificates,
    allow_bare_domains: role.allow_bare_domains,
    allow_subdomains: role.allow_subdomains,
    allow_user_key_ids: role.allow_user_key_ids,
    key_id_format: role.key_id_format,
    default_critical_options: role.default_critical_options,
    default_extensions: role.default_extensions,
    default_extensions_template: role.default_extensions_template,
    allowed_user_key_lengths: role.allowed_user_key_lengths,
    algorithm_signer: role.algorithm_signer,
    not_before_duration: role.not_before_duration,
    allow_empty_principals: role.allow_empty_principals,
  };
}
