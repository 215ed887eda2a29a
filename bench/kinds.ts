/**
 * The kinds the benchmarks cover: one entry per kind. A kind added to
 * converge is benchmarked by adding it here: how many requests its plan and
 * apply can take at least, how to put N live objects of it in the emulator,
 * and N manifest documents that differ from them.
 *
 * The convention every entry follows, so that figures are comparable: of
 * the N declared objects, live ones differ from their document by one field
 * (an update); for kinds the API can create, the second half does not exist
 * yet (a create). Singletons are one object whatever N is.
 */
import { getResource, PAGE_SIZE } from '../src/api/jsonapi.ts';
import { requireClient } from '../src/api/require-client.ts';
import type { SeedData } from '../src/emulator/server.ts';
import { providers as registered } from '../src/providers/index.ts';
import { canonicalForms } from '../src/providers/shared/fields.ts';
import { ADMIN_PATH } from '../src/providers/shared/platform.ts';
import { versionFields } from '../src/providers/shared/version-fields.ts';
import { toolVersion } from '../src/providers/tool-version/index.ts';
import type { Provider } from '../src/reconcile/provider.ts';
import type { Fields } from '../src/reconcile/types.ts';
import { UNLIMITED } from './lib/emulator.ts';

/** One manifest document. */
export interface Doc {
  kind: string;
  metadata?: { name: string };
  spec: Fields;
}

/**
 * What the API makes a plan read:
 * - `get`: one GET (settings singletons);
 * - `pages`: list pages of 100 that carry whole objects;
 * - `list-and-read`: list pages of names, then one GET per declared object.
 */
export type ReadCost = 'get' | 'pages' | 'list-and-read';

export interface BenchKind {
  /** Name in reports: the manifest kind, or a bench-only variant of one. */
  name: string;
  /** The manifest kind of the documents. */
  kind: string;
  reads: ReadCost;
  singleton: boolean;
  /** Share of the collection objects in a mixed run; 0 keeps the kind out of mixed runs. */
  mixWeight: number;
  /** Live objects for N declared ones (merged with the other kinds' into one seed). */
  seed(n: number): SeedData;
  /** N declared objects (1 for a singleton). */
  documents(n: number): Doc[];
  /** Fewest requests a plan of `documents(n)` over `seed(n)` can make. */
  planBound(n: number): number;
  /** Fewest requests applying that plan can make (the writes). */
  applyBound(n: number): number;
  /** A provider in place of the registered one of `kind` (bench-only variants). */
  provider?: Provider;
  /** Why the entry exists, when it is not a real kind. */
  note?: string;
}

/** List pages for `live` objects: one even for an empty collection. */
export const pages = (live: number) => Math.max(1, Math.ceil(live / PAGE_SIZE));

const pad = (i: number) => String(i).padStart(5, '0');

/** N distinct valid versions: `7.<i / 1000>.<i % 1000>`. */
const versionName = (i: number) => `7.${Math.floor(i / 1000)}.${i % 1000}`;
const sha = (i: number) => i.toString(16).padStart(64, 'a');

/** The users every emulator starts with (src/emulator/seed.ts defaultSeed). */
const DEFAULT_USERS = 4;

function settingsKind(kind: string, spec: Fields): BenchKind {
  return {
    name: kind,
    kind,
    reads: 'get',
    singleton: true,
    mixWeight: 0,
    seed: () => ({}),
    documents: () => [{ kind, spec }],
    planBound: () => 1,
    applyBound: () => 1,
  };
}

/** Tool and policy versions: the first half live with `enabled: false` (an update), the rest new (a create). */
function versionKind(kind: string, seedKey: 'toolVersions' | 'policyVersions', mixWeight: number): BenchKind {
  const live = (n: number) => Math.floor(n / 2);
  const url = (i: number) => `https://releases.example.com/${seedKey}/${versionName(i)}/build.zip`;
  return {
    name: kind,
    kind,
    reads: 'pages',
    singleton: false,
    mixWeight,
    seed: (n) => ({
      [seedKey]: Array.from({ length: live(n) }, (_, i) => ({
        version: versionName(i),
        url: url(i),
        sha: sha(i),
        enabled: false,
      })),
    }),
    documents: (n) =>
      Array.from({ length: n }, (_, i) => ({
        kind,
        metadata: { name: versionName(i) },
        spec: { url: url(i), sha: sha(i), enabled: true },
      })),
    planBound: (n) => pages(live(n)),
    applyBound: (n) => n,
  };
}

/** Users exist (the API does not create them): every declared one is seeded, and granted admin (one action each). */
const adminUser: BenchKind = {
  name: 'AdminUser',
  kind: 'AdminUser',
  reads: 'pages',
  singleton: false,
  mixWeight: 2,
  seed: (n) => ({ users: Array.from({ length: n }, (_, i) => ({ username: `bench-user-${pad(i)}` })) }),
  documents: (n) =>
    Array.from({ length: n }, (_, i) => ({
      kind: 'AdminUser',
      metadata: { name: `bench-user-${pad(i)}` },
      spec: { 'is-admin': true },
    })),
  planBound: (n) => pages(n + DEFAULT_USERS),
  applyBound: (n) => n,
};

