/**
 * The emulator's in-memory state: the accounts every API shares (users,
 * organizations, teams, tokens) plus one slice per API module (settings,
 * versions, …), each of which knows how to save itself. A module claims its
 * slice by name, so adding an API never touches this file.
 */
import { ConvergeError } from '../errors.ts';
import { newId, newToken } from './ids.ts';
import { mergeSecretsSeeds } from './secrets/seed.ts';
import type { Role, SeedData } from './seed.ts';
import { Store } from './store.ts';

export interface User {
  id: string;
  username: string;
  email: string;
  avatarUrl: string;
  isAdmin: boolean;
  isSuspended: boolean;
  isServiceAccount: boolean;
  twoFactor: boolean;
  token: string;
  /** Organization name -> role. */
  organizations: Record<string, Role>;
}

export interface Team {
  organization: string;
  name: string;
  /** User ids. */
  members: string[];
  /** The team's "Manage modules" permission (publishing and creating registry modules). */
  manageModules?: boolean;
}

export interface Tokens {
  admin: string;
  owner: string;
  member: string;
  /** For the secrets API (a later module); unknown to the platform API. */
  secrets: string;
}

/** Part of the state owned by one module; `save` returns plain JSON. */
export interface Slice {
  save(): unknown;
}

export interface SavedState {
  format: typeof FORMAT;
  tokens: Tokens;
  organizations: string[];
  users: User[];
  teams: Team[];
  slices: Record<string, unknown>;
}

const FORMAT = 'converge-emulator-state/1';

export class State {
  readonly tokens: Tokens;
  readonly users: Store<User>;
  readonly organizations: Set<string>;
  readonly teams: Team[];
  /** The seed the state was built from; slices read their part of it (versions). Empty after a load. */
  readonly seed: SeedData;
  readonly #byToken = new Map<string, User>();
  readonly #slices = new Map<string, Slice>();
  readonly #saved: Record<string, unknown>;

  private constructor(parts: Omit<SavedState, 'format'>, seed: SeedData) {
    this.tokens = parts.tokens;
    this.organizations = new Set(parts.organizations);
    this.users = new Store((user) => user.username, parts.users);
    this.teams = parts.teams;
    this.seed = seed;
    this.#saved = parts.slices;
    for (const user of parts.users) this.#byToken.set(user.token, user);
  }

  static fromSeed(seeds: readonly SeedData[]): State {
    const seed = mergeSeeds(seeds);
    const problems: string[] = [];
    const organizations = (seed.organizations ?? []).map((o) => o.name);
    const users: User[] = [];
    const seen = new Set<string>();
    for (const s of seed.users ?? []) {
      if (seen.has(s.username)) problems.push(`users: username "${s.username}" is declared twice`);
      seen.add(s.username);
      const memberships: Record<string, Role> = {};
      for (const m of s.organizations ?? []) {
        if (!organizations.includes(m.name))
          problems.push(`users: "${s.username}" is in unknown organization "${m.name}"`);
        memberships[m.name] = m.role;
      }
      users.push({
        id: newId('user'),
        username: s.username,
        email: s.email ?? `${s.username}@example.com`,
        avatarUrl: `https://www.gravatar.com/avatar/${s.username}?s=100&d=mm`,
        isAdmin: s.isAdmin ?? false,
        isSuspended: s.isSuspended ?? false,
        isServiceAccount: s.isServiceAccount ?? false,
        twoFactor: s.twoFactor ?? false,
        token: s.token ?? newToken(),
        organizations: memberships,
      });
    }
    const byName = new Map(users.map((u) => [u.username, u]));
    const teams: Team[] = [];
    for (const t of seed.teams ?? []) {
      if (!organizations.includes(t.organization)) {
        problems.push(`teams: "${t.name}" is in unknown organization "${t.organization}"`);
      }
      const members: string[] = [];
      for (const name of t.members) {
        const user = byName.get(name);
        if (user) members.push(user.id);
        else problems.push(`teams: "${t.name}" has unknown member "${name}"`);
      }
      teams.push({
        organization: t.organization,
        name: t.name,
        members,
        ...(t.manageModules && { manageModules: true }),
      });
    }
    if (problems.length > 0) {
      throw new ConvergeError('INPUT_INVALID', `invalid seed:\n  ${problems.join('\n  ')}`, {
        hint: 'see docs/emulator.md for the seed format',
      });
    }
    const token = (name: string) => byName.get(name)?.token ?? newToken();
    const tokens = { admin: token('admin'), owner: token('owner'), member: token('member'), secrets: newToken() };
    return new State({ tokens, organizations, users, teams, slices: {} }, seed);
  }

