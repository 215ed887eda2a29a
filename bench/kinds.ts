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
import { join } from 'node:path';
import { PAGE_SIZE, resourceBody, resourceOf } from '../src/api/jsonapi.ts';
import type { HttpClient } from '../src/api/types.ts';
import {
  DEFAULT_ADMIN_DN,
  DEFAULT_ADMIN_PASSWORD,
  DEFAULT_DIRECTORY_LDIF,
} from '../src/emulator/ldap/directory/default-seed.ts';
import { MEMORY_DIRECTORY_URL } from '../src/emulator/secrets/seed.ts';
import type { SeedData } from '../src/emulator/server.ts';
import { providerFor, providerMap } from '../src/providers/index.ts';
import { orgPath, testsPath } from '../src/providers/registry-module/api.ts';
import { moduleAddress, modulePathOf } from '../src/providers/registry-module/names.ts';
import { secretsPath } from '../src/providers/shared/secrets-api.ts';
import type { Provider } from '../src/reconcile/provider.ts';
import type { Fields } from '../src/reconcile/types.ts';
import { packModule } from '../src/registry/pack.ts';
import { type PopulateClients, UNLIMITED } from './lib/emulator.ts';
import { ROOT } from './lib/paths.ts';

/** One manifest document. */
export interface Doc {
  kind: string;
  metadata?: { name?: string; mount?: string; organization?: string; provider?: string; module?: string };
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
  /**
   * Live objects the seed cannot hold (the secrets API's, the registry's),
   * written through the API before anything is measured
   * (bench/lib/emulator.ts `populate`).
   */
  populate?(clients: PopulateClients, n: number): Promise<void>;
  /** N declared objects (1 for a singleton). */
  documents(n: number): Doc[];
  /**
   * Files the documents read with `${file:name}` (a password), written next
   * to the manifests: name -> content.
   */
  files?: Record<string, string>;
  /** Fewest requests a plan of `documents(n)` over `seed(n)` can make. */
  planBound(n: number): number;
  /** Fewest requests applying that plan can make (the writes). */
  applyBound(n: number): number;
  /** A provider in place of the registered one of `kind` (bench-only variants). */
  provider?: Provider;
}

/** List pages for `live` objects: one even for an empty collection. */
export const pages = (live: number) => Math.max(1, Math.ceil(live / PAGE_SIZE));

const pad = (i: number) => String(i).padStart(5, '0');

/** N distinct valid versions: `7.<i / 1000>.<i % 1000>`. */
const versionName = (i: number) => `7.${Math.floor(i / 1000)}.${i % 1000}`;
const sha = (i: number) => i.toString(16).padStart(64, 'a');

/** The users every emulator starts with (src/emulator/seed.ts defaultSeed). */
const DEFAULT_USERS = 4;

function settingsKind(kind: string, spec: Fields, files?: Record<string, string>): BenchKind {
  return {
    name: kind,
    kind,
    reads: 'get',
    singleton: true,
    mixWeight: 0,
    seed: () => ({}),
    documents: () => [{ kind, spec }],
    ...(files && { files }),
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

const toolVersions = versionKind('ToolVersion', 'toolVersions', 4);

/** The mount the emulator's default seed gives the SSH engine (src/emulator/secrets/seed.ts). */
const SSH_MOUNT = 'ssh';
const sshPath = (...rest: string[]) => secretsPath(SSH_MOUNT, ...rest);

/**
 * SSH role i as declared: even ones OTP roles, odd ones CA roles, so that
 * both field tables are compared. The live one differs by one field
 * (`default_user` of an OTP role, `ttl` of a CA role).
 */
function sshRoleSpec(i: number, live: boolean): Fields {
  return i % 2 === 0
    ? { key_type: 'otp', default_user: live ? 'root' : 'ubuntu', cidr_list: ['10.0.0.0/8'] }
    : { key_type: 'ca', allow_user_certificates: true, allowed_users: '*', ttl: live ? '1h' : '30m', max_ttl: '12h' };
}

/** A role's POST body: the wire form of a spec (lists as comma-separated strings). */
const wireOf = (spec: Fields): Fields =>
  Object.fromEntries(Object.entries(spec).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : v]));

const roleName = (i: number) => `bench-role-${pad(i)}`;

