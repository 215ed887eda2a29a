/**
 * Seed data: organizations, users, teams and versions to start with, on top
 * of the built-in ones (see `defaultSeed`). Given as an object or as a YAML
 * or JSON file; a file is checked whole and every problem reported at once.
 */
import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';
import { ConvergeError } from '../errors.ts';
import { isPlainObject } from '../reconcile/equal.ts';
import { type RegistrySeed, registrySeedProblems } from './registry/seed.ts';
import { defaultSecretsSeed, type SecretsSeed, secretsSeedProblems } from './secrets/seed.ts';

export type Role = 'owner' | 'member';

export interface SeedUser {
  username: string;
  email?: string;
  isAdmin?: boolean;
  isSuspended?: boolean;
  isServiceAccount?: boolean;
  twoFactor?: boolean;
  /** A fixed API token for this user; random when left out. */
  token?: string;
  organizations?: Array<{ name: string; role: Role }>;
}

export interface SeedVersion {
  version: string;
  url: string;
  sha: string;
  official?: boolean;
  enabled?: boolean;
  beta?: boolean;
  deprecated?: boolean;
  deprecatedReason?: string | null;
  /** Read-only in the API: how many workspaces (or policy sets) use it. */
  usage?: number;
}

export interface SeedData {
  organizations?: Array<{ name: string }>;
  users?: SeedUser[];
  teams?: Array<{ organization: string; name: string; members: string[]; manageModules?: boolean }>;
  toolVersions?: SeedVersion[];
  policyVersions?: SeedVersion[];
  /** Engines to mount, policies and tokens of the secrets API. */
  secrets?: SecretsSeed;
  /** How the registry behaves, the repositories VCS publishing reads, the public registry's catalog. */
  registry?: RegistrySeed;
}

export type { RegistrySeed } from './registry/seed.ts';

/**
 * The users every emulator has. `owner` is the sole owner of example-org
 * (so the sole-owner rule can be tried on it) and `admin` only a member;
 * `member` has two-factor enabled so that disabling it can be tried.
 */
export function defaultSeed(): SeedData {
  const org = 'example-org';
  return {
    organizations: [{ name: org }],
    users: [
      { username: 'admin', isAdmin: true, organizations: [{ name: org, role: 'member' }] },
      { username: 'owner', organizations: [{ name: org, role: 'owner' }] },
      { username: 'member', twoFactor: true, organizations: [{ name: org, role: 'member' }] },
      { username: 'ci-bot', isServiceAccount: true, organizations: [{ name: org, role: 'member' }] },
    ],
    // the owners team holds the registry's rights (update, delete, tests); admin is in it, so one
    // site-admin token can manage both the installation and example-org's modules
    teams: [
      { organization: org, name: 'owners', members: ['owner', 'admin'] },
      { organization: org, name: 'publishers', members: ['ci-bot'], manageModules: true },
    ],
    secrets: defaultSecretsSeed(),
  };
}

export async function loadSeed(source: SeedData | string): Promise<SeedData> {
  if (typeof source !== 'string') return checkSeed(source, 'seed');
  let text: string;
  try {
    text = await readFile(source, 'utf8');
  } catch (error) {
    throw new ConvergeError('INPUT_INVALID', `cannot read seed file ${source}: ${(error as Error).message}`);
  }
  let data: unknown;
  try {
    data = source.endsWith('.json') ? JSON.parse(text) : parse(text);
  } catch (error) {
    throw new ConvergeError(
      'INPUT_INVALID',
      `seed file ${source} is not valid YAML or JSON: ${(error as Error).message}`,
    );
  }
  return checkSeed(data ?? {}, source);
}

