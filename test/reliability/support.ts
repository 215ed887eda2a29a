/** What the reliability tests share: run sizes, the emulator they start, manifests on disk, recorded requests. */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { stringify } from 'yaml';
import { delegate } from '../../src/api/delegate.ts';
import type { HttpClient, HttpResponse, RequestOptions } from '../../src/api/types.ts';
import { DEFAULT_DIRECTORY_LDIF } from '../../src/emulator/ldap/directory/default-seed.ts';
import { type EmulatorOptions, type RunningEmulator, startEmulator } from '../../src/emulator/server.ts';
import { packModule } from '../../src/registry/pack.ts';
import { api, secrets, type Target } from '../helpers/engine.ts';
import type { Generated, ManifestDoc } from './arbitraries.ts';
import { LDAP_EXTRA_ACCOUNTS, LDAP_URL, MANAGED_USERS } from './arbitraries.ts';

/** `.ci/run` sets CONVERGE_FULL_RUN=1: the property tests then run their full number of cases. */
export const FULL_RUN = process.env.CONVERGE_FULL_RUN === '1';

/** Property cases per kind: at least 200 in the full run, a quick sample otherwise. */
export const CASES_PER_KIND = FULL_RUN ? 200 : 20;

/** Users for AdminUser cases, on top of the emulator's own (admin, owner, member, ci-bot). */
export const USERS_SEED = {
  users: MANAGED_USERS.map((username) => ({
    username,
    organizations: [{ name: 'example-org', role: 'member' as const }],
  })),
};

/** The users' seed, plus SSH engines mounted at `mounts` (the emulator mounts `ssh` in any case). */
export function sshSeed(mounts: readonly string[]) {
  return { ...USERS_SEED, secrets: { mounts: mounts.map((path) => ({ path, type: 'ssh' as const })) } };
}

/** The built-in directory's entries, and the service accounts the LDAP kinds' cases add under `ou=service`. */
export const LDAP_DIRECTORY_LDIF = [
  DEFAULT_DIRECTORY_LDIF.trimEnd(),
  ...LDAP_EXTRA_ACCOUNTS.map((account) =>
    [
      `dn: cn=${account},ou=service,dc=example,dc=org`,
      'objectClass: inetOrgPerson',
      `cn: ${account}`,
      `sn: ${account}`,
      `uid: ${account}`,
      `userPassword: ${account}-password`,
    ].join('\n'),
  ),
].join('\n\n');

/** A directory of its own at `url` (the built-in entries and the extra accounts): a root rotation there locks nobody else out. */
export function ldapDirectory(url: string = LDAP_URL): { url: string; ldif: string } {
  return { url, ldif: `${LDAP_DIRECTORY_LDIF}\n` };
}

/**
 * The users' seed, plus engines mounted at `ssh` (SSH) and `ldap` (LDAP),
 * whose in-memory directory at LDAP_URL has the extra service accounts, and
 * any `directories` more. (The emulator mounts `ssh` and `ldap` in any case.)
 */
export function secretsSeed(
  mounts: { ssh?: readonly string[]; ldap?: readonly string[] },
  directories: ReadonlyArray<{ url: string; ldif: string }> = [],
) {
  return {
    ...USERS_SEED,
    secrets: {
      mounts: [
        ...(mounts.ssh ?? []).map((path) => ({ path, type: 'ssh' as const })),
        ...(mounts.ldap ?? []).map((path) => ({ path, type: 'ldap' as const })),
      ],
      directories: [ldapDirectory(), ...directories],
    },
  };
}

/** The platform and secrets APIs of an emulator (one URL, two tokens). */
export function targetOf(server: RunningEmulator): Target {
  return { url: server.url, token: server.tokens.admin, secretsToken: server.tokens.secrets };
}

/**
 * Empties SSH mounts, so that a case starts from nothing: every role (a
 * LIST that answers 404 has none), the zero-address list and the CA.
 */