/** Writes `count` requests through the secrets client, all of them in flight as the client's window allows. */
async function post(secrets: HttpClient, count: number, path: (i: number) => string, body: (i: number) => Fields) {
  await Promise.all(
    Array.from({ length: count }, (_, i) => secrets.request({ method: 'POST', path: path(i), body: body(i) })),
  );
}

/**
 * SSH roles of one mount: LIST (names only; 404 when there are none), then
 * one GET per declared role that is live; one POST per new or changed role.
 * `live(n)` of the N declared roles exist, the first ones.
 */
function sshRoleKind(name: string, live: (n: number) => number): BenchKind {
  return {
    name,
    kind: 'SSHRole',
    reads: 'list-and-read',
    singleton: false,
    mixWeight: 0,
    seed: () => ({}),
    populate: ({ secrets }, n) =>
      post(
        secrets,
        live(n),
        (i) => sshPath('roles', roleName(i)),
        (i) => wireOf(sshRoleSpec(i, true)),
      ),
    documents: (n) =>
      Array.from({ length: n }, (_, i) => ({
        kind: 'SSHRole',
        metadata: { mount: SSH_MOUNT, name: roleName(i) },
        spec: sshRoleSpec(i, false),
      })),
    planBound: (n) => 1 + live(n),
    applyBound: (n) => n,
  };
}

/** The convention: the first half live and updated, the second half created. */
const sshRoles = sshRoleKind('SSHRole', (n) => Math.floor(n / 2));

/** The mount's CA does not exist: one GET (404), then one POST that generates it. */
const sshCertificateAuthority: BenchKind = {
  name: 'SSHCertificateAuthority',
  kind: 'SSHCertificateAuthority',
  reads: 'get',
  singleton: true,
  mixWeight: 0,
  seed: () => ({}),
  documents: () => [
    {
      kind: 'SSHCertificateAuthority',
      metadata: { mount: SSH_MOUNT },
      // a CA is never updated (a new key is a replacement): a create is its change; ed25519 keeps key generation cheap
      spec: { generate_signing_key: true, key_type: 'ed25519' },
    },
  ],
  planBound: () => 1,
  applyBound: () => 1,
};

/** Roles the zero-address list names: they exist and are not declared (the list is the object benchmarked). */
const zeroRoles = ['bench-zero-0', 'bench-zero-1'];

/**
 * The mount's zero-address list names one of two live roles; the document
 * names both (an update). The plan reads the list (one GET) and, because
 * the roles it names are not declared, lists the mount's roles (names only)
 * to check that they exist: converge makes that a plan error rather than
 * the API's 400 at apply time (src/reconcile/engine.ts `addReferenceReads`).
 */
const sshZeroAddress: BenchKind = {
  name: 'SSHZeroAddress',
  kind: 'SSHZeroAddress',
  reads: 'get',
  singleton: true,
  mixWeight: 0,
  seed: () => ({}),
  async populate({ secrets }) {
    await post(
      secrets,
      zeroRoles.length,
      (i) => sshPath('roles', zeroRoles[i] ?? ''),
      () => ({ key_type: 'otp', default_user: 'ubuntu', cidr_list: '10.0.0.0/8' }),
    );
    await secrets.request({ method: 'POST', path: sshPath('config', 'zeroaddress'), body: { roles: zeroRoles[0] } });
  },
  documents: () => [{ kind: 'SSHZeroAddress', metadata: { mount: SSH_MOUNT }, spec: { roles: zeroRoles } }],
  planBound: () => 2,
  applyBound: () => 1,
};

/** The mount the emulator's default seed gives the LDAP engine (src/emulator/secrets/seed.ts). */
const LDAP_MOUNT = 'ldap';
const ldapPath = (...rest: string[]) => secretsPath(LDAP_MOUNT, ...rest);
/** Where the bench's service accounts live: the config's `userdn`. */
const SERVICE_DN = 'ou=service,dc=example,dc=org';
/** The config's `bindpass`: the directory admin's password, in a file the document reads. */
const BINDPASS_FILE = 'bindpass.txt';
const LDAP_FILES = { [BINDPASS_FILE]: `${DEFAULT_ADMIN_PASSWORD}\n` };

/**
 * Every LDAP kind but the config needs the mount configured: written first.
 * The emulator's in-memory directory, bound as its admin.
 */
const configureLdap = (secrets: HttpClient) =>
  secrets.request({
    method: 'POST',
    path: ldapPath('config'),
    body: {
      url: MEMORY_DIRECTORY_URL,
      binddn: DEFAULT_ADMIN_DN,
      bindpass: DEFAULT_ADMIN_PASSWORD,
      userdn: SERVICE_DN,
      userattr: 'cn',
      request_timeout: 90,
    },
  });