/** The seed as typed data, or one error listing every problem as `where: what`. */
function checkSeed(data: unknown, where: string): SeedData {
  const problems: string[] = [];
  const check = new Checker(problems);
  if (!check.record(data, '')) return fail(where, problems);
  check.keys(data, '', ['organizations', 'users', 'teams', 'toolVersions', 'policyVersions', 'secrets', 'registry']);
  problems.push(...registrySeedProblems(data.registry));
  problems.push(...secretsSeedProblems(data.secrets));
  check.list(data.organizations, 'organizations', (org, at) => {
    if (check.record(org, at)) {
      check.keys(org, at, ['name']);
      check.string(org.name, `${at}.name`, true);
    }
  });
  check.list(data.users, 'users', (user, at) => {
    if (!check.record(user, at)) return;
    check.keys(user, at, [
      'username',
      'email',
      'isAdmin',
      'isSuspended',
      'isServiceAccount',
      'twoFactor',
      'token',
      'organizations',
    ]);
    check.string(user.username, `${at}.username`, true);
    check.string(user.email, `${at}.email`, false);
    check.string(user.token, `${at}.token`, false);
    for (const flag of ['isAdmin', 'isSuspended', 'isServiceAccount', 'twoFactor']) {
      check.boolean(user[flag], `${at}.${flag}`);
    }
    check.list(user.organizations, `${at}.organizations`, (membership, mAt) => {
      if (!check.record(membership, mAt)) return;
      check.keys(membership, mAt, ['name', 'role']);
      check.string(membership.name, `${mAt}.name`, true);
      if (membership.role !== 'owner' && membership.role !== 'member')
        problems.push(`${mAt}.role: expected owner or member`);
    });
  });
  check.list(data.teams, 'teams', (team, at) => {
    if (!check.record(team, at)) return;
    check.keys(team, at, ['organization', 'name', 'members', 'manageModules']);
    check.boolean(team.manageModules, `${at}.manageModules`);
    check.string(team.organization, `${at}.organization`, true);
    check.string(team.name, `${at}.name`, true);
    check.list(team.members, `${at}.members`, (member, mAt) => check.string(member, mAt, true));
  });
  for (const kind of ['toolVersions', 'policyVersions']) {
    check.list(data[kind], kind, (version, at) => {
      if (!check.record(version, at)) return;
      const flags = ['official', 'enabled', 'beta', 'deprecated'];
      check.keys(version, at, ['version', 'url', 'sha', 'deprecatedReason', 'usage', ...flags]);
      for (const field of ['version', 'url', 'sha']) check.string(version[field], `${at}.${field}`, true);
      for (const flag of flags) check.boolean(version[flag], `${at}.${flag}`);
      if (version.deprecatedReason !== null) check.string(version.deprecatedReason, `${at}.deprecatedReason`, false);
      const usage = version.usage;
      if (usage !== undefined && !(Number.isInteger(usage) && (usage as number) >= 0)) {
        problems.push(`${at}.usage: expected a whole number of at least 0`);
      }
    });
  }
  if (problems.length > 0) return fail(where, problems);
  return data as SeedData;
}

function fail(where: string, problems: string[]): never {
  throw new ConvergeError('INPUT_INVALID', `invalid seed ${where}:\n  ${problems.join('\n  ')}`, {
    hint: 'see docs/emulator.md for the seed format',
  });
}

class Checker {
  readonly #problems: string[];

  constructor(problems: string[]) {
    this.#problems = problems;
  }

  record(value: unknown, at: string): value is Record<string, unknown> {
    if (isPlainObject(value)) return true;
    this.#problems.push(`${at || '(top level)'}: expected a mapping`);
    return false;
  }

  keys(value: Record<string, unknown>, at: string, known: readonly string[]): void {
    for (const key of Object.keys(value)) {
      if (!known.includes(key))
        this.#problems.push(`${at ? `${at}.` : ''}${key}: unknown field (known: ${known.join(', ')})`);
    }
  }

  list(value: unknown, at: string, each: (item: unknown, at: string) => void): void {
    if (value === undefined) return;
    if (!Array.isArray(value)) {
      this.#problems.push(`${at}: expected a list`);
      return;
    }
    for (const [i, item] of value.entries()) each(item, `${at}[${i}]`);
  }

  string(value: unknown, at: string, required: boolean): void {
    if (value === undefined && !required) return;
    if (typeof value !== 'string' || value === '') this.#problems.push(`${at}: expected a non-empty string`);
  }

  boolean(value: unknown, at: string): void {
    if (value !== undefined && typeof value !== 'boolean') this.#problems.push(`${at}: expected true or false`);
  }
}
