/**
 * The secrets part of a seed (docs/emulator.md): engines to mount, policies
 * and tokens. The default seed mounts the SSH engine at `ssh`.
 */
import { isReservedMount } from '../../api/secrets-mounts.ts';
import { CAPABILITIES, type Capability, type PolicyRule } from './access.ts';
import type { EngineType } from './slice.ts';

export interface SecretsSeed {
  mounts?: Array<{ path: string; type: EngineType }>;
  policies?: Record<string, PolicyRule[]>;
  tokens?: Array<{ token?: string; displayName?: string; policies: string[] }>;
  /**
   * In-memory directories the LDAP engine reaches when its config's `url`
   * names one (any other URL is a real server); `ldif` seeds the entries.
   */
  directories?: Array<{ url: string; ldif?: string }>;
}

export const ENGINE_TYPES: readonly EngineType[] = ['ssh', 'ldap'];

/** The URL of the built-in in-memory directory: `.test` never resolves, so it cannot be mistaken for a real server. */
export const MEMORY_DIRECTORY_URL = 'ldap://ldap.emulator.test';

export function defaultSecretsSeed(): SecretsSeed {
  return {
    mounts: [
      { path: 'ssh', type: 'ssh' },
      { path: 'ldap', type: 'ldap' },
    ],
    directories: [{ url: MEMORY_DIRECTORY_URL }],
  };
}

/** Mounts and policies of several seeds together; a later mount at the same path wins. */
export function mergeSecretsSeeds(seeds: readonly (SecretsSeed | undefined)[]): SecretsSeed {
  const mounts = new Map<string, { path: string; type: EngineType }>();
  const policies: Record<string, PolicyRule[]> = {};
  const tokens: NonNullable<SecretsSeed['tokens']> = [];
  const directories = new Map<string, { url: string; ldif?: string }>();
  for (const seed of seeds) {
    for (const mount of seed?.mounts ?? []) mounts.set(mount.path, mount);
    Object.assign(policies, seed?.policies);
    tokens.push(...(seed?.tokens ?? []));
    for (const directory of seed?.directories ?? []) directories.set(directory.url, directory);
  }
  return { mounts: [...mounts.values()], policies, tokens, directories: [...directories.values()] };
}

const MOUNT_PATH = /^[A-Za-z0-9_-]+(?:\/[A-Za-z0-9_-]+)*$/;
/** Policies every token may name without the seed defining them: `root` grants everything, `default` nothing here. */
const BUILT_IN_POLICIES = ['root', 'default'];

/** Problems of a seed's `secrets` entry, as `where: what` lines. */
export function secretsSeedProblems(value: unknown): string[] {
  const problems: string[] = [];
  if (value === undefined) return problems;
  if (!isRecord(value)) return ['secrets: expected a mapping'];
  for (const key of Object.keys(value)) {
    if (!['mounts', 'policies', 'tokens', 'directories'].includes(key))
      problems.push(`secrets.${key}: unknown field (known: mounts, policies, tokens, directories)`);
  }
  const mountPaths: string[] = [];
  eachItem(value.mounts, 'secrets.mounts', problems, (mount, at) => {
    if (typeof mount.path !== 'string' || !MOUNT_PATH.test(mount.path)) {
      problems.push(`${at}.path: expected a path of letters, digits, - and _ segments`);
    } else if (isReservedMount(mount.path)) {
      problems.push(`${at}.path: "${mount.path}" is reserved by the service`);
    } else {
      // the service refuses a mount at or inside another one; a repeated path would silently replace the first
      const clash = mountPaths.find(
        (p) => p === mount.path || `${mount.path}/`.startsWith(`${p}/`) || `${p}/`.startsWith(`${mount.path}/`),
      );
      if (clash !== undefined) problems.push(`${at}.path: "${mount.path}" overlaps the mount at "${clash}"`);
      mountPaths.push(mount.path);
    }
    if (!ENGINE_TYPES.includes(mount.type as EngineType))
      problems.push(`${at}.type: expected ${ENGINE_TYPES.join(' or ')}`);
  });
  if (value.policies !== undefined) {
    if (!isRecord(value.policies)) problems.push('secrets.policies: expected a mapping of policy name to rules');
    else
      for (const [name, rules] of Object.entries(value.policies)) {
        eachItem(rules, `secrets.policies.${name}`, problems, (rule, at) => {
          if (typeof rule.path !== 'string' || rule.path === '') problems.push(`${at}.path: expected a path glob`);
          const caps = rule.capabilities;
          if (!Array.isArray(caps) || !caps.every((c) => CAPABILITIES.includes(c as Capability))) {
            problems.push(`${at}.capabilities: expected a list of ${CAPABILITIES.join(', ')}`);
          }
        });
      }
  }
  const defined = isRecord(value.policies) ? Object.keys(value.policies) : [];
  const tokenValues: string[] = [];
  eachItem(value.directories, 'secrets.directories', problems, (directory, at) => {
    if (typeof directory.url !== 'string' || !/^ldaps?:\/\/[^\s/]+\/?$/.test(directory.url))
      problems.push(`${at}.url: expected an ldap:// or ldaps:// URL of a host`);
    if (directory.ldif !== undefined && typeof directory.ldif !== 'string')
      problems.push(`${at}.ldif: expected LDIF text`);
  });
  eachItem(value.tokens, 'secrets.tokens', problems, (token, at) => {
    if (token.token !== undefined && (typeof token.token !== 'string' || token.token === '')) {
      problems.push(`${at}.token: expected a non-empty string`);
    } else if (typeof token.token === 'string') {
      // a second token of the same value would silently replace the first
      if (tokenValues.includes(token.token)) problems.push(`${at}.token: "${token.token}" is declared twice`);
      tokenValues.push(token.token);
    }
    if (token.displayName !== undefined && typeof token.displayName !== 'string')
      problems.push(`${at}.displayName: expected a string`);
    if (!Array.isArray(token.policies) || !token.policies.every((p) => typeof p === 'string')) {
      problems.push(`${at}.policies: expected a list of policy names`);
    } else {
      // policies cannot be written through the API, so a name the seed does not define is a typo
      for (const name of token.policies as string[]) {
        if (!BUILT_IN_POLICIES.includes(name) && !defined.includes(name))
          problems.push(`${at}.policies: unknown policy "${name}"`);
      }
    }
  });
  return problems;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function eachItem(
  value: unknown,
  at: string,
  problems: string[],
  check: (item: Record<string, unknown>, at: string) => void,
): void {
  if (value === undefined) return;
  if (!Array.isArray(value)) {
    problems.push(`${at}: expected a list`);
    return;
  }
  value.forEach((item, i) => {
    if (isRecord(item)) check(item, `${at}[${i}]`);
    else problems.push(`${at}[${i}]: expected a mapping`);
  });
}