/**
 * The mount's config exists (written through the API) and differs from the
 * document by `request_timeout`: one GET, then one POST of what changed.
 * The password comes from a file next to the manifest, as a secret must.
 */
const ldapConfig: BenchKind = {
  name: 'LDAPConfig',
  kind: 'LDAPConfig',
  reads: 'get',
  singleton: true,
  mixWeight: 0,
  seed: () => ({}),
  populate: async ({ secrets }) => {
    await configureLdap(secrets);
  },
  documents: () => [
    {
      kind: 'LDAPConfig',
      metadata: { mount: LDAP_MOUNT },
      spec: {
        url: MEMORY_DIRECTORY_URL,
        binddn: DEFAULT_ADMIN_DN,
        bindpass: `\${file:${BINDPASS_FILE}}`,
        userdn: SERVICE_DN,
        userattr: 'cn',
        // 90 s live
        request_timeout: '1m',
      },
    },
  ],
  files: LDAP_FILES,
  planBound: () => 1,
  applyBound: () => 1,
};

/** Service account i of the bench's directory (`cn=bench-svc-00000` under `ou=service`). */
const accountName = (i: number) => `bench-svc-${pad(i)}`;
const accountDn = (i: number) => `cn=${accountName(i)},${SERVICE_DN}`;

/**
 * A seed whose in-memory directory holds the default tree and `count` more
 * service accounts (static roles and library sets manage existing accounts,
 * one role or set per account).
 */
function directoryWithAccounts(count: number): SeedData {
  const accounts = Array.from({ length: count }, (_, i) =>
    [
      `dn: ${accountDn(i)}`,
      'objectClass: inetOrgPerson',
      `cn: ${accountName(i)}`,
      `sn: ${accountName(i)}`,
      `uid: ${accountName(i)}`,
      `userPassword: ${accountName(i)}-password`,
    ].join('\n'),
  );
  const ldif = [DEFAULT_DIRECTORY_LDIF.trimEnd(), ...accounts].join('\n\n');
  return { secrets: { directories: [{ url: MEMORY_DIRECTORY_URL, ldif: `${ldif}\n` }] } };
}

/**
 * Folders of the LDAP kinds' names: object i is `team-<i % 4>/<name>`, a
 * fixed two-level layout, so that a plan lists the top level and then each
 * folder that holds a live object: `min(live, 4)` more LISTs.
 */
const LDAP_FOLDERS = 4;
const ldapName = (prefix: string) => (i: number) => `team-${i % LDAP_FOLDERS}/${prefix}-${pad(i)}`;

interface LdapRoleShape {
  name: string;
  /** The collection under the mount (`static-role`, `role`, `library`). */
  collection: string;
  /** Names are `team-<i % 4>/<prefix>-<i>`. */
  prefix: string;
  /** GETs per declared live object: library sets read their status too. */
  readsPerObject: number;
  /** Object i as declared, or (`live`) as written before the run: they differ by one field. */
  spec(i: number, live: boolean): Fields;
  /** Service accounts the directory needs for N objects. */
  accounts(n: number): number;
}

/**
 * An LDAP kind of the generic secrets-role shape, hierarchical: the plan
 * LISTs the top level (a 404 when nothing is live), then each folder, then
 * GETs each declared live object (and a set's status); one POST per new or
 * changed object. The first half is live and updated, the second created.
 */
function ldapRoleKind(shape: LdapRoleShape): BenchKind {
  const live = (n: number) => Math.floor(n / 2);
  const name = ldapName(shape.prefix);
  return {
    name: shape.name,
    kind: shape.name,
    reads: 'list-and-read',
    singleton: false,
    mixWeight: 0,
    seed: (n) => (shape.accounts(n) > 0 ? directoryWithAccounts(shape.accounts(n)) : {}),
    async populate({ secrets }, n) {
      await configureLdap(secrets);
      await post(
        secrets,
        live(n),
        (i) => ldapPath(shape.collection, name(i)),
        (i) => wireOf(shape.spec(i, true)),
      );
    },
    documents: (n) =>
      Array.from({ length: n }, (_, i) => ({
        kind: shape.name,
        metadata: { mount: LDAP_MOUNT, name: name(i) },
        spec: shape.spec(i, false),
      })),
    planBound: (n) => 1 + Math.min(live(n), LDAP_FOLDERS) + shape.readsPerObject * live(n),
    applyBound: (n) => n,
  };
}