  static fromSaved(saved: SavedState): State {
    return new State(saved, {});
  }

  /** The module's slice: restored from the saved state when there is one, else made fresh. */
  slice<T extends Slice>(name: string, make: (saved: unknown) => T): T {
    const existing = this.#slices.get(name);
    if (existing) return existing as T;
    const slice = make(this.#saved[name]);
    this.#slices.set(name, slice);
    return slice;
  }

  userByToken(token: string): User | undefined {
    return this.#byToken.get(token);
  }

  deleteUser(user: User): void {
    this.users.delete(user);
    this.#byToken.delete(user.token);
    for (const team of this.teams) team.members = team.members.filter((id) => id !== user.id);
  }

  /** Organizations where this user is the only owner: deleting the user would orphan them. */
  soleOwnerships(user: User): string[] {
    const owned = Object.entries(user.organizations)
      .filter(([, role]) => role === 'owner')
      .map(([org]) => org);
    if (owned.length === 0) return [];
    const others = new Set<string>();
    for (const other of this.users.values()) {
      if (other === user) continue;
      for (const org of owned) if (other.organizations[org] === 'owner') others.add(org);
    }
    return owned.filter((org) => !others.has(org));
  }

  save(): SavedState {
    const slices: Record<string, unknown> = { ...this.#saved };
    for (const [name, slice] of this.#slices) slices[name] = slice.save();
    return {
      format: FORMAT,
      tokens: this.tokens,
      organizations: [...this.organizations],
      users: [...this.users.values()],
      teams: this.teams,
      slices,
    };
  }
}

function mergeSeeds(seeds: readonly SeedData[]): SeedData {
  const merged: Required<SeedData> = {
    organizations: [],
    users: [],
    teams: [],
    toolVersions: [],
    policyVersions: [],
    secrets: mergeSecretsSeeds(seeds.map((s) => s.secrets)),
    registry: Object.assign({}, ...seeds.map((s) => s.registry ?? {})),
  };
  for (const seed of seeds) {
    merged.organizations.push(
      ...(seed.organizations ?? []).filter((o) => !merged.organizations.some((m) => m.name === o.name)),
    );
    merged.users.push(...(seed.users ?? []));
    merged.teams.push(...(seed.teams ?? []));
    merged.toolVersions.push(...(seed.toolVersions ?? []));
    merged.policyVersions.push(...(seed.policyVersions ?? []));
  }
  return merged;
}

/** A state file's content, checked enough that a corrupt or foreign file is refused with a clear message. */
export function checkSaved(data: unknown, path: string): SavedState {
  const fail = (what: string): never => {
    throw new ConvergeError('INPUT_INVALID', `state file ${path} is not an emulator state file: ${what}`, {
      hint: 'delete it (the emulator then starts from its seed) or pass another --state path',
    });
  };
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return fail('not a JSON object');
  const s = data as Record<string, unknown>;
  if (s.format !== FORMAT) fail(`format is not "${FORMAT}"`);
  const tokens = s.tokens as Record<string, unknown> | undefined;
  for (const name of ['admin', 'owner', 'member', 'secrets']) {
    if (typeof tokens?.[name] !== 'string') fail(`tokens.${name} is missing`);
  }
  if (!Array.isArray(s.organizations) || !s.organizations.every((o) => typeof o === 'string')) {
    fail('organizations is not a list of names');
  }
  if (!Array.isArray(s.users)) return fail('users is not a list');
  s.users.forEach((u: unknown, i) => {
    const user = u as Record<string, unknown> | null;
    for (const key of ['id', 'username', 'email', 'avatarUrl', 'token']) {
      if (typeof user?.[key] !== 'string') fail(`users[${i}].${key} is not a string`);
    }
    for (const key of ['isAdmin', 'isSuspended', 'isServiceAccount', 'twoFactor']) {
      if (typeof user?.[key] !== 'boolean') fail(`users[${i}].${key} is not a boolean`);
    }
    if (typeof user?.organizations !== 'object' || user.organizations === null) fail(`users[${i}].organizations`);
  });
  if (!Array.isArray(s.teams)) fail('teams is not a list');
  if (typeof s.slices !== 'object' || s.slices === null) fail('slices is not an object');
  return s as unknown as SavedState;
}
