/**
 * What `converge validate` checks of an SSH role beyond its schema, offline:
 * CIDR blocks, `ttl` within `max_ttl`, the variables of `key_id_format`,
 * the syntax of identity templates, key types and sizes of
 * `allowed_user_key_lengths`, and `algorithm_signer` against the key of the
 * CA declared in the same mount.
 */
import { isIP } from 'node:net';
import type { SpecProblem } from '../../manifest/catalog.ts';
import type { DesiredObject, Fields, Json } from '../../reconcile/types.ts';
import { type CheckValues, checkValues } from '../shared/check-values.ts';
import * as normalize from '../shared/normalize.ts';
import { ttlWithinMax } from '../shared/ttl-order.ts';

const KEY_ID_VARIABLES = ['token_display_name', 'role_name', 'public_key_hash'];
const KEY_LENGTH_TYPES: Record<string, readonly number[] | 'fixed'> = {
  rsa: [1024, 2048, 3072, 4096, 8192],
  'ssh-rsa': [1024, 2048, 3072, 4096, 8192],
  ecdsa: [256, 384, 521],
  ec: [256, 384, 521],
  'ecdsa-sha2-nistp256': [256],
  'ecdsa-sha2-nistp384': [384],
  'ecdsa-sha2-nistp521': [521],
  dsa: [1024],
  'ssh-dss': [1024],
  ed25519: 'fixed',
  'ssh-ed25519': 'fixed',
};
const TEMPLATED: Record<string, string> = {
  default_user: 'default_user_template',
  allowed_users: 'allowed_users_template',
  allowed_domains: 'allowed_domains_template',
  default_extensions: 'default_extensions_template',
};