/** Static roles: account i each, rotated daily when live, twice a day as declared; created without the import rotation. */
const ldapStaticRoles = ldapRoleKind({
  name: 'LDAPStaticRole',
  collection: 'static-role',
  prefix: 'static',
  readsPerObject: 1,
  spec: (i, live) => ({
    username: accountName(i),
    dn: accountDn(i),
    rotation_period: live ? '24h' : '12h',
    // sent on create only (the engine refuses it on update)
    ...(!live && { skip_import_rotation: true }),
  }),
  accounts: (n) => n,
});

const CREATION_LDIF = [
  'dn: cn={{.Username}},ou=people,dc=example,dc=org',
  'objectClass: inetOrgPerson',
  'cn: {{.Username}}',
  'sn: {{.RoleName}}',
  'userPassword: {{.Password}}',
].join('\n');
const DELETION_LDIF = ['dn: cn={{.Username}},ou=people,dc=example,dc=org', 'changetype: delete'].join('\n');

/** Dynamic roles: templated LDIF, no accounts; the live one's `default_ttl` differs. */
const ldapDynamicRoles = ldapRoleKind({
  name: 'LDAPDynamicRole',
  collection: 'role',
  prefix: 'dynamic',
  readsPerObject: 1,
  spec: (_, live) => ({
    creation_ldif: CREATION_LDIF,
    deletion_ldif: DELETION_LDIF,
    default_ttl: live ? '2h' : '1h',
    max_ttl: '8h',
  }),
  accounts: () => 0,
});

/** Library sets: account i in set i (an account belongs to one set); the live one's `ttl` differs. Reads add the status. */
const ldapLibrarySets = ldapRoleKind({
  name: 'LDAPLibrarySet',
  collection: 'library',
  prefix: 'set',
  readsPerObject: 2,
  spec: (i, live) => ({ service_account_names: [accountName(i)], ttl: live ? '2h' : '1h', max_ttl: '24h' }),
  accounts: (n) => n,
});

/** The organization the emulator serves with the admin token (src/emulator/seed.ts). */
const ORG = 'example-org';
/** A realistic module to publish (examples/modules): main, variables, outputs, tests. */
const FIXTURE_MODULE = join(ROOT, 'examples/modules/storage');
const MODULE_PROVIDER = 'aws';
const modulesPath = () => `${orgPath(ORG)}/registry-modules`;

/** The API path of one of the organization's private modules. */
const privateModulePath = (name: string) =>
  modulePathOf(
    moduleAddress({ organization: ORG, registry: 'private', namespace: ORG, name, provider: MODULE_PROVIDER }),
  );

/** Writes `count` chains of requests, all of them in flight as the client's window allows. */
const each = (count: number, chain: (i: number) => Promise<unknown>) =>
  Promise.all(Array.from({ length: count }, (_, i) => chain(i)));

/** A private module without VCS, with its test configuration when `testsEnabled` is given. */
export async function createModule(platform: HttpClient, name: string, testsEnabled?: boolean): Promise<void> {
  await platform.request({
    method: 'POST',
    path: modulesPath(),
    body: resourceBody('registry-modules', { name, provider: MODULE_PROVIDER, 'registry-name': 'private' }),
  });
  if (testsEnabled === undefined) return;
  await platform.request({
    method: 'PATCH',
    path: privateModulePath(name),
    body: resourceBody('registry-modules', { 'test-config': { 'tests-enabled': testsEnabled } }),
  });
}

/** A version of a live module, uploaded (the emulator ingests it before it answers the PUT). */
export async function publishVersion(
  platform: HttpClient,
  module: string,
  version: string,
  bytes: Buffer,
): Promise<void> {
  const path = `${privateModulePath(module)}/versions`;
  const created = await platform.request({
    method: 'POST',
    path,
    body: resourceBody('registry-module-versions', { version }),
  });
  const upload = resourceOf(created.body, `POST ${path}`).links?.upload;
  if (typeof upload !== 'string') throw new Error(`POST ${path}: no links.upload`);
  await platform.request({ method: 'PUT', path: upload, body: bytes });
}

const moduleName = (i: number) => `bench-module-${pad(i)}`;