/**
 * ToolVersion read the way the SSH/LDAP secrets kinds will have to be: list
 * pages of names, then one GET per declared object. Until the secrets API
 * exists, this is the most request-hungry read there is; it goes through the
 * engine's real LIST-then-read path (src/reconcile/read.ts).
 */
const toolVersionForms = canonicalForms(versionFields);
const listAndRead: Provider = {
  ...toolVersion,
  async list(ctx, scope) {
    const listed = await toolVersion.list(ctx, scope);
    return listed.map(({ fields: _fields, ...rest }) => rest);
  },
  async read(ctx, object) {
    const resource = await getResource(
      requireClient(ctx.api, 'platform'),
      `${ADMIN_PATH}/tool-versions/${encodeURIComponent(object.ref)}`,
      { signal: ctx.signal },
    );
    return { ...object, fields: toolVersionForms.readable(resource.attributes) };
  },
};

const toolVersions = versionKind('ToolVersion', 'toolVersions', 4);

/** Every object live and updated: N reads after the list, N writes. */
const toolVersionListAndRead: BenchKind = {
  ...toolVersions,
  name: 'ToolVersion(list+read)',
  reads: 'list-and-read',
  mixWeight: 0,
  seed: (n) => toolVersions.seed(2 * n),
  documents: (n) => toolVersions.documents(n),
  planBound: (n) => pages(n) + n,
  applyBound: (n) => n,
  provider: listAndRead,
  note: 'ToolVersion through a provider whose list returns names only: stands in for the SSH/LDAP secrets kinds (LIST, then one GET each) until they exist',
};

export const KINDS: readonly BenchKind[] = [
  // the emulator's limit stays high, or the speed figures would measure the rate limit
  settingsKind('GeneralSettings', { 'api-rate-limit': UNLIMITED, 'plan-timeout': '3h' }),
  settingsKind('CostEstimationSettings', {
    enabled: true,
    'cloud-a-access-key-id': 'bench-key-id',
    'cloud-a-secret-key': 'bench-secret',
  }),
  settingsKind('SAMLSettings', { 'attr-username': 'Login' }),
  settingsKind('SMTPSettings', { host: 'smtp.example.com', port: 587, sender: 'platform@example.com' }),
  settingsKind('SMSSettings', { 'from-number': '+15555550100' }),
  settingsKind('CustomizationSettings', { footer: 'Example Corp' }),
  toolVersions,
  versionKind('PolicyVersion', 'policyVersions', 3),
  adminUser,
  toolVersionListAndRead,
];

/** The kind the scale benchmark plans: the first that needs one read per object. */
export function scaleKind(): BenchKind {
  const perObject = KINDS.filter((k) => k.reads === 'list-and-read');
  return perObject.find((k) => k.provider === undefined) ?? perObject[0] ?? toolVersions;
}

/** Providers of a run: the registered ones, with bench-only variants in place. */
export function providersFor(kinds: readonly BenchKind[]): Map<string, Provider> {
  const map = new Map(registered.map((p) => [p.kind, p]));
  for (const k of kinds) if (k.provider) map.set(k.kind, k.provider);
  return map;
}

/** Seeds of several kinds as one: each list is the concatenation of theirs. */
export function mergeSeeds(seeds: readonly SeedData[]): SeedData {
  const out: Record<string, unknown[]> = {};
  for (const seed of seeds) {
    for (const [key, items] of Object.entries(seed)) {
      if (Array.isArray(items)) out[key] = [...(out[key] ?? []), ...items];
    }
  }
  return out as SeedData;
}

/**
 * A mixed set of `total` objects: every singleton once, the rest shared
 * among the collection kinds by `mixWeight`.
 */
export function mix(total: number): Array<{ kind: BenchKind; n: number }> {
  const singletons = KINDS.filter((k) => k.singleton);
  const collections = KINDS.filter((k) => !k.singleton && k.mixWeight > 0);
  const rest = Math.max(0, total - singletons.length);
  const weights = collections.reduce((sum, k) => sum + k.mixWeight, 0);
  const shares = collections.map((kind) => ({ kind, n: Math.floor((rest * kind.mixWeight) / weights) }));
  // what rounding left over goes to the first collection
  const first = shares[0];
  if (first) first.n += rest - shares.reduce((sum, s) => sum + s.n, 0);
  return [...singletons.map((kind) => ({ kind, n: 1 })), ...shares];
}

/** A mixed set of `total` objects, ready to run: its parts, documents, live state to seed and providers. */
export function mixedSet(total: number) {
  const parts = mix(total);
  return {
    parts,
    docs: parts.flatMap(({ kind, n }) => kind.documents(n)),
    seed: mergeSeeds(parts.map(({ kind, n }) => kind.seed(n))),
    providers: providersFor(parts.map((p) => p.kind)),
  };
}