export async function emptySshMounts(target: Target, mounts: readonly string[]): Promise<void> {
  const expectOk = (what: string, status: number, allowed: readonly number[]) => {
    if (!allowed.includes(status)) throw new Error(`${what}: ${status}`);
  };
  for (const mount of mounts) {
    const listed = await secrets(target, 'GET', `/${mount}/roles?list=true`);
    expectOk(`LIST /v1/${mount}/roles`, listed.status, [200, 404]);
    const keys = ((listed.body?.data as { keys?: string[] } | undefined)?.keys ?? []) as string[];
    for (const name of keys) {
      const deleted = await secrets(target, 'DELETE', `/${mount}/roles/${encodeURIComponent(name)}`);
      expectOk(`DELETE /v1/${mount}/roles/${name}`, deleted.status, [204]);
    }
    for (const path of ['config/zeroaddress', 'config/ca']) {
      const deleted = await secrets(target, 'DELETE', `/${mount}/${path}`);
      expectOk(`DELETE /v1/${mount}/${path}`, deleted.status, [204, 404]);
    }
  }
}

/** The collections of an LDAP mount, emptied in this order (the config last: the others need it). */
const LDAP_COLLECTIONS = ['role', 'static-role', 'library'] as const;

/** Every name in a hierarchical collection of the secrets API: one LIST per folder (folders end in `/`). */
export async function listHierarchy(target: Target, mount: string, collection: string): Promise<string[]> {
  const names: string[] = [];
  const folders = [''];
  for (let folder = folders.shift(); folder !== undefined; folder = folders.shift()) {
    const path = `/${mount}/${collection}${folder === '' ? '' : `/${folder.split('/').map(encodeURIComponent).join('/')}`}`;
    const listed = await secrets(target, 'GET', `${path}?list=true`);
    if (listed.status === 404) continue;
    if (listed.status !== 200) throw new Error(`LIST /v1${path}: ${listed.status}`);
    for (const key of ((listed.body?.data as { keys?: string[] } | undefined)?.keys ?? []) as string[]) {
      if (key.endsWith('/')) folders.push(`${folder}${key}`);
      else names.push(`${folder}${key}`);
    }
  }
  return names;
}

/** The secrets-API path of a name in a collection (`/ldap/static-role/apps/app1`), each segment encoded. */
export function ldapPath(mount: string, collection: string, name: string): string {
  return `/${mount}/${collection}/${name.split('/').map(encodeURIComponent).join('/')}`;
}

/**
 * Empties LDAP mounts, so that a case starts from nothing: dynamic roles,
 * static roles and library sets (walking their folders), then the config.
 */
export async function emptyLdapMounts(target: Target, mounts: readonly string[]): Promise<void> {
  for (const mount of mounts) {
    for (const collection of LDAP_COLLECTIONS) {
      for (const name of await listHierarchy(target, mount, collection)) {
        const deleted = await secrets(target, 'DELETE', ldapPath(mount, collection, name));
        if (deleted.status !== 204)
          throw new Error(`DELETE /v1${ldapPath(mount, collection, name)}: ${deleted.status}`);
      }
    }
    const deleted = await secrets(target, 'DELETE', `/${mount}/config`);
    if (![204, 404].includes(deleted.status)) throw new Error(`DELETE /v1/${mount}/config: ${deleted.status}`);
  }
}

export interface Emulator extends RunningEmulator {
  /** Every line the emulator logged. */
  logs: string[];
}

/** An emulator on a free port that does not enforce its rate limit (the tests measure correctness, not pacing). */
export async function emulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const logs: string[] = [];
  const running = await startEmulator({
    port: 0,
    rateLimit: false,
    seed: USERS_SEED,
    ...options,
    log: (line) => {
      logs.push(line);
      options.log?.(line);
    },
  });
  return Object.assign(running, { logs });
}

export async function scratchDir(prefix: string): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), `converge-${prefix}-`));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** Documents as one multi-document YAML text. */
export function toYaml(docs: readonly ManifestDoc[]): string {
  return docs.map((d) => stringify(d, { lineWidth: 0 })).join('---\n');
}

export async function writeManifest(path: string, docs: readonly ManifestDoc[]): Promise<string> {
  await writeFile(path, toYaml(docs));
  return path;
}