/**
 * Private modules without versions. The first half is live with tests
 * turned off and declared with them on: one PATCH each. The second half is
 * created: a POST, then a PATCH for the test configuration (the create
 * takes no `test-config`). The plan reads the organization's module list,
 * pages of 100 that carry whole modules.
 */
const registryModules: BenchKind = {
  name: 'RegistryModule',
  kind: 'RegistryModule',
  reads: 'pages',
  singleton: false,
  mixWeight: 0,
  seed: () => ({}),
  populate: async ({ platform }, n) => {
    await each(Math.floor(n / 2), (i) => createModule(platform, moduleName(i), false));
  },
  documents: (n) =>
    Array.from({ length: n }, (_, i) => ({
      kind: 'RegistryModule',
      metadata: { organization: ORG, name: moduleName(i), provider: MODULE_PROVIDER },
      spec: { 'test-config': { 'tests-enabled': true } },
    })),
  planBound: (n) => pages(Math.floor(n / 2)),
  applyBound: (n) => Math.floor(n / 2) + 2 * (n - Math.floor(n / 2)),
};

/** The one module whose versions are benchmarked. */
const VERSIONED_MODULE = 'bench-versions';

/** A module with N declared versions of `source`: requests to publish each that does not exist. */
export function versionDocument(module: string, versions: readonly string[], source: string): Doc {
  return {
    kind: 'RegistryModule',
    metadata: { organization: ORG, name: module, provider: MODULE_PROVIDER },
    spec: { versions: versions.map((version) => ({ version, source })) },
  };
}

/** Publishing one version: POST the version, PUT its archive to `links.upload`, GET the module until it is `ok`. */
export const REQUESTS_PER_VERSION = 3;

/**
 * One live module and N declared versions of a realistic module directory
 * (a version is immutable: nothing to update). The first half is live and
 * unchanged, the second half is published. The plan reads the module list
 * (one page: it carries every version's status); each new version costs
 * POST, PUT of the archive and one GET (the emulator ingests before it
 * answers the PUT, so the first GET finds the version `ok`).
 */
const registryModuleVersions: BenchKind = {
  name: 'RegistryModuleVersion',
  kind: 'RegistryModule',
  reads: 'pages',
  singleton: false,
  mixWeight: 0,
  seed: () => ({}),
  populate: async ({ platform }, n) => {
    await createModule(platform, VERSIONED_MODULE);
    const { bytes } = await packModule(FIXTURE_MODULE);
    await each(Math.floor(n / 2), (i) => publishVersion(platform, VERSIONED_MODULE, versionName(i), bytes));
  },
  documents: (n) => [
    versionDocument(
      VERSIONED_MODULE,
      Array.from({ length: n }, (_, i) => versionName(i)),
      FIXTURE_MODULE,
    ),
  ],
  planBound: () => 1,
  applyBound: (n) => REQUESTS_PER_VERSION * (n - Math.floor(n / 2)),
};

/** Variables per module: each module's list is one GET, whatever it holds. */
const VARIABLES_PER_MODULE = 10;
const testedModule = (i: number) => `bench-tested-${pad(Math.floor(i / VARIABLES_PER_MODULE))}`;
const variableKey = (i: number) => `TF_VAR_bench_${pad(i)}`;
const variablesPath = (module: string) => `${testsPath(ORG, module, MODULE_PROVIDER)}/vars`;

/**
 * Test variables, ten per module, of modules that all exist (the bench's
 * only modules). The first half of the variables is live with another value
 * (a PATCH each), the second half is created (a POST each). The plan lists
 * each module's variables, one GET per module that has declared ones, and,
 * because the modules they reference are not declared, the organization's
 * module list (pages of 100) to check that they exist: converge makes a
 * missing module a plan error rather than the API's 404 at apply
 * (src/reconcile/engine.ts `addReferenceReads`), as for SSHZeroAddress.
 * With the modules declared in the same run, that list is theirs.
 */