export function checkSshRole(object: DesiredObject, all: readonly DesiredObject[]): SpecProblem[] {
  const spec = object.spec;
  const problems: SpecProblem[] = [];
  const at = (field: string, message: string) => problems.push({ path: `spec.${field}`, message });
  const values = checkValues(object);

  if (spec.key_type === 'otp' && (typeof spec.default_user !== 'string' || spec.default_user === '')) {
    problems.push({
      path: 'spec.key_type',
      message: 'an otp role needs default_user (the API refuses one without it)',
    });
  }
  for (const field of ['cidr_list', 'exclude_cidr_list']) {
    for (const block of listOf(spec[field]))
      if (!isCidr(block)) at(field, `${values.quoted(field, block)} is not a CIDR block like 10.0.0.0/8`);
  }
  problems.push(...ttlWithinMax(object, { ttl: 'ttl', max: 'max_ttl', defaults: { ttl: 0, max: 0 } }));
  if (typeof spec.key_id_format === 'string') {
    for (const [, name] of spec.key_id_format.matchAll(/\{\{\s*([^}]*?)\s*\}\}/g)) {
      if (!KEY_ID_VARIABLES.includes(name ?? '')) {
        const variable = values.secret('key_id_format')
          ? 'an unknown variable (hidden)'
          : `unknown variable {{${name}}}`;
        at('key_id_format', `${variable}; known: ${KEY_ID_VARIABLES.map((v) => `{{${v}}}`).join(', ')}`);
      }
    }
  }
  for (const [field, flag] of Object.entries(TEMPLATED)) {
    const texts = field === 'default_extensions' ? Object.values(mapOf(spec[field])) : listOf(spec[field]);
    for (const value of texts) {
      const problem = templateProblem(value, values.quoted(field, value));
      if (problem) at(field, problem);
      else if (/\{\{/.test(value) && spec[flag] !== true)
        at(field, `holds a template but ${flag} is not true, so it is used literally`);
    }
  }
  checkKeyLengths(spec, values.secret('allowed_user_key_lengths'), at);
  checkSigner(object, all, values, at);
  return problems;
}

function checkKeyLengths(spec: Fields, secret: boolean, at: (field: string, message: string) => void): void {
  const lengths = normalize.sizesByType(spec.allowed_user_key_lengths ?? null);
  if (typeof lengths !== 'object' || lengths === null || Array.isArray(lengths)) return;
  for (const [type, sizes] of Object.entries(lengths)) {
    const known = KEY_LENGTH_TYPES[type];
    if (!known) {
      const what = secret ? 'an unknown key type (hidden)' : `unknown key type "${type}"`;
      at('allowed_user_key_lengths', `${what}; known: ${Object.keys(KEY_LENGTH_TYPES).join(', ')}`);
      continue;
    }
    if (known === 'fixed' || !Array.isArray(sizes)) continue;
    for (const size of sizes) {
      if (typeof size !== 'number' || !known.includes(size)) {
        if (secret) at('allowed_user_key_lengths', 'a key type holds a size (hidden) it cannot have');
        else
          at('allowed_user_key_lengths', `${type} keys cannot be ${String(size)} bits; possible: ${known.join(', ')}`);
      }
    }
  }
}

/** `algorithm_signer` names an RSA signature: a CA of another key type in the same mount cannot sign with it. */
function checkSigner(
  object: DesiredObject,
  all: readonly DesiredObject[],
  values: CheckValues,
  at: (field: string, message: string) => void,
) {
  const signer = object.spec.algorithm_signer;
  if (signer === undefined || signer === '' || signer === 'default') return;
  const ca = caOf(all, object.address.scope);
  const caType = ca && caKeyAlgorithm(ca.spec);
  if (caType && caType !== 'rsa') {
    at(
      'algorithm_signer',
      `${values.quoted('algorithm_signer', signer)} is an RSA signature, but the CA of mount "${object.address.scope}" has a ${caType} key; use "default"`,
    );
  }
}

/**
 * The CA of each mount among `all`, found once per set: validate (and export) check every role
 * against the same set, and a search of the set per role is quadratic at 10,000 roles.
 */
const casOfSet = new WeakMap<readonly DesiredObject[], Map<string | undefined, DesiredObject>>();

function caOf(all: readonly DesiredObject[], mount: string | undefined): DesiredObject | undefined {
  let cas = casOfSet.get(all);
  if (!cas) {
    cas = new Map();
    // the first of a mount, as a search from the start would find it
    for (const o of all)
      if (o.kind === 'SSHCertificateAuthority' && !cas.has(o.address.scope)) cas.set(o.address.scope, o);
    casOfSet.set(all, cas);
  }
  return cas.get(mount);
}

/** rsa, ec or ed25519, from a CA's declared key type or public key. */
export function caKeyAlgorithm(spec: Fields): 'rsa' | 'ec' | 'ed25519' | undefined {
  const text = typeof spec.public_key === 'string' ? spec.public_key.trim().split(/\s+/)[0] : spec.key_type;
  if (text === undefined || text === 'ssh-rsa' || text === 'rsa') return 'rsa';
  if (text === 'ed25519' || text === 'ssh-ed25519') return 'ed25519';
  if (text === 'ec' || (typeof text === 'string' && text.startsWith('ecdsa-'))) return 'ec';
  return undefined;
}

/** The text-template syntax the service accepts: balanced `{{ }}`, nothing empty inside. `shown`: the value as a message may name it. */
function templateProblem(value: string, shown: string): string | undefined {
  let rest = value;
  for (;;) {
    const open = rest.indexOf('{{');
    const close = rest.indexOf('}}');
    if (open === -1) return close === -1 ? undefined : `unbalanced "}}" in template ${shown}`;
    if (close === -1 || close < open) return `unbalanced "{{" in template ${shown}`;
    if (rest.slice(open + 2, close).trim() === '') return `empty "{{ }}" in template ${shown}`;
    rest = rest.slice(close + 2);
  }
}

function isCidr(text: string): boolean {
  const [address, prefix, extra] = text.split('/');
  if (address === undefined || prefix === undefined || extra !== undefined || !/^\d{1,3}$/.test(prefix)) return false;
  const version = isIP(address);
  return version !== 0 && Number(prefix) <= (version === 4 ? 32 : 128);
}

function listOf(value: Json | undefined): string[] {
  const set = value === undefined ? [] : normalize.commaSet(value);
  return Array.isArray(set) ? set.filter((item): item is string => typeof item === 'string') : [];
}

function mapOf(value: Json | undefined): Record<string, string> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, String(v)]));
}