/** One request a provider made (retries inside the client are not separate entries). */
export interface Recorded {
  method: string;
  path: string;
  body?: unknown;
  status?: number;
  /** When the request failed: its status (if the server answered) and whether it may have been applied. */
  error?: { status?: number; outcome?: string; message: string };
}

/** A client that records every request providers make through it. */
export function recording(client: HttpClient, log: Recorded[]): HttpClient {
  return delegate(client, async <T>(options: RequestOptions): Promise<HttpResponse<T>> => {
    const entry: Recorded = { method: options.method, path: options.path, body: options.body };
    log.push(entry);
    try {
      const response = await client.request<T>(options);
      entry.status = response.status;
      return response;
    } catch (error) {
      const e = error as { status?: number; outcome?: string; message?: string };
      entry.error = {
        ...(e.status !== undefined && { status: e.status }),
        ...(e.outcome !== undefined && { outcome: e.outcome }),
        message: String(e.message),
      };
      throw error;
    }
  });
}

/**
 * Writes what a case reads from disk under `dir` (its manifest's directory):
 * the files, then the archives packed from their module directories.
 */
export async function materialize(dir: string, generated: Pick<Generated, 'files' | 'archives'>): Promise<void> {
  for (const [path, content] of Object.entries(generated.files ?? {})) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), content);
  }
  for (const [archive, module] of Object.entries(generated.archives ?? {})) {
    const packed = await packModule(resolve(dir, module));
    await mkdir(dirname(resolve(dir, archive)), { recursive: true });
    await writeFile(resolve(dir, archive), packed.bytes);
  }
}

/** The path of an organization's registry modules in the platform API (under /api/v2). */
export const registryModulesPath = (organization: string) =>
  `/organizations/${encodeURIComponent(organization)}/registry-modules`;

/** A module the registry lists, as its attributes say. */
export interface ListedModule {
  id: string;
  attributes: {
    name: string;
    namespace: string;
    provider: string;
    'registry-name': 'private' | 'public';
    'version-statuses': Array<{ version: string; status: string; error?: string }>;
    'test-config': { 'tests-enabled': boolean } | null;
    'no-code': boolean;
  };
}

/** Every module of an organization's registry (each page). */
export async function registryModules(target: Target, organization: string): Promise<ListedModule[]> {
  const out: ListedModule[] = [];
  for (let page = 1; ; page++) {
    const listed = await api(
      target,
      'GET',
      `${registryModulesPath(organization)}?page%5Bnumber%5D=${page}&page%5Bsize%5D=100`,
    );
    if (listed.status !== 200) throw new Error(`GET ${registryModulesPath(organization)}: ${listed.status}`);
    const data = (listed.body?.data ?? []) as ListedModule[];
    out.push(...data);
    const next = (listed.body?.meta as { pagination?: { 'next-page'?: number | null } } | undefined)?.pagination?.[
      'next-page'
    ];
    if (!next || data.length === 0) return out;
  }
}

/** The API path of a listed module: the private form, or the public one by namespace and name only. */
export function modulePathOf(organization: string, m: ListedModule, version?: string): string {
  const a = m.attributes;
  const enc = encodeURIComponent;
  if (a['registry-name'] === 'public')
    return `${registryModulesPath(organization)}/public/${enc(a.namespace)}/${enc(a.name)}`;
  return `${registryModulesPath(organization)}/private/${enc(a.namespace)}/${enc(a.name)}/${enc(a.provider)}${
    version === undefined ? '' : `/${enc(version)}`
  }`;
}

/**
 * Empties organizations' registries, so that a case starts from nothing:
 * each module is deleted through the API (its versions and test variables with it).
 */
export async function emptyRegistry(target: Target, organizations: readonly string[]): Promise<void> {
  for (const organization of organizations) {
    for (const m of await registryModules(target, organization)) {
      const path = modulePathOf(organization, m);
      const deleted = await api(target, 'DELETE', path);
      // a public record of several providers goes at once: a later one is already gone
      if (![204, 404].includes(deleted.status)) throw new Error(`DELETE ${path}: ${deleted.status}`);
    }
    const left = await registryModules(target, organization);
    if (left.length > 0) throw new Error(`${organization}: ${left.length} modules left after emptying`);
  }
}