const moduleTestVariables: BenchKind = {
  name: 'ModuleTestVariable',
  kind: 'ModuleTestVariable',
  reads: 'list-and-read',
  singleton: false,
  mixWeight: 0,
  seed: () => ({}),
  populate: async ({ platform }, n) => {
    const modules = Math.ceil(n / VARIABLES_PER_MODULE);
    await each(modules, (j) => createModule(platform, testedModule(j * VARIABLES_PER_MODULE)));
    await each(Math.floor(n / 2), (i) =>
      platform.request({
        method: 'POST',
        path: variablesPath(testedModule(i)),
        body: resourceBody('vars', { key: variableKey(i), value: `live-${i}`, category: 'env' }),
      }),
    );
  },
  documents: (n) =>
    Array.from({ length: n }, (_, i) => ({
      kind: 'ModuleTestVariable',
      metadata: { organization: ORG, module: `${testedModule(i)}/${MODULE_PROVIDER}`, name: variableKey(i) },
      spec: { value: `declared-${i}`, description: 'set by the bench' },
    })),
  planBound: (n) => pages(Math.ceil(n / VARIABLES_PER_MODULE)) + Math.ceil(n / VARIABLES_PER_MODULE),
  applyBound: (n) => n,
};

export const KINDS: readonly BenchKind[] = [
  // the emulator's limit stays high, or the speed figures would measure the rate limit
  settingsKind('GeneralSettings', { 'api-rate-limit': UNLIMITED, 'plan-timeout': '3h' }),
  // credentials are write-only, so from files next to the manifests: a literal secret is refused
  settingsKind(
    'CostEstimationSettings',
    {
      enabled: true,
      'cloud-a-access-key-id': `\${file:cloud-a-key-id.txt}`,
      'cloud-a-secret-key': `\${file:cloud-a-secret.txt}`,
    },
    { 'cloud-a-key-id.txt': 'bench-key-id', 'cloud-a-secret.txt': 'bench-secret' },
  ),
  settingsKind('SAMLSettings', { 'attr-username': 'Login' }),
  settingsKind('SMTPSettings', { host: 'smtp.example.com', port: 587, sender: 'platform@example.com' }),
  settingsKind('SMSSettings', { 'from-number': '+15555550100' }),
  settingsKind('CustomizationSettings', { footer: 'Example Corp' }),
  toolVersions,
  versionKind('PolicyVersion', 'policyVersions', 3),
  adminUser,
  sshRoles,
  sshCertificateAuthority,
  sshZeroAddress,
  ldapConfig,
  ldapStaticRoles,
  ldapDynamicRoles,
  ldapLibrarySets,
  registryModules,
  registryModuleVersions,
  moduleTestVariables,
];

/**
 * The kind the scale benchmark plans: SSH roles, which need one read per
 * object, every declared one live (and updated), so that the plan makes
 * the most requests N objects can need: the LIST, then N GETs.
 */
export function scaleKind(): BenchKind {
  return { ...sshRoleKind('SSHRole', (n) => n), name: 'SSHRole(all live)' };
}

/** Providers of a run: the registered ones (a module's versions included, as the CLI has them), with bench-only variants in place. */
export function providersFor(kinds: readonly BenchKind[]): Map<string, Provider> {
  const map = new Map(providerMap);
  for (const k of kinds) if (k.provider) map.set(k.kind, k.provider);
  return map;
}

/** Seeds of several kinds as one: each list is the concatenation of theirs, and so is each list of `secrets`. */
export function mergeSeeds(seeds: readonly SeedData[]): SeedData {
  const out: Record<string, unknown[]> = {};
  const secrets: Record<string, unknown[]> = {};
  for (const seed of seeds) {
    for (const [key, items] of Object.entries(seed)) {
      if (Array.isArray(items)) out[key] = [...(out[key] ?? []), ...items];
    }
    for (const [key, items] of Object.entries(seed.secrets ?? {})) {
      if (Array.isArray(items)) secrets[key] = [...(secrets[key] ?? []), ...items];
    }
  }
  return (Object.keys(secrets).length > 0 ? { ...out, secrets } : out) as SeedData;
}

/**
 * A mixed set of `total` objects of the platform API: every singleton
 * once, the rest shared among the collection kinds by `mixWeight`.
 */
export function mix(total: number): Array<{ kind: BenchKind; n: number }> {
  // the platform API's kinds only: the memory and start-up suites run `converge` with the platform's URL and token alone
  const platform = KINDS.filter((k) => providerFor(k.kind)?.api === 'platform');
  const singletons = platform.filter((k) => k.singleton);
  const collections = platform.filter((k) => !k.singleton && k.mixWeight > 0);
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
    /** What the documents read with `${file:}`, written next to them. */
    files: Object.assign({}, ...parts.map(({ kind }) => kind.files ?? {})) as Record<string, string>,
    seed: mergeSeeds(parts.map(({ kind, n }) => kind.seed(n))),
    providers: providersFor(parts.map((p) => p.kind)),
  };
}
