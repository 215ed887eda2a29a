/**
 * Which principals, key id, options and extensions a certificate gets from
 * a role and a signing request, following the service's rules (the SSH
 * engine in docs/emulator.md). Identity templates (`{{identity.entity.name}}`)
 * expand to the calling token's name: the emulator has no identity store,
 * so the token's display name stands in for the entity.
 */
import { refused } from '../secrets/envelope.ts';
import type { SshRole } from './roles.ts';

export interface Caller {
  /** The token's display name (`root`, `token-ci`). */
  displayName: string;
}

const TEMPLATE = /\{\{\s*identity\.entity\.(?:name|aliases\.[^.}]+\.name)\s*\}\}/g;

const expand = (text: string, caller: Caller) => text.replace(TEMPLATE, entityName(caller));

function entityName(caller: Caller): string {
  return caller.displayName.replace(/^token-/, '');
}

const commaItems = (text: string) => [
  ...new Set(
    text
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== ''),
  ),
];

/** The principals of a certificate; `requested` undefined when the request left `valid_principals` out. */
export function principalsFor(
  role: SshRole,
  certType: 'user' | 'host',
  requested: string | undefined,
  caller: Caller,
  issuing: boolean,
): string[] {
  const user = certType === 'user';
  const fallback = user && !issuing ? role.default_user : '';
  const defaultPrincipal = role.default_user_template ? expand(fallback, caller) : fallback;
  const asked = commaItems(requested ?? defaultPrincipal);
  const allowedText = user ? role.allowed_users : role.allowed_domains;
  const templated = user ? role.allowed_users_template : role.allowed_domains_template;
  const allowed = commaItems(allowedText).map((p) => (templated ? expand(p, caller) : p));
  if (asked.length === 0) {
    if (role.allow_empty_principals) return [];
    throw refused('empty valid principals not allowed by role');
  }
  if (allowed.length === 0) throw refused('role is not configured to allow any principals');
  if (allowedText.trim() === '*') return asked;
  for (const principal of asked) {
    const ok = user ? allowed.includes(principal) : allowed.some((domain) => hostAllowed(role, domain, principal));
    if (!ok) throw refused(`${principal} is not a valid value for valid_principals`);
  }
  return asked;
}

function hostAllowed(role: SshRole, domain: string, principal: string): boolean {
  if (principal === domain && role.allow_bare_domains) return true;
  return role.allow_subdomains && principal.endsWith(`.${domain}`);
}

/** `key_id` from the request (when the role allows it) or from the role's format. */
export function keyIdFor(role: SshRole, roleName: string, requested: string, caller: Caller, keyHash: string): string {
  if (requested !== '') {
    if (!role.allow_user_key_ids) throw refused('setting key_id is not allowed by role');
    return requested;
  }
  const format =
    role.key_id_format ||
    (caller.displayName === ''
      ? 'vault-{{role_name}}-{{public_key_hash}}'
      : 'vault-{{token_display_name}}-{{public_key_hash}}');
  return format
    .replaceAll('{{token_display_name}}', caller.displayName)
    .replaceAll('{{role_name}}', roleName)
    .replaceAll('{{public_key_hash}}', keyHash);
}

export function criticalOptionsFor(role: SshRole, requested: Record<string, string>): Record<string, string> {
  if (Object.keys(requested).length === 0) return { ...role.default_critical_options };
  const allowed = commaItems(role.allowed_critical_options);
  if (allowed.length > 0) {
    const refusedNames = Object.keys(requested).filter((name) => !allowed.includes(name));
    if (refusedNames.length > 0) throw refused(`critical options not on allowed list: [${refusedNames.join(' ')}]`);
  }
  return requested;
}

/** Extensions of a user certificate: asked ones when allowed, else the role's defaults. */
export function extensionsFor(
  role: SshRole,
  requested: Record<string, string>,
  caller: Caller,
): Record<string, string> {
  if (Object.keys(requested).length > 0) {
    if (role.allowed_extensions.trim() === '*') return requested;
    const allowed = commaItems(role.allowed_extensions);
    const refusedNames = Object.keys(requested).filter((name) => !allowed.includes(name));
    if (refusedNames.length > 0) throw refused(`extensions [${refusedNames.join(' ')}] are not on allowed list`);
    return requested;
  }
  const defaults = { ...role.default_extensions };
  if (role.default_extensions_template) {
    for (const [name, value] of Object.entries(defaults)) defaults[name] = expand(value, caller);
  }
  return defaults;
}

/** Short names the role may use for a key type, besides the SSH identifier. */
const SHORT_NAMES: Record<string, string> = { rsa: 'ssh-rsa', ecdsa: 'ecdsa', ed25519: 'ssh-ed25519', dsa: 'ssh-dss' };

/** `allowed_user_key_lengths`: the key's type must be listed, and its size too where the type has sizes. */
export function checkKeyLength(role: SshRole, key: { type: string; sshType: string; bits: number }): void {
  const lengths = role.allowed_user_key_lengths;
  if (Object.keys(lengths).length === 0) return;
  const entry = Object.entries(lengths).find(
    ([name]) =>
      name === key.sshType ||
      name === key.type ||
      SHORT_NAMES[name] === key.sshType ||
      (name === 'ecdsa' && key.type === 'ecdsa'),
  );
  // the service's messages name the short type (`rsa`, `ecdsa`, `ed25519`, `dsa`)
  const unmet = (why: string) => refused(`public_key failed to meet the key requirements: ${why}`);
  if (!entry) throw unmet(`key type of ${key.type} is not allowed`);
  if (key.type === 'ed25519') return; // one size only: the listed value does not matter
  if (!entry[1].includes(key.bits)) throw unmet(`key is of an invalid size: ${key.bits}`);
}
