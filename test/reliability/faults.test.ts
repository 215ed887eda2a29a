/**
 * Faults: the emulator fails 20 % of requests with a 429, a 500, a 503, a
 * dropped connection, a timeout or a lost answer (applied, then the
 * connection dropped), each alone and all mixed. An apply of every kind
 * (test/fixtures/kinds plus creates, updates and deletes of versions, and of
 * SSH roles in two mounts of the secrets API with a generated CA and a
 * zero-address list, and of the LDAP engine's config, static roles, dynamic
 * roles and library sets in two mounts, and of the module registry: module
 * creates, updates and deletes, version uploads from directories and
 * archives, test variables created, updated, replaced and deleted) then:
 * - reports every action as done or failed with a message, counts that match,
 *   and "done" only for what really is done;
 * - creates nothing twice: a create whose answer was lost is read back, not repeated
 *   (a static role's creation rotates its account's password: once; a
 *   version's POST is not repeated blindly, and each upload link is used once);
 * - touches nothing outside the plan (seeded versions no manifest mentions stay as they were);
 * - converges: applying again (still under faults) ends with a plan of 0 changes,
 *   and the registry holds each declared version once, uploaded.
 * Three bugs of the registry kinds that these scenarios found are fixed; the
 * reproductions at the end keep them fixed.
 * The platform API advertises its rate limit, as the platform does (see
 * ADVERTISED_LIMIT); a held request outlasts the client's timeout (HOLD_MS).
 */
import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { delegate } from '../../src/api/delegate.ts';
import { ApiError, NetworkError } from '../../src/api/errors.ts';
import type { HttpClient, HttpResponse, RequestOptions } from '../../src/api/types.ts';
import type { FaultKind, SeedData } from '../../src/emulator/server.ts';
import { kebabKind } from '../../src/export/names.ts';
import { addressKey } from '../../src/reconcile/address.ts';
import type { ApplySummary, ReconcileEvent } from '../../src/reconcile/events.ts';
import type { DesiredObject, PlannedAction } from '../../src/reconcile/types.ts';
import { packModule } from '../../src/registry/pack.ts';
import { api, apply, changes, desiredFrom, plan, providerMap, secrets, type Target } from '../helpers/engine.ts';
import { KINDS_FIXTURE, kindsFixtureSecrets } from '../helpers/kinds-fixture.ts';
import {
  FIXTURE_MODULES,
  LDAP_ADMIN_DN,
  LDAP_ADMIN_PASSWORD,
  LDAP_URL,
  type ManifestDoc,
  REGISTRY_ORG,
} from './arbitraries.ts';
import {
  type Emulator,
  emulator,
  type ListedModule,
  ldapPath,
  listHierarchy,
  materialize,
  type Recorded,
  recording,
  registryModules,
  registryModulesPath,
  scratchDir,
  secretsSeed,
  targetOf,
  writeManifest,
} from './support.ts';

const KINDS = KINDS_FIXTURE;
const ENV = kindsFixtureSecrets('faults');
/** The public key of the fixture's CA (test/fixtures/kinds/ssh-ca.pub), as the service reads it back. */
const FIXTURE_CA_PUBLIC_KEY = readFileSync(join(KINDS, 'ssh-ca.pub'), 'utf8').trim().split(/\s+/).slice(0, 2).join(' ');
const SHA = 'ab'.repeat(32);
const url = (v: string) => `https://releases.example.com/tool/${v}/tool.zip`;

/** Versions on the server before the apply: some the manifests change, some they never mention. */
const SSH_MOUNTS = ['ssh', 'ssh-prod'];
/** `ldap-new` gets only a config: see LDAP_SEEDED. */
const LDAP_MOUNTS = ['ldap', 'ldap-prod', 'ldap-new'];
const SEED: SeedData = {
  ...secretsSeed({ ssh: SSH_MOUNTS, ldap: LDAP_MOUNTS }),
  toolVersions: [
    { version: '0.1.0', url: url('0.1.0'), sha: SHA },
    { version: '0.2.0', url: url('0.2.0'), sha: SHA, official: true, usage: 3 },
    { version: '0.3.0', url: url('0.3.0'), sha: SHA, deprecated: true, deprecatedReason: 'old' },
    { version: '1.4.0', url: url('1.4.0'), sha: SHA },
    { version: '1.5.0', url: url('1.5.0'), sha: SHA },
  ],
  policyVersions: [
    { version: '0.0.1', url: url('p0.0.1'), sha: SHA },
    { version: '0.20.0', url: url('p0.20.0'), sha: SHA },
  ],
};
const UNTOUCHED = { 'tool-versions': ['0.1.0', '0.2.0', '0.3.0'], 'policy-versions': ['0.0.1'] };

/** SSH roles on the server before the apply (written through the API): one the manifests change, one they delete, two they never mention. */
const SSH_SEEDED: Array<{ mount: string; name: string; body: Record<string, unknown> }> = [
  { mount: 'ssh', name: 'ops', body: { key_type: 'ca', allow_user_certificates: true, ttl: 3600 } },
  { mount: 'ssh', name: 'legacy-otp', body: { key_type: 'otp', default_user: 'root', cidr_list: '10.9.0.0/16' } },
  {
    mount: 'ssh',
    name: 'untouched-ca',
    body: { key_type: 'ca', allow_host_certificates: true, allowed_domains: 'example.net', max_ttl: '24h' },
  },
  {
    mount: 'ssh-prod',
    name: 'prod-untouched',
    body: { key_type: 'otp', default_user: 'admin', cidr_list: '172.16.0.0/12', port: 2022 },
  },
];
const SSH_UNTOUCHED = ['ssh/untouched-ca', 'ssh-prod/prod-untouched'];

/** The LDAP collections, by kind: `/v1/<mount>/<collection>/<name>`. */
const LDAP_COLLECTIONS: Record<string, string> = {
  LDAPStaticRole: 'static-role',
  LDAPDynamicRole: 'role',
  LDAPLibrarySet: 'library',
};

const CREATION_LDIF = [
  'dn: cn={{.Username}},ou=people,dc=example,dc=org',
  'objectClass: inetOrgPerson',
  'cn: {{.Username}}',
  'sn: {{.RoleName | uppercase}}',
  'userPassword: {{.Password}}',
].join('\n');
const DELETION_LDIF = 'dn: cn={{.Username}},ou=people,dc=example,dc=org\nchangetype: delete';

const SEEDED_CONFIG = {
  url: LDAP_URL,
  binddn: LDAP_ADMIN_DN,
  bindpass: LDAP_ADMIN_PASSWORD,
  userdn: 'ou=service,dc=example,dc=org',
};

/**
 * LDAP objects before the apply (written through the API, configs first):
 * some the manifests change or delete, some they never mention.
 *
 * Both mounts that hold roles and sets are configured already (the apply
 * updates their configs), and the config the apply creates is in a mount of
 * its own, `ldap-new`, so each scenario exercises config updates and a
 * config create; that roles wait for their mount's config in one apply is
 * covered by the idempotence test.
 */
const LDAP_SEEDED: Array<{ path: string; body: Record<string, unknown> }> = [
  { path: '/ldap/config', body: SEEDED_CONFIG },
  { path: '/ldap-prod/config', body: SEEDED_CONFIG },
  { path: '/ldap-prod/static-role/prod/rotating', body: { username: 'svc-p10', rotation_period: '1h' } },
  { path: '/ldap-prod/static-role/legacy/old', body: { username: 'svc-p11', rotation_period: 3600 } },
  { path: '/ldap-prod/static-role/untouched/keep', body: { username: 'svc-p12', rotation_period: '24h' } },
  {
    path: '/ldap-prod/role/update-me',
    body: { creation_ldif: CREATION_LDIF, deletion_ldif: DELETION_LDIF, default_ttl: 600 },
  },
  { path: '/ldap-prod/role/legacy-dyn', body: { creation_ldif: CREATION_LDIF, deletion_ldif: DELETION_LDIF } },
  { path: '/ldap-prod/role/untouched/dyn', body: { creation_ldif: CREATION_LDIF, deletion_ldif: DELETION_LDIF } },
  { path: '/ldap-prod/library/prod-batch', body: { service_account_names: 'svc-p13,svc-p14', ttl: '1h' } },
  { path: '/ldap-prod/library/old-set', body: { service_account_names: ['svc-p15'] } },
  { path: '/ldap-prod/library/untouched-set', body: { service_account_names: ['svc-p16'], max_ttl: '48h' } },
];
const LDAP_UNTOUCHED = ['static-role/untouched/keep', 'role/untouched/dyn', 'library/untouched-set'];

/**
 * LDAP objects on top of the fixture's (which configures `ldap` and creates
 * one of each there): a config's creation, creates in both mounts (static
 * roles with and without the import rotation, hierarchical names), updates
 * of the seeded configs, a static role, a dynamic role and a set, and deletes.
 */
const LDAP_EXTRA: ManifestDoc[] = [
  {
    kind: 'LDAPConfig',
    metadata: { mount: 'ldap-new' },
    spec: {
      url: `${LDAP_URL}, ldaps://ldap-backup.example.org`,
      binddn: LDAP_ADMIN_DN,
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a placeholder, read from the environment
      bindpass: '${env:LDAP_BINDPASS}',
      schema: 'ad',
      userattr: 'cn',
      password_policy: 'strict',
      rotation_schedule: '0 3 * * 0',
      rotation_window: '2h',
    },
  },
  {
    kind: 'LDAPConfig',
    metadata: { mount: 'ldap-prod' },
    spec: {
      url: LDAP_URL,
      binddn: LDAP_ADMIN_DN,
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a placeholder, read from the environment
      bindpass: '${env:LDAP_BINDPASS}',
      userdn: 'ou=service,dc=example,dc=org',
      userattr: 'uid',
      request_timeout: '45s',
      length: 40,
    },
  },
  ...Array.from(
    { length: 6 },
    (_, i): ManifestDoc => ({
      kind: 'LDAPStaticRole',
      metadata: { mount: i % 2 === 0 ? 'ldap' : 'ldap-prod', name: `team-${i % 3}/svc/p${i}` },
      spec: {
        username: `svc-p${i}`,
        ...(i % 3 === 1 && { dn: `cn=svc-p${i},ou=service,dc=example,dc=org` }),
        rotation_period: i % 2 === 0 ? '12h' : 7200,
        ...(i % 3 === 2 && { skip_import_rotation: true }),
        ...(i === 3 && { skip_import_rotation: false }),
      },
    }),
  ),
  {
    kind: 'LDAPStaticRole',
    metadata: { mount: 'ldap-prod', name: 'prod/rotating' },
    spec: { username: 'svc-p10', rotation_period: '2h' },
  },
  { kind: 'LDAPStaticRole', metadata: { mount: 'ldap-prod', name: 'legacy/old' }, ensure: 'absent' },
  ...Array.from(
    { length: 4 },
    (_, i): ManifestDoc => ({
      kind: 'LDAPDynamicRole',
      metadata: { mount: i < 2 ? 'ldap' : 'ldap-prod', name: `dyn/Role-${i}` },
      spec: {
        creation_ldif:
          i % 2 === 0 ? CREATION_LDIF : Buffer.from(CREATION_LDIF.replaceAll('\n', '\r\n')).toString('base64'),
        deletion_ldif: `${DELETION_LDIF}\n\n`,
        rollback_ldif: DELETION_LDIF,
        username_template: `{{printf "d${i}_%s" (random 8) | lowercase}}`,
        default_ttl: '1h',
        max_ttl: i === 0 ? 0 : '24h',
      },
    }),
  ),
  {
    kind: 'LDAPDynamicRole',
    metadata: { mount: 'ldap-prod', name: 'update-me' },
    spec: {
      creation_ldif: CREATION_LDIF,
      deletion_ldif: DELETION_LDIF,
      rollback_ldif: DELETION_LDIF,
      default_ttl: '20m',
    },
  },
  { kind: 'LDAPDynamicRole', metadata: { mount: 'ldap-prod', name: 'legacy-dyn' }, ensure: 'absent' },
  ...Array.from(
    { length: 3 },
    (_, i): ManifestDoc => ({
      kind: 'LDAPLibrarySet',
      metadata: { mount: i === 0 ? 'ldap' : 'ldap-prod', name: `sets/s${i}` },
      spec: { service_account_names: [`svc-p${17 + i}`, `svc-p${6 + i}`], ttl: '2h', max_ttl: '10h' },
    }),
  ),
  {
    kind: 'LDAPLibrarySet',
    metadata: { mount: 'ldap-prod', name: 'prod-batch' },
    spec: {
      service_account_names: ['svc-p14', 'svc-p13', 'svc-batch3'],
      ttl: '3h',
      disable_check_in_enforcement: true,
    },
  },
  { kind: 'LDAPLibrarySet', metadata: { mount: 'ldap-prod', name: 'old-set' }, ensure: 'absent' },
];

/** SSH objects on top of the fixture's: creates of roles in a second mount, its generated CA and zero-address list, an update and a delete. */
const SSH_EXTRA: ManifestDoc[] = [
  ...Array.from(
    { length: 5 },
    (_, i): ManifestDoc => ({
      kind: 'SSHRole',
      metadata: { mount: 'ssh-prod', name: `prod-otp-${i}` },
      spec: {
        key_type: 'otp',
        default_user: `user${i}`,
        cidr_list: [`10.${i}.0.0/16`, `2001:db8:${i}::/48`],
        ...(i % 2 === 0 && { exclude_cidr_list: `10.${i}.9.0/24, 10.${i}.8.0/24`, port: 2200 + i }),
      },
    }),
  ),
  ...Array.from(
    { length: 5 },
    (_, i): ManifestDoc => ({
      kind: 'SSHRole',
      metadata: { mount: 'ssh-prod', name: `prod-ca-${i}` },
      spec: {
        key_type: 'ca',
        allow_user_certificates: true,
        allow_host_certificates: i % 2 === 0,
        allowed_users: i % 2 === 0 ? '*' : ['deploy', 'ops'],
        allowed_domains: 'example.com, example.org',
        allow_subdomains: true,
        ttl: '30m',
        max_ttl: `${i + 1}h`,
        ...(i === 0 && { ttl: 0 }),
        default_extensions: { 'permit-pty': '' },
        allowed_user_key_lengths: { ed25519: 0, rsa: '2048, 4096' },
        key_id_format: '{{role_name}}-{{token_display_name}}',
        not_before_duration: '1m30s',
      },
    }),
  ),
  { kind: 'SSHCertificateAuthority', metadata: { mount: 'ssh-prod' }, spec: { key_type: 'ed25519' } },
  { kind: 'SSHZeroAddress', metadata: { mount: 'ssh-prod' }, spec: { roles: ['prod-otp-3', 'prod-otp-0'] } },
  {
    kind: 'SSHRole',
    metadata: { name: 'ops' },
    spec: { key_type: 'ca', allow_user_certificates: true, allow_host_certificates: true, ttl: '2h', max_ttl: '12h' },
  },
  { kind: 'SSHRole', metadata: { mount: 'ssh', name: 'legacy-otp' }, ensure: 'absent' },
];

// ---------------------------------------------------------------- the module registry

/** A module of the registry in converge's naming: `<name>/<provider>` or `public/<namespace>/<name>/<provider>`. */
const listedName = (m: ListedModule) =>
  m.attributes['registry-name'] === 'public'
    ? `public/${m.attributes.namespace}/${m.attributes.name}/${m.attributes.provider}`
    : `${m.attributes.name}/${m.attributes.provider}`;

/** A small module directory of the scratch directory (`mods/<name>`), its content made distinct by `tag`. */
const moduleFiles = (name: string, tag: string): Record<string, string> => ({
  [`mods/${name}/main.tf`]: `# ${tag}\n\nvariable "name" {\n  type = string\n  description = "${tag}"\n}\n\noutput "name" {\n  value = var.name\n}\n`,
});

/**
 * Registry modules before the apply (written through the API; every version
 * uploaded from the dns fixture): one the manifests update (test-config, a
 * new version, its variables updated, deleted and made sensitive), one they
 * delete, a public record they delete, and one they never mention.
 */
const REGISTRY_SEEDED = {
  modules: [
    { name: 'seeded-update', provider: 'aws', tests: false, versions: ['1.0.0'] },
    { name: 'seeded-gone', provider: 'aws', tests: true, versions: ['0.1.0', '0.2.0'] },
    { name: 'seeded-untouched', provider: 'azurerm', tests: true, versions: ['3.0.0'] },
  ],
  publicRecords: [{ namespace: 'terraform-google-modules', name: 'network', provider: 'google' }],
  variables: [
    { module: 'seeded-update/aws', key: 'UPDATE_ME', value: 'before', description: 'old', sensitive: false },
    { module: 'seeded-update/aws', key: 'DELETE_ME', value: 'x', description: '', sensitive: false },
    { module: 'seeded-update/aws', key: 'MAKE_SENSITIVE', value: 'plain', description: '', sensitive: false },
    { module: 'seeded-update/aws', key: 'KEEP_ME', value: 'kept', description: 'never mentioned', sensitive: false },
    { module: 'seeded-untouched/azurerm', key: 'UNTOUCHED', value: 'u', description: '', sensitive: true },
  ],
};
const REGISTRY_UNTOUCHED = ['seeded-untouched/azurerm'];

/**
 * On top of the seeded registry: module creates (private with versions from
 * directories, archives and a fixture, with and without tests, no-code, one
 * without versions; a public record), version uploads, an update, deletes,
 * and test variables created (sensitive from the environment, empty),
 * updated, deleted and replaced (`sensitive` cannot be turned off in place).
 */
const REGISTRY_EXTRA: ManifestDoc[] = [
  {
    kind: 'RegistryModule',
    metadata: { organization: REGISTRY_ORG, name: 'faults-net', provider: 'aws' },
    spec: {
      'test-config': { 'tests-enabled': true },
      versions: [
        { version: '1.0.0', source: FIXTURE_MODULES[0] },
        { version: '1.1.0', archive: 'mods/net-1.1.0.tar.gz' },
        { version: '1.2.0-rc.1', source: 'mods/net-1.2.0' },
      ],
    },
  },
  {
    kind: 'RegistryModule',
    metadata: { organization: REGISTRY_ORG, name: 'faults-store', provider: 'google' },
    spec: {
      'no-code': true,
      versions: Array.from({ length: 6 }, (_, i) =>
        i % 2 === 0
          ? { version: `0.${i}.0`, source: `mods/store-${i}` }
          : { version: `0.${i}.0+build.${i}`, archive: `mods/store-${i}.tar.gz` },
      ),
    },
  },
  {
    kind: 'RegistryModule',
    metadata: { organization: REGISTRY_ORG, name: 'faults-empty', provider: 'null', registry: 'private' },
    spec: { 'test-config': { 'tests-enabled': false } },
  },
  {
    kind: 'RegistryModule',
    metadata: {
      organization: REGISTRY_ORG,
      name: 'consul',
      provider: 'aws',
      registry: 'public',
      namespace: 'hashicorp',
    },
    spec: {},
  },
  {
    kind: 'RegistryModule',
    metadata: { organization: REGISTRY_ORG, name: 'seeded-update', provider: 'aws' },
    spec: {
      'test-config': { 'tests-enabled': true },
      versions: [
        { version: '1.0.0', source: FIXTURE_MODULES[2] },
        { version: '1.1.0', source: 'mods/update-1.1.0' },
      ],
    },
  },
  {
    kind: 'RegistryModule',
    metadata: { organization: REGISTRY_ORG, name: 'seeded-gone', provider: 'aws' },
    ensure: 'absent',
  },
  {
    kind: 'RegistryModule',
    metadata: {
      organization: REGISTRY_ORG,
      name: 'network',
      provider: 'google',
      registry: 'public',
      namespace: 'terraform-google-modules',
    },
    ensure: 'absent',
  },
  ...Array.from(
    { length: 5 },
    (_, i): ManifestDoc => ({
      kind: 'ModuleTestVariable',
      metadata: {
        organization: REGISTRY_ORG,
        module: i < 3 ? 'faults-net/aws' : 'faults-store/google',
        name: `TF_VAR_v${i}`,
      },
      spec: {
        // biome-ignore lint/suspicious/noTemplateCurlyInString: a placeholder, read from the environment
        ...(i % 2 === 0 ? { value: '${env:MODULE_SECRET}', sensitive: true } : { value: i === 1 ? '' : `value ${i}` }),
        ...(i === 3 && { description: 'a plain one', category: 'env' }),
      },
    }),
  ),
  {
    kind: 'ModuleTestVariable',
    metadata: { organization: REGISTRY_ORG, module: 'seeded-update/aws', name: 'UPDATE_ME' },
    spec: { value: 'after', description: 'new' },
  },
  {
    kind: 'ModuleTestVariable',
    metadata: { organization: REGISTRY_ORG, module: 'seeded-update/aws', name: 'DELETE_ME' },
    ensure: 'absent',
  },
  {
    kind: 'ModuleTestVariable',
    metadata: { organization: REGISTRY_ORG, module: 'seeded-update/aws', name: 'MAKE_SENSITIVE' },
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a placeholder, read from the environment
    spec: { value: '${env:MODULE_SECRET}', sensitive: true },
  },
  {
    kind: 'ModuleTestVariable',
    metadata: { organization: REGISTRY_ORG, module: 'seeded-update/aws', name: 'NEW_ONE' },
    spec: { value: 'n' },
  },
];

/** The module directories and archives REGISTRY_EXTRA reads, relative to its manifest. */
const REGISTRY_FILES = {
  files: {
    ...moduleFiles('net-1.1.0', 'net 1.1.0'),
    ...moduleFiles('net-1.2.0', 'net 1.2.0-rc.1'),
    ...moduleFiles('update-1.1.0', 'update 1.1.0'),
    ...Object.assign({}, ...Array.from({ length: 6 }, (_, i) => moduleFiles(`store-${i}`, `store ${i}`))),
  },
  archives: {
    'mods/net-1.1.0.tar.gz': 'mods/net-1.1.0',
    'mods/store-1.tar.gz': 'mods/store-1',
    'mods/store-3.tar.gz': 'mods/store-3',
    'mods/store-5.tar.gz': 'mods/store-5',
  },
};

/** The tests API's path of a module's variables. */
const varsPath = (module: string) => {
  const [name, provider] = module.split('/');
  return `/organizations/${REGISTRY_ORG}/tests/registry-modules/private/${REGISTRY_ORG}/${name}/${provider}/vars`;
};
const privatePath = (module: string) => `${registryModulesPath(REGISTRY_ORG)}/private/${REGISTRY_ORG}/${module}`;

/** Waits until every version of the organization's modules has been parsed. */
async function registryParsed(target: Target): Promise<ListedModule[]> {
  for (let i = 0; ; i++) {
    const modules = await registryModules(target, REGISTRY_ORG);
    const pending = modules.flatMap((m) => m.attributes['version-statuses'].filter((v) => v.status !== 'ok'));
    if (pending.length === 0 || i > 50) return modules;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The seeded registry, written through the API (as someone working behind converge's back would). */
async function seedRegistry(target: Target): Promise<void> {
  const archive = (await packModule(FIXTURE_MODULES[2] ?? '')).bytes;
  const data = (type: string, attributes: Record<string, unknown>) => ({ data: { type, attributes } });
  for (const m of REGISTRY_SEEDED.modules) {
    const created = await api(
      target,
      'POST',
      registryModulesPath(REGISTRY_ORG),
      data('registry-modules', { name: m.name, provider: m.provider, 'registry-name': 'private' }),
    );
    expect(created.status, m.name).toBe(201);
    const module = `${m.name}/${m.provider}`;
    const patched = await api(
      target,
      'PATCH',
      privatePath(module),
      data('registry-modules', { 'test-config': { 'tests-enabled': m.tests } }),
    );
    expect(patched.status, m.name).toBe(200);
    for (const version of m.versions) {
      const posted = await api(
        target,
        'POST',
        `${privatePath(module)}/versions`,
        data('registry-module-versions', { version }),
      );
      expect(posted.status, `${module} ${version}`).toBe(201);
      const upload = (posted.body?.data as { links?: { upload?: string } } | undefined)?.links?.upload ?? '';
      expect((await fetch(upload, { method: 'PUT', body: new Uint8Array(archive) })).status, upload).toBe(200);
    }
  }
  for (const r of REGISTRY_SEEDED.publicRecords) {
    const created = await api(
      target,
      'POST',
      registryModulesPath(REGISTRY_ORG),
      data('registry-modules', { ...r, 'registry-name': 'public' }),
    );
    expect(created.status, r.name).toBe(201);
  }
  for (const v of REGISTRY_SEEDED.variables) {
    const { module, ...attributes } = v;
    const created = await api(target, 'POST', varsPath(module), data('vars', { ...attributes, category: 'env' }));
    expect(created.status, `${module} ${v.key}`).toBe(201);
  }
  await registryParsed(target);
}

/** The variables of a module, by key. */
async function moduleVariables(target: Target, module: string): Promise<Record<string, Record<string, unknown>>> {
  const listed = await api(target, 'GET', varsPath(module));
  expect(listed.status, module).toBe(200);
  const data = (listed.body?.data ?? []) as Array<{ attributes: Record<string, unknown> }>;
  return Object.fromEntries(data.map((v) => [String(v.attributes.key), v.attributes]));
}

/** What the registry holds: each module with its versions and their statuses, test settings and variables. */
async function registrySnapshot(target: Target): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const m of await registryParsed(target)) {
    const name = listedName(m);
    out[name] = {
      versions: m.attributes['version-statuses']
        .map((v) => `${v.version} ${v.status}${v.error ? ` ${v.error}` : ''}`)
        .sort(),
      tests: m.attributes['test-config']?.['tests-enabled'] ?? null,
      'no-code': m.attributes['no-code'],
      ...(m.attributes['registry-name'] === 'private' && {
        variables: Object.fromEntries(
          Object.entries(await moduleVariables(target, name)).map(([key, v]) => [
            key,
            { value: v.value, description: v.description, sensitive: v.sensitive },
          ]),
        ),
      }),
    };
  }
  return out;
}

/**
 * What the registry must hold once the apply is done: the manifests' modules,
 * versions and variables, and the untouched module as it was. A version in
 * `contentless` (an apply reported its create failed: made without content as
 * its module's only version, which the API's delete cascade forbids deleting)
 * may be `pending`: it is expected as the registry lists it, `ok` or `pending`.
 */
function expectedRegistry(
  before: Record<string, unknown>,
  contentless: ReadonlySet<string> = new Set(),
  actual?: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of REGISTRY_UNTOUCHED) out[name] = before[name];
  const present = desired.filter((d) => d.ensure === 'present');
  for (const d of present.filter((o) => o.kind === 'RegistryModule')) {
    const versions = Array.isArray(d.spec.versions) ? (d.spec.versions as Array<{ version: string }>) : [];
    const tests = (d.spec['test-config'] as { 'tests-enabled'?: boolean } | undefined)?.['tests-enabled'];
    const seeded = REGISTRY_SEEDED.modules.find((m) => `${m.name}/${m.provider}` === d.address.name);
    const isPublic = d.address.name.startsWith('public/');
    const variables: Record<string, unknown> = {};
    for (const v of REGISTRY_SEEDED.variables.filter((s) => s.module === d.address.name)) {
      variables[v.key] = { value: v.sensitive ? null : v.value, description: v.description, sensitive: v.sensitive };
    }
    for (const v of present.filter(
      (o) => o.kind === 'ModuleTestVariable' && o.address.name.startsWith(`${d.address.name}/`),
    )) {
      const sensitive = v.spec.sensitive === true;
      variables[String(v.metadata.name)] = {
        value: sensitive ? null : (v.spec.value ?? ''),
        description: v.spec.description ?? '',
        sensitive,
      };
    }
    for (const v of desired.filter((o) => o.kind === 'ModuleTestVariable' && o.ensure === 'absent')) {
      if (v.address.name.startsWith(`${d.address.name}/`)) delete variables[String(v.metadata.name)];
    }
    const listed = ((actual?.[d.address.name] as { versions?: string[] } | undefined)?.versions ?? []) as string[];
    const status = (version: string) =>
      contentless.has(`RegistryModuleVersion/${REGISTRY_ORG}/${d.address.name}/${version}`) &&
      listed.includes(`${version} pending`)
        ? 'pending'
        : 'ok';
    out[d.address.name] = {
      versions: versions.map((v) => `${v.version} ${status(v.version)}`).sort(),
      tests: isPublic ? null : (tests ?? seeded?.tests ?? null),
      'no-code': d.spec['no-code'] ?? false,
      ...(!isPublic && { variables }),
    };
  }
  return out;
}

/**
 * The action key of a registry write, and whether it creates: a module's
 * create (its attributes name it), PATCH or DELETE; a version's POST (its
 * body names the version); a variable's POST (its body names the key).
 * Undefined for other paths; a variable's PATCH or DELETE names its ref.
 */
function registryWrite(r: Recorded): { key?: string; create: boolean; ref?: string } | undefined {
  const base = `/api/v2${registryModulesPath(REGISTRY_ORG)}`;
  const attributes =
    (r.body as { data?: { attributes?: Record<string, unknown> } } | undefined)?.data?.attributes ?? {};
  const decoded = r.path.split('/').map(decodeURIComponent);
  if (r.path === base) {
    const name = `${attributes.name}/${attributes.provider}`;
    return {
      key: `RegistryModule/${REGISTRY_ORG}/${attributes['registry-name'] === 'public' ? `public/${attributes.namespace}/${name}` : name}`,
      create: true,
    };
  }
  if (r.path.startsWith(`${base}/`)) {
    const [registry, namespace, name, provider, rest] = decoded.slice(base.split('/').length);
    if (registry === 'public')
      return { key: `RegistryModule/${REGISTRY_ORG}/public/${namespace}/${name}/`, create: false };
    if (rest === 'versions') {
      return { key: `RegistryModuleVersion/${REGISTRY_ORG}/${name}/${provider}/${attributes.version}`, create: true };
    }
    if (rest !== undefined)
      return { key: `RegistryModuleVersion/${REGISTRY_ORG}/${name}/${provider}/${rest}`, create: false };
    return { key: `RegistryModule/${REGISTRY_ORG}/${name}/${provider}`, create: false };
  }
  const tests = `/api/v2/organizations/${REGISTRY_ORG}/tests/registry-modules/private/`;
  if (r.path.startsWith(tests)) {
    const [, name, provider, vars, ref] = decoded.slice(tests.split('/').length - 1);
    if (vars !== 'vars') return undefined;
    if (ref !== undefined) return { create: false, ref };
    return { key: `ModuleTestVariable/${REGISTRY_ORG}/${name}/${provider}/${attributes.key}`, create: true };
  }
  return undefined;
}

/**
 * Three bugs of the registry kinds these scenarios found, fixed in src/ (the
 * reproductions at the end of this file keep them fixed):
 * - a version's create whose POST outcome is unknown was read back through
 *   the organization's module list the run had cached: a version created
 *   after that list was read was not found, its POST sent again and answered
 *   422 (already taken). It is read afresh now (one GET of its module).
 * - a version that exists was taken as uploaded. A version whose create is
 *   cut short after the POST (its answer lost, the upload failed) is now
 *   deleted and published anew when the module has another version; when it
 *   is the module's only version (deleting it would delete the module: the
 *   API's delete cascade), the action fails saying so, and the version is
 *   never reported created. The next plan replaces such a version (never "no
 *   changes"); its apply refuses the delete while it is the module's only
 *   version.
 * - RegistryModule.create sends the POST, then a PATCH for test-config; when
 *   either's outcome was unknown, apply read the module back, found it and
 *   reported the create done without the test-config.
 */

/**
 * The versions an apply reported failed because they were made without
 * content as their module's only version: the one case the registry's API
 * leaves no way to repair (no upload link after creation; deleting a module's
 * last version deletes the module). Such a version is never reported done,
 * but by a later replace, once its module has another version to keep.
 */
function contentlessOnlyVersions(runs: ReadonlyArray<{ events: ReconcileEvent[] }>): Set<string> {
  const failed = new Set<string>();
  for (const run of runs) {
    for (const e of run.events) {
      if (e.type !== 'action-failed' || e.action.kind !== 'RegistryModuleVersion') continue;
      if (/was created, but .*: it has no content/.test(e.error.message)) failed.add(e.action.key);
    }
  }
  for (const run of runs) {
    for (const e of run.events) {
      if (e.type !== 'action-done' || !failed.has(e.action.key)) continue;
      // a later apply may replace it once its module has another version (published meanwhile)
      expect(e.action.action, `${e.action.key} reported done`).toBe('replace');
      failed.delete(e.action.key);
    }
  }
  return failed;
}

/** On top of the kinds fixture: many creates, an update and a delete of versions, one more user, and the SSH objects. */
const EXTRA: ManifestDoc[] = [
  ...Array.from({ length: 12 }, (_, i): ManifestDoc => {
    const v = `3.0.${i}`;
    return { kind: 'ToolVersion', metadata: { name: v }, spec: { url: url(v), sha: SHA, beta: i % 2 === 0 } };
  }),
  ...Array.from({ length: 6 }, (_, i): ManifestDoc => {
    const v = `0.30.${i}`;
    return { kind: 'PolicyVersion', metadata: { name: v }, spec: { url: url(v), sha: SHA.toUpperCase() } };
  }),
  { kind: 'ToolVersion', metadata: { name: '1.5.0' }, spec: { url: url('1.5.0'), sha: SHA, enabled: false } },
  { kind: 'ToolVersion', metadata: { name: '1.4.0' }, ensure: 'absent' },
  { kind: 'PolicyVersion', metadata: { name: '0.20.0' }, spec: { url: url('p0.20.0-b'), sha: SHA } },
  { kind: 'AdminUser', metadata: { name: 'alice' }, spec: { 'is-admin': true, 'is-suspended': false } },
  { kind: 'AdminUser', metadata: { name: 'bob' }, spec: { 'is-suspended': true } },
  ...SSH_EXTRA,
  ...LDAP_EXTRA,
];

/**
 * The client where no request is held: it waits long enough that a busy machine (the emulator
 * answers in this process) never looks like a server that does not answer, as eight timeouts in
 * a row open the circuit breaker (src/api/circuit-breaker.ts).
 */
const CLIENT = { requestTimeoutMs: 10_000, assumedRateLimit: 0 };
/** Where `timeout` faults hold requests longer than the client waits: the client gives up and the outcome is unknown. */
const GIVES_UP = { ...CLIENT, requestTimeoutMs: 400 };
/**
 * How long a `timeout` fault holds its request: twice the client's timeout, so the client always
 * gives up first (its timer starts before the server's, in the same process), and a connection
 * the client somehow kept would not hold an emulator's close for long.
 */
const HOLD_MS = 2 * GIVES_UP.requestTimeoutMs;
const FAULT_RATE = 0.2;
const SCENARIOS: Array<{ name: string; kinds: FaultKind[]; seed: number }> = [
  { name: '429 (Retry-After)', kinds: ['429'], seed: 1 },
  { name: '500', kinds: ['500'], seed: 2 },
  { name: '503', kinds: ['503'], seed: 3 },
  { name: 'dropped connections', kinds: ['drop'], seed: 4 },
  { name: 'timeouts', kinds: ['timeout'], seed: 5 },
  { name: 'lost answers', kinds: ['lost'], seed: 6 },
  { name: 'all of them mixed', kinds: ['429', '500', '503', 'drop', 'timeout', 'lost'], seed: 7 },
];

let scratch: Awaited<ReturnType<typeof scratchDir>>;
let desired: DesiredObject[];
beforeAll(async () => {
  scratch = await scratchDir('faults');
  const extra = await writeManifest(join(scratch.dir, 'extra.yaml'), EXTRA);
  const registryDir = join(scratch.dir, 'registry');
  await mkdir(registryDir, { recursive: true });
  await materialize(registryDir, REGISTRY_FILES);
  const registry = await writeManifest(join(registryDir, 'registry.yaml'), REGISTRY_EXTRA);
  desired = await desiredFrom([KINDS, extra, registry], { ...ENV, MODULE_SECRET: 'faults-module-secret' });
  return () => scratch.remove();
});

let server: Emulator | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/**
 * The platform's limit before the apply sets the fixture's (600): high enough that pacing never
 * waits on it. The emulator enforces and advertises it, as the platform does (X-RateLimit-Limit on
 * every answer); a server that advertises nothing would turn the injected 429s, one request in
 * five, into a pace learned from them (src/api/rate-limit.ts), cut at each and raised by one a
 * second: a few requests a second, a minute of waiting that shows nothing the checks look at.
 */
const ADVERTISED_LIMIT = 10_000;

async function start(): Promise<{ server: Emulator; target: Target }> {
  server = await emulator({ seed: SEED, rateLimit: true });
  const target = targetOf(server);
  const limited = await api(target, 'PATCH', '/admin/general-settings', {
    data: { type: 'general-settings', attributes: { 'api-rate-limit': ADVERTISED_LIMIT } },
  });
  expect(limited.status).toBe(200);
  for (const { mount, name, body } of SSH_SEEDED) {
    expect((await secrets(target, 'POST', `/${mount}/roles/${name}`, body)).status).toBe(204);
  }
  for (const { path, body } of LDAP_SEEDED) expect((await secrets(target, 'POST', path, body)).status, path).toBe(204);
  await seedRegistry(target);
  return { server, target };
}

/** The roles of each SSH mount, by name. */
async function sshRoles(target: Target): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const mount of SSH_MOUNTS) {
    const listed = await secrets(target, 'GET', `/${mount}/roles?list=true`);
    expect([200, 404]).toContain(listed.status);
    out[mount] = [...((listed.body?.data as { keys?: string[] } | undefined)?.keys ?? [])].sort();
  }
  return out;
}

/** The public key of a mount's CA, undefined when it has none. */
async function caPublicKey(target: Target, mount: string): Promise<string | undefined> {
  const read = await secrets(target, 'GET', `/${mount}/config/ca`);
  expect([200, 404]).toContain(read.status);
  return (read.body?.data as { public_key?: string } | undefined)?.public_key;
}

async function versions(
  target: Target,
  type: string,
): Promise<Array<{ id: string; attributes: Record<string, unknown> }>> {
  const listed = await api(target, 'GET', `/admin/${type}?page%5Bsize%5D=100`);
  expect(listed.status).toBe(200);
  return listed.body?.data as Array<{ id: string; attributes: Record<string, unknown> }>;
}

async function untouchedSnapshot(target: Target) {
  const out: Record<string, unknown> = {};
  for (const [type, names] of Object.entries(UNTOUCHED)) {
    const list = await versions(target, type);
    for (const name of names) out[`${type}/${name}`] = list.find((v) => v.attributes.version === name);
  }
  for (const role of SSH_UNTOUCHED) {
    const [mount, name] = role.split('/');
    const read = await secrets(target, 'GET', `/${mount}/roles/${name}`);
    expect(read.status, role).toBe(200);
    out[`ssh-role/${role}`] = read.body?.data;
  }
  for (const path of LDAP_UNTOUCHED) {
    const read = await secrets(target, 'GET', `/ldap-prod/${path}`);
    expect(read.status, path).toBe(200);
    out[`ldap-prod/${path}`] = read.body?.data;
  }
  const registry = await registrySnapshot(target);
  for (const name of REGISTRY_UNTOUCHED) out[`registry/${name}`] = registry[name];
  return out;
}

/** The objects of each LDAP mount's collections, by kind: `LDAPStaticRole/ldap-prod/prod/rotating`. */
async function ldapObjects(target: Target): Promise<string[]> {
  const out: string[] = [];
  for (const mount of LDAP_MOUNTS) {
    for (const [kind, collection] of Object.entries(LDAP_COLLECTIONS)) {
      for (const name of await listHierarchy(target, mount, collection)) out.push(`${kind}/${mount}/${name}`);
    }
  }
  return out.sort();
}

/**
 * What the credentials of created static roles say: a creation rotates the
 * account's password once (not at all with `skip_import_rotation`), so a
 * password rotated twice shows a `last_password`.
 */
async function expectStaticRolesRotatedOnce(target: Target, created: readonly PlannedAction[]) {
  for (const action of created.filter((a) => a.kind === 'LDAPStaticRole')) {
    const spec = desired.find((d) => addressKey(d.address) === action.key)?.spec;
    const mount = action.address.scope ?? 'ldap';
    const cred = await secrets(target, 'GET', ldapPath(mount, 'static-cred', action.address.name));
    expect(cred.status, action.key).toBe(200);
    const data = cred.body?.data as { password?: string; last_password?: string };
    expect(data.last_password, `${action.key} rotated more than once`).toBe('');
    expect(data.password !== '', `${action.key} rotated on creation`).toBe(spec?.skip_import_rotation !== true);
  }
}

const terminal = (e: ReconcileEvent) =>
  e.type === 'action-done' || e.type === 'action-failed' || e.type === 'action-skipped';

/**
 * A failure the registry leaves no way to repair: the replace of a version made
 * without content as its module's only version (see contentlessOnlyVersions),
 * whose delete the last-version guard refuses, as the plan's note said it would.
 */
const refusedOnlyVersion = (f: ApplySummary['failed'][number], contentless: ReadonlySet<string>) =>
  contentless.has(f.key) &&
  /^replace failed: the delete failed \(not deleted: \S+ is the only version of [^,]+, and deleting a module's last version deletes the module/.test(
    f.error.message,
  );

/** The summary agrees with the plan and with the events, and every failure says what failed. */
function expectAccurateSummary(
  actions: readonly PlannedAction[],
  summary: ApplySummary,
  events: ReconcileEvent[],
  contentless: ReadonlySet<string> = new Set(),
) {
  const todo = changes(actions);
  const failed = new Set(summary.failed.map((f) => f.key));
  const skipped = new Set(summary.skipped.map((s) => s.key));
  for (const type of ['create', 'update', 'replace', 'delete'] as const) {
    const planned = todo.filter((a) => a.action === type);
    const notDone = planned.filter((a) => failed.has(a.key) || skipped.has(a.key)).length;
    expect(summary.done[type] ?? 0, type).toBe(planned.length - notDone);
  }
  const ends = events.filter(terminal) as Array<ReconcileEvent & { action: PlannedAction }>;
  expect(ends.map((e) => e.action.key).sort()).toEqual(todo.map((a) => a.key).sort());
  for (const e of ends) {
    const expected = failed.has(e.action.key)
      ? 'action-failed'
      : skipped.has(e.action.key)
        ? 'action-skipped'
        : 'action-done';
    expect(e.type, e.action.key).toBe(expected);
  }
  for (const f of summary.failed) {
    if (refusedOnlyVersion(f, contentless)) continue;
    // an upload goes to the link the version's create answered with; a replacement says which
    // of its steps failed, with that request's error, and what is live now
    expect(f.error.message).toMatch(
      /^(replace failed: the (create|delete)[^(]* \()?((GET|POST|PATCH|DELETE) \/(api\/v2|v1)\/\S+|PUT \S*\/_archivist\/v1\/object\/\S+): \S/,
    );
  }
  expect(summary.skipped.every((s) => s.reason === 'dependency-failed')).toBe(true);
}

/**
 * Every write went to an object of a planned action, and no create hit an
 * object that already existed (none answered 422). A version's create may
 * delete what it made without content and create it anew (once).
 */
function expectOnlyPlannedWrites(actions: readonly PlannedAction[], records: readonly Recorded[]): void {
  const remade = new Map<string, number>();
  const todo = changes(actions);
  const refs = new Set(todo.flatMap((a) => (a.ref ? [a.ref] : [])));
  const creates = new Set(todo.filter((a) => a.action === 'create').map((a) => `${a.kind}/${a.address.name}`));
  const singletons = new Set(
    todo.filter((a) => a.address.name === '').map((a) => `/api/v2/admin/${kebabKind(a.kind)}`),
  );
  const creating = new Map<string, number>();
  const keys = new Set(todo.map((a) => a.key));
  let versionPosts = 0;
  let uploads = 0;
  for (const r of records) {
    if (r.method === 'GET') continue;
    if (r.method === 'PUT' && r.path.includes('/_archivist/v1/object/')) {
      // a version's upload, to the link its create answered with
      uploads++;
      continue;
    }
    const registry = registryWrite(r);
    if (registry) {
      const what = `${r.method} ${r.path}`;
      if (registry.ref !== undefined) {
        expect(refs.has(registry.ref), what).toBe(true);
        continue;
      }
      const key = registry.key ?? '';
      if (key.endsWith('/')) {
        // a public record is deleted by its namespace and name
        expect(r.method, what).toBe('DELETE');
        expect(
          todo.some((a) => a.action === 'delete' && a.key.startsWith(key)),
          what,
        ).toBe(true);
        continue;
      }
      const action = todo.find((a) => a.key === key);
      expect(action, what).toBeDefined();
      if (registry.create) {
        expect(['create', 'replace'], `${what} ${key}`).toContain(action?.action);
        creating.set(key, (creating.get(key) ?? 0) + 1);
        if (key.startsWith('RegistryModuleVersion/')) versionPosts++;
        // the object was there already: a create was repeated
        expect(r.error?.status, `create of ${key} answered`).not.toBe(422);
      } else if (r.method === 'DELETE' && action?.action === 'create' && key.startsWith('RegistryModuleVersion/')) {
        // a version made without content by this create (its answer or upload lost), deleted to be made anew
        const at = records.indexOf(r);
        expect(
          records.slice(0, at).some((o) => o.method === 'POST' && registryWrite(o)?.key === key),
          `${what} deletes what its create made`,
        ).toBe(true);
        remade.set(key, (remade.get(key) ?? 0) + 1);
      } else {
        expect(r.method === 'DELETE' ? ['delete', 'replace'] : ['create', 'update'], `${what}`).toContain(
          action?.action,
        );
      }
      continue;
    }
    if (r.path.startsWith('/v1/')) {
      // the secrets API: a role, a CA or a zero-address list of a mount, each an action of its own
      const key = secretsKey(r.path);
      expect(key !== undefined && keys.has(key), `${r.method} ${r.path}`).toBe(true);
      const action = todo.find((a) => a.key === key);
      expect(r.method, `${r.method} ${r.path}`).toBe(action?.action === 'delete' ? 'DELETE' : 'POST');
      if (action?.action === 'create') creating.set(key ?? '', (creating.get(key ?? '') ?? 0) + 1);
      // the secrets API refuses with a 400 what it cannot take (a list naming a role not yet written)
      expect(r.error?.status, `${r.method} ${r.path} answered`).not.toBe(400);
      continue;
    }
    const segments = r.path.split('/');
    const version = (r.body as { data?: { attributes?: { version?: string } } } | undefined)?.data?.attributes?.version;
    if (r.method === 'POST' && /\/admin\/(tool|policy)-versions$/.test(r.path)) {
      const kind = r.path.endsWith('tool-versions') ? 'ToolVersion' : 'PolicyVersion';
      expect(creates.has(`${kind}/${version}`), `${r.method} ${r.path} ${version}`).toBe(true);
      creating.set(`${kind}/${version}`, (creating.get(`${kind}/${version}`) ?? 0) + 1);
      // the version was already there: a create was repeated
      expect(r.error?.status, `create of ${version} answered`).not.toBe(422);
    } else if (singletons.has(r.path)) {
      expect(r.method).toBe('PATCH');
    } else {
      const ref = decodeURIComponent(
        r.path.startsWith('/api/v2/admin/users/') ? (segments[5] ?? '') : (segments.at(-1) ?? ''),
      );
      expect(refs.has(ref), `${r.method} ${r.path}`).toBe(true);
    }
  }
  // a create is sent again only after an attempt that did not reach the server or whose answer was lost,
  // or after deleting what it made without content (once per action)
  for (const [key, count] of remade) expect(count, `${key} made anew`).toBe(1);
  for (const [key, count] of creating) expect(count, key).toBeLessThanOrEqual(2 + (remade.get(key) ?? 0));
  // each upload link is used once at most: no more uploads than versions created
  expect(uploads).toBeLessThanOrEqual(versionPosts);
}

/**
 * The action key of a secrets-API path: `/v1/ssh/roles/web` is `SSHRole/ssh/web`,
 * `/v1/ssh/config/ca` `SSHCertificateAuthority/ssh`, `/v1/ldap/config`
 * `LDAPConfig/ldap`, `/v1/ldap/static-role/apps/app1` `LDAPStaticRole/ldap/apps/app1`.
 */
function secretsKey(path: string): string | undefined {
  const mount = [...SSH_MOUNTS, ...LDAP_MOUNTS]
    .sort((a, b) => b.length - a.length)
    .find((m) => path.startsWith(`/v1/${m}/`));
  if (mount === undefined) return undefined;
  const [first, ...name] = path.slice(`/v1/${mount}/`.length).split('/').map(decodeURIComponent);
  if (SSH_MOUNTS.includes(mount)) {
    if (first === 'roles' && name.length === 1) return `SSHRole/${mount}/${name[0]}`;
    if (first === 'config' && name[0] === 'ca' && name.length === 1) return `SSHCertificateAuthority/${mount}`;
    if (first === 'config' && name[0] === 'zeroaddress' && name.length === 1) return `SSHZeroAddress/${mount}`;
    return undefined;
  }
  if (first === 'config' && name.length === 0) return `LDAPConfig/${mount}`;
  const kind = Object.entries(LDAP_COLLECTIONS).find(([, collection]) => collection === first)?.[0];
  return kind && name.length > 0 ? `${kind}/${mount}/${name.join('/')}` : undefined;
}

describe.each(SCENARIOS)('at 20 % faults: $name', ({ kinds, seed }) => {
  it('applies every kind accurately, never twice, only what is planned, and converges', async () => {
    const { server, target } = await start();
    const before = await untouchedSnapshot(target);
    const first = await plan(target, desired, { client: CLIENT });
    expect(first.problems).toEqual([]);
    const planned = changes(first.plan.actions);
    // a module's versions are planned one by one, as a kind of their own
    expect(new Set(planned.map((a) => a.kind))).toEqual(
      new Set([...desired.map((d) => d.kind), 'RegistryModuleVersion']),
    );
    expect(new Set(planned.map((a) => a.action))).toEqual(new Set(['create', 'update', 'delete', 'replace']));
    const registryBefore = await registrySnapshot(target);

    server.setFaults({ rate: FAULT_RATE, kinds, seed, holdMs: HOLD_MS });
    server.resetStats();
    const records: Recorded[] = [];
    const client = {
      ...(kinds.includes('timeout') ? GIVES_UP : CLIENT),
      wrap: (c: HttpClient) => recording(c, records),
    };
    // held requests time out together, many at once: the circuit breaker must not take that for a
    // server that is gone (src/api/circuit-breaker.ts), or the plan would throw here
    let run = await apply(target, desired, { client });
    expect(run.plan.actions.map((a) => `${a.action} ${a.key}`)).toEqual(
      first.plan.actions.map((a) => `${a.action} ${a.key}`),
    );
    const stats = server.stats();
    expect(stats.faults).toBeGreaterThan(0);
    if (kinds.length === 1 && kinds[0] === 'timeout') {
      // the hold outlasts the client's timeout: the client gives up, and a write it gave up on has an unknown outcome
      const gaveUp = records.filter((r) => r.error?.message.includes(`within ${GIVES_UP.requestTimeoutMs} ms`));
      expect(gaveUp.filter((r) => r.error?.outcome === 'unknown').length).toBeGreaterThan(0);
    }
    expectAccurateSummary(run.plan.actions, run.summary, run.events);
    expectOnlyPlannedWrites(run.plan.actions, records);
    expect(stats.byStatus['422'] ?? 0, 'a create or an action was repeated').toBe(0);
    const runs = [run];
    expect(stats.byStatus['400'] ?? 0, 'the secrets API refused a write').toBe(0);
    const writeRoutes = Object.keys(stats.byRoute).filter((r) => !r.startsWith('GET '));
    for (const route of writeRoutes) {
      expect(route).toMatch(
        /^(PATCH \/api\/v2\/admin\/[a-z-]+-settings|POST \/api\/v2\/admin\/(tool|policy)-versions|(PATCH|DELETE) \/api\/v2\/admin\/(tool|policy)-versions\/:id|POST \/api\/v2\/admin\/users\/:id\/actions\/(grant_admin|suspend|unsuspend|revoke_admin)|(POST|DELETE) \/v1\/ssh(-prod)?\/roles\/:name|POST \/v1\/ssh(-prod)?\/config\/(ca|zeroaddress)|POST \/v1\/ldap(-prod|-new)?\/config|(POST|DELETE) \/v1\/ldap(-prod)?\/(static-role|role|library)\/\*|POST \/api\/v2\/organizations\/:organization\/registry-modules|(PATCH|DELETE) \/api\/v2\/organizations\/:organization\/registry-modules\/:registry\/:namespace\/:name(\/:provider)?|POST \/api\/v2\/organizations\/:organization\/registry-modules\/:registry\/:namespace\/:name\/:provider\/versions|DELETE \/api\/v2\/organizations\/:organization\/registry-modules\/:registry\/:namespace\/:name\/:provider\/:version|POST \/api\/v2\/organizations\/:organization\/tests\/registry-modules\/private\/:namespace\/:name\/:provider\/vars|(PATCH|DELETE) \/api\/v2\/organizations\/:organization\/tests\/registry-modules\/private\/:namespace\/:name\/:provider\/vars\/:variable|PUT \/_archivist\/v1\/object\/:id)$/,
      );
    }

    // what the summary calls done is done: with faults off, only what failed (or was skipped) is left to do
    server.setFaults(undefined);
    // a CA the service generated is generated once: later applies never replace its key
    const generatedKey = run.summary.failed.some((f) => f.key === 'SSHCertificateAuthority/ssh-prod')
      ? undefined
      : await caPublicKey(target, 'ssh-prod');
    const check = await plan(target, desired, { client: CLIENT });
    const notDone = new Set([...run.summary.failed, ...run.summary.skipped].map((f) => f.key));
    expect(
      changes(check.plan.actions)
        .filter((a) => !notDone.has(a.key))
        .map(
          (a) =>
            `${a.action} ${a.key} ${a.changes.map((c) => `${c.path} ${JSON.stringify(c.before)} -> ${JSON.stringify(c.after)}`).join(', ')}`,
        ),
    ).toEqual([]);

    // applying again under faults converges, and each apply only redoes what did not get done
    let attempts = 1;
    // a contentless only version cannot be repaired: its replace is refused every time, and is not waited for
    const repairable = () =>
      run.summary.failed.filter((f) => !refusedOnlyVersion(f, contentlessOnlyVersions(runs))).length +
      run.summary.skipped.length;
    while (repairable() > 0 && attempts < 6) {
      const left = new Set([...run.summary.failed, ...run.summary.skipped].map((f) => f.key));
      server.setFaults({ rate: FAULT_RATE, kinds, seed: seed * 100 + attempts, holdMs: HOLD_MS });
      const again = await apply(target, desired, { client });
      attempts++;
      for (const a of changes(again.plan.actions)) {
        expect(left.has(a.key), `${a.key} was done already`).toBe(true);
      }
      runs.push(again);
      expectAccurateSummary(again.plan.actions, again.summary, again.events, contentlessOnlyVersions(runs));
      run = again;
    }
    const contentless = contentlessOnlyVersions(runs);
    expect(run.summary.failed.filter((f) => !refusedOnlyVersion(f, contentless))).toEqual([]);
    server.setFaults(undefined);
    const last = await plan(target, desired, { client: CLIENT });
    // converged, but for the contentless only versions, which every plan replaces (its note says why it cannot be done)
    expect(
      changes(last.plan.actions)
        .filter((a) => !(a.action === 'replace' && contentless.has(a.key)))
        .map((a) => `${a.action} ${a.key}`),
    ).toEqual([]);

    // each version once, the deleted one gone, the untouched ones exactly as they were
    for (const type of ['tool-versions', 'policy-versions']) {
      const names = (await versions(target, type)).map((v) => String(v.attributes.version));
      expect(names.length, type).toBe(new Set(names).size);
    }
    expect((await versions(target, 'tool-versions')).some((v) => v.attributes.version === '1.4.0')).toBe(false);
    expect(await untouchedSnapshot(target)).toEqual(before);
    // the registry holds exactly the manifests' modules, each declared version once and uploaded, and their variables
    // (but a version made without content as its module's only version, which the apply reported failed)
    const registryAfter = await registrySnapshot(target);
    expect(registryAfter).toEqual(expectedRegistry(registryBefore, contentlessOnlyVersions(runs), registryAfter));

    // the SSH mounts hold exactly what the manifests and the untouched roles say, the CAs their keys
    const declared = desired.filter((d) => d.kind === 'SSHRole' && d.ensure === 'present');
    const roles = await sshRoles(target);
    for (const mount of SSH_MOUNTS) {
      const expected = declared.filter((d) => d.address.scope === mount).map((d) => d.address.name);
      for (const role of SSH_UNTOUCHED) if (role.startsWith(`${mount}/`)) expected.push(role.split('/')[1] ?? '');
      expect(roles[mount], mount).toEqual(expected.sort());
    }
    expect(await caPublicKey(target, 'ssh')).toBe(FIXTURE_CA_PUBLIC_KEY);
    const finalKey = await caPublicKey(target, 'ssh-prod');
    expect(finalKey).toMatch(/^ssh-ed25519 /);
    if (generatedKey !== undefined) expect(finalKey).toBe(generatedKey);
    const zero = await secrets(target, 'GET', '/ssh-prod/config/zeroaddress');
    expect((zero.body?.data as { roles?: string[] } | undefined)?.roles?.sort()).toEqual(['prod-otp-0', 'prod-otp-3']);

    // the LDAP mounts hold exactly what the manifests and the untouched objects say; each static role rotated once
    const ldapDeclared = desired.filter((d) => d.ensure === 'present' && d.kind in LDAP_COLLECTIONS);
    const ldapKept = LDAP_UNTOUCHED.map((path) => {
      const [collection, ...name] = path.split('/');
      const kind = Object.entries(LDAP_COLLECTIONS).find(([, c]) => c === collection)?.[0];
      return `${kind}/ldap-prod/${name.join('/')}`;
    });
    expect(await ldapObjects(target)).toEqual([...ldapDeclared.map((d) => addressKey(d.address)), ...ldapKept].sort());
    await expectStaticRolesRotatedOnce(
      target,
      first.plan.actions.filter((a) => a.action === 'create'),
    );
  }, 120_000);
});

/**
 * What a create's body names, when its path is that of a collection: ` 1.2.3`
 * for a version, ` KEY` for a test variable, ` private/ns/name/provider` for a module; '' otherwise.
 */
function createdVersion(body: unknown): string {
  const a = (body as { data?: { attributes?: Record<string, unknown> } } | undefined)?.data?.attributes;
  if (typeof a?.version === 'string') return ` ${a.version}`;
  if (typeof a?.key === 'string') return ` ${a.key}`;
  if (typeof a?.provider === 'string') return ` ${a['registry-name']}/${a.namespace ?? ''}/${a.name}/${a.provider}`;
  return '';
}

/**
 * A client that loses the answer of the first POST or PATCH to each object: the
 * server applies it, converge hears nothing (as with the emulator's `lost`
 * fault, but on exactly the requests that matter).
 */
function losingFirstWrites(
  client: HttpClient,
  lost: string[],
  spare: (options: RequestOptions) => boolean = () => false,
): HttpClient {
  const seen = new Set<string>();
  return delegate(client, async <T>(options: RequestOptions): Promise<HttpResponse<T>> => {
    const response = await client.request<T>(options);
    const key = `${options.method} ${options.path}${createdVersion(options.body)}`;
    if ((options.method === 'POST' || options.method === 'PATCH') && !seen.has(key) && !spare(options)) {
      seen.add(key);
      lost.push(key);
      throw new NetworkError({
        method: options.method,
        path: options.path,
        reason: 'the connection closed before the answer',
        errno: 'UND_ERR_SOCKET',
        outcome: 'unknown',
      });
    }
    return response;
  });
}

/**
 * The writes whose answer is never lost (their keys go to `spared`): the POST
 * of a module's first version. The API's limit, not a bug: made without its
 * upload link, it could only be made anew by deleting it, and deleting a
 * module's last version deletes the module; `a version made without content`
 * below shows what apply does then.
 */
function spareFirstVersions(options: RequestOptions, spared: string[]): boolean {
  const write: Recorded = { method: options.method, path: options.path, body: options.body };
  const key = registryWrite(write)?.key ?? '';
  const versionPost = key.startsWith('RegistryModuleVersion/') && options.method === 'POST';
  const moduleOf = (path: string) => path.replace(/\/versions$/, '');
  const firstVersion =
    versionPost &&
    !REGISTRY_SEEDED.modules.some(
      (m) => m.versions.length > 0 && key.startsWith(`RegistryModuleVersion/${REGISTRY_ORG}/${m.name}/${m.provider}/`),
    ) &&
    !spared.some((s) => s.startsWith(`POST ${moduleOf(options.path)}/versions `));
  if (firstVersion) spared.push(`${options.method} ${options.path}${createdVersion(options.body)}`);
  return firstVersion;
}

describe('a lost answer', () => {
  it('is read back for every kind: no create, update or user action is sent twice (only secrets are resent)', async () => {
    const { target } = await start();
    const registryBefore = await registrySnapshot(target);
    const records: Recorded[] = [];
    const lost: string[] = [];
    const spared: string[] = [];
    const run = await apply(target, desired, {
      client: {
        ...CLIENT,
        wrap: (c) =>
          recording(
            losingFirstWrites(c, lost, (o) => spareFirstVersions(o, spared)),
            records,
          ),
      },
    });
    expect(run.summary.failed).toEqual([]);
    const writes = records.filter((r) => r.method === 'POST' || r.method === 'PATCH');
    // every write's answer was lost (but a module's first version's POST), and none was sent again
    const written = writes.map((r) => `${r.method} ${r.path}${createdVersion(r.body)}`);
    const sent = written.filter((key) => !spared.includes(key));
    // versions made without content (their answer, with its upload link, lost) and so deleted and made anew
    const remade = new Set(
      records
        .filter((r) => r.method === 'DELETE' && registryWrite(r)?.key?.startsWith('RegistryModuleVersion/'))
        .map((r) => registryWrite(r)?.key),
    );
    // sent again: only write-only fields, which cannot be read back to see whether they were set
    const again = writes.filter(
      (r, i) => written.indexOf(written[i] ?? '') !== i && !remade.has(registryWrite(r)?.key),
    );
    for (const r of again) {
      const key = r.path.startsWith('/v1/') ? secretsKey(r.path) : undefined;
      const found = key
        ? desired.find((d) => addressKey(d.address) === key)
        : desired.find((d) => d.address.name === '' && r.path === `/api/v2/admin/${kebabKind(d.kind)}`);
      const attributes = Object.keys(
        key ? (r.body as object) : (r.body as { data: { attributes: object } }).data.attributes,
      );
      expect(attributes.length, r.path).toBeGreaterThan(0);
      expect(
        attributes.filter((a) => !(found && providerMap.get(found.kind)?.writeOnly(found.spec).includes(a))),
        r.path,
      ).toEqual([]);
    }
    // (the LDAP configs of `ldap` and `ldap-prod` are updated: bindpass goes with the other changes, having no store to compare)
    expect(again.map((r) => r.path).sort()).toEqual([
      ...['cost-estimation-settings', 'sms-settings', 'smtp-settings'].map((t) => `/api/v2/admin/${t}`),
      '/v1/ldap-prod/config',
      '/v1/ldap/config',
    ]);
    expect(lost.sort()).toEqual([...new Set(sent)].sort());
    expect(lost.length).toBeGreaterThan(30);
    // the secrets API: one POST per SSH role, CA, zero-address list and LDAP object written, each answer lost and read back
    const secretsWrites = changes(run.plan.actions).filter(
      (a) => providerMap.get(a.kind)?.api === 'secrets' && a.action !== 'delete',
    );
    expect(secretsWrites.filter((a) => a.kind.startsWith('LDAP')).length).toBeGreaterThan(15);
    const lostSecrets = lost.filter((key) => key.startsWith('POST /v1/'));
    expect(lostSecrets.map((key) => secretsKey(key.slice('POST '.length))).sort()).toEqual(
      secretsWrites.map((a) => a.key).sort(),
    );
    // a static role's creation whose answer was lost was sent once: its password rotated once
    for (const action of secretsWrites.filter((a) => a.kind === 'LDAPStaticRole' && a.action === 'create')) {
      const path = `/v1${ldapPath(action.address.scope ?? 'ldap', 'static-role', action.address.name)}`;
      expect(records.filter((r) => r.method === 'POST' && r.path === path).length, path).toBe(1);
    }
    await expectStaticRolesRotatedOnce(
      target,
      secretsWrites.filter((a) => a.action === 'create'),
    );
    for (const key of lostSecrets) {
      const path = key.slice('POST '.length);
      const at = records.findIndex((r) => r.method === 'POST' && r.path === path);
      expect(
        records.slice(at + 1).some((r) => r.method === 'GET' && r.path === path),
        `${path} read back`,
      ).toBe(true);
    }
    const recovered = run.events.filter((e) => e.type === 'action-done' && e.recovered).length;
    const sparedKeys = new Set(
      records
        .filter((r) => spared.includes(`${r.method} ${r.path}${createdVersion(r.body)}`))
        .map((r) => registryWrite(r)?.key),
    );
    // (a version made anew is published by its create, not read back)
    const writing = changes(run.plan.actions).filter(
      (a) => a.action !== 'delete' && !sparedKeys.has(a.key) && !remade.has(a.key),
    ).length;
    expect(recovered).toBe(writing);
    expect(changes((await plan(target, desired, { client: CLIENT })).plan.actions)).toEqual([]);
    // every version whose create's answer was lost was deleted, made anew and uploaded, once
    expect(await registrySnapshot(target)).toEqual(expectedRegistry(registryBefore));
    const versionCreates = changes(run.plan.actions).filter((a) => a.kind === 'RegistryModuleVersion');
    const lostVersions = records
      .filter((r) => r.method === 'POST' && lost.includes(`POST ${r.path}${createdVersion(r.body)}`))
      .map((r) => registryWrite(r)?.key)
      .filter((key) => key?.startsWith('RegistryModuleVersion/'));
    expect([...remade].sort()).toEqual([...new Set(lostVersions)].sort());
    for (const action of versionCreates) {
      const writes = records.filter((r) => registryWrite(r)?.key === action.key).map((r) => r.method);
      expect(writes, action.key).toEqual(remade.has(action.key) ? ['POST', 'DELETE', 'POST'] : ['POST']);
    }
    expect(remade.size).toBeGreaterThan(0);
    const uploads = records.filter((r) => r.method === 'PUT' && r.path.includes('/_archivist/v1/object/'));
    expect(uploads.length).toBe(versionCreates.length);
  });
});

/** Reproductions of the three fixed bugs above, each as small as it gets. */
describe('the registry kinds after a lost answer (the fixed bugs, reproduced)', () => {
  let dir: string;
  beforeAll(async () => {
    dir = join(scratch.dir, 'known-bugs');
    await mkdir(dir, { recursive: true });
    await materialize(dir, { files: { ...moduleFiles('a', 'version a'), ...moduleFiles('b', 'version b') } });
  });

  /** A manifest of one private module with this spec. */
  async function manifestOf(spec: Record<string, unknown>) {
    const file = await writeManifest(join(dir, `manifest-${Date.now()}-${Math.random()}.yaml`), [
      { kind: 'RegistryModule', metadata: { organization: REGISTRY_ORG, name: 'repro', provider: 'aws' }, spec },
    ]);
    return desiredFrom([file]);
  }

  /** One private module with these versions and spec applied, the client losing the first answer of `lose`. */
  async function applyLosing(
    spec: Record<string, unknown>,
    lose: (o: RequestOptions) => boolean,
    wrap: (c: HttpClient) => HttpClient = (c) => c,
  ) {
    const running = await emulator();
    server = running;
    const target = targetOf(running);
    const wanted = await manifestOf(spec);
    const records: Recorded[] = [];
    const run = await apply(target, wanted, {
      parallelism: 1,
      client: {
        ...CLIENT,
        wrap: (c) =>
          recording(
            losingFirstWrites(wrap(c), [], (o) => !lose(o)),
            records,
          ),
      },
    });
    return { target, wanted, run, records };
  }
  const versionPost = (o: RequestOptions) => o.method === 'POST' && o.path.endsWith('/versions');
  const versionWrites = (records: readonly Recorded[], version: string) =>
    records
      .filter((r) => registryWrite(r)?.key === `RegistryModuleVersion/${REGISTRY_ORG}/repro/aws/${version}`)
      .map((r) => r.method);
  const statuses = async (target: Target) =>
    [...((await registryParsed(target))[0]?.attributes['version-statuses'] ?? [])].sort((x, y) =>
      x.version.localeCompare(y.version),
    );
  /** What an apply reports of a version made without content as its module's only version. */
  const onlyVersionFailure = (version: string) => ({
    key: `RegistryModuleVersion/${REGISTRY_ORG}/repro/aws/${version}`,
    action: 'create',
    error: {
      code: 'API_ERROR',
      message: `POST /api/v2${registryModulesPath(REGISTRY_ORG)}/private/${REGISTRY_ORG}/repro/aws/versions: version ${version} was created, but the answer carrying its upload link was lost: it has no content, and the registry gives an upload link only when a version is created`,
    },
  });

  it('a version whose POST answer was lost is read afresh, not created again blindly', async () => {
    const { target, wanted, run, records } = await applyLosing(
      {
        versions: [
          { version: '1.0.0', source: 'mods/a' },
          { version: '1.1.0', source: 'mods/b' },
        ],
      },
      versionPost,
    );
    // 1.1.0 was made after the plan read the module list: found all the same, never POSTed onto itself
    expect(records.filter((r) => r.error?.status === 422).map((r) => r.path)).toEqual([]);
    // made without content, beside another version: deleted and published anew
    expect(versionWrites(records, '1.1.0')).toEqual(['POST', 'DELETE', 'POST']);
    // the module's only version when its answer was lost: deleting it would delete the module
    expect(versionWrites(records, '1.0.0')).toEqual(['POST']);
    expect(run.summary.failed).toEqual([onlyVersionFailure('1.0.0')]);
    expect(run.events.some((e) => e.type === 'action-done' && e.action.key.endsWith('/1.0.0'))).toBe(false);
    expect(await statuses(target)).toEqual([
      { version: '1.0.0', status: 'pending' },
      { version: '1.1.0', status: 'ok' },
    ]);
    // the next plan replaces it (no longer the only version), with why as a note: never "no changes"
    const next = await plan(target, wanted, { client: CLIENT });
    expect(changes(next.plan.actions).map((a) => `${a.action} ${a.key}`)).toEqual([
      `replace RegistryModuleVersion/${REGISTRY_ORG}/repro/aws/1.0.0`,
    ]);
    expect(next.plan.actions.flatMap((a) => (a.notes ?? []).map((n) => `${a.address.name}: ${n}`))).toEqual([
      'repro/aws/1.0.0: not published: this version exists without content (its upload never arrived), and cannot be uploaded any more; it is replaced, deleted and published anew.',
      'repro/aws/1.0.0: destructive: the object is deleted before the new one is created and cannot be put back if the create fails (digest is never read back, so cannot be sent again); apply needs --allow-replace RegistryModuleVersion',
    ]);
    const repaired = await apply(target, wanted, { client: CLIENT });
    expect(repaired.summary.failed).toEqual([]);
    expect(await statuses(target)).toEqual([
      { version: '1.0.0', status: 'ok' },
      { version: '1.1.0', status: 'ok' },
    ]);
    expect(changes((await plan(target, wanted, { client: CLIENT })).plan.actions)).toEqual([]);
  });

  it('a version made without content is never reported created, and is replaced once it is not its module’s only version', async () => {
    const { target, run } = await applyLosing({ versions: [{ version: '1.0.0', source: 'mods/a' }] }, versionPost);
    expect(run.summary.failed).toEqual([onlyVersionFailure('1.0.0')]);
    expect(run.summary.done).toEqual({ create: 1 }); // the module
    expect(await statuses(target)).toEqual([{ version: '1.0.0', status: 'pending' }]);

    // the module's only version: the plan replaces it all the same (never "no changes"), and the
    // apply refuses the delete, which would delete the module
    const wanted = await manifestOf({ versions: [{ version: '1.0.0', source: 'mods/a' }] });
    const alone = await apply(target, wanted, { client: CLIENT });
    expect(changes(alone.plan.actions).map((a) => `${a.action} ${a.key}`)).toEqual([
      `replace RegistryModuleVersion/${REGISTRY_ORG}/repro/aws/1.0.0`,
    ]);
    expect(alone.plan.actions.flatMap((a) => a.notes ?? [])[0]).toMatch(/publish another version first\.$/);
    expect(alone.summary.failed.map((f) => f.error.message)).toEqual([
      expect.stringMatching(
        /^replace failed: the delete failed \(not deleted: 1\.0\.0 is the only version.*is unchanged$/,
      ),
    ]);
    expect(await statuses(target)).toEqual([{ version: '1.0.0', status: 'pending' }]);

    // what the failure's hint says: publish another version first, then apply again (the replace)
    const another = await manifestOf({ versions: [{ version: '1.1.0', source: 'mods/b' }] });
    expect((await apply(target, another, { client: CLIENT })).summary.failed).toEqual([]);
    const both = await manifestOf({
      versions: [
        { version: '1.0.0', source: 'mods/a' },
        { version: '1.1.0', source: 'mods/b' },
      ],
    });
    const again = await apply(target, both, { client: CLIENT });
    expect(changes(again.plan.actions).map((a) => `${a.action} ${a.key}`)).toEqual([
      `replace RegistryModuleVersion/${REGISTRY_ORG}/repro/aws/1.0.0`,
    ]);
    expect(again.summary.failed).toEqual([]);
    expect(await statuses(target)).toEqual([
      { version: '1.0.0', status: 'ok' },
      { version: '1.1.0', status: 'ok' },
    ]);
  });

  /** The registry's upload store answers the `nth` upload (from 1) with a 500, every retry included: it never arrives. */
  const failingUpload =
    (nth: number) =>
    (c: HttpClient): HttpClient => {
      let uploads = 0;
      return delegate(c, async <T>(options: RequestOptions): Promise<HttpResponse<T>> => {
        if (options.method === 'PUT' && ++uploads === nth) {
          throw new ApiError({
            status: 500,
            method: 'PUT',
            path: options.path,
            messages: ['the upload store is unavailable'],
            outcome: 'failed',
            api: 'platform',
            note: 'gave up after 3 attempts',
          });
        }
        return c.request<T>(options);
      });
    };

  it('a version whose upload failed is made anew beside another version, never left looking published', async () => {
    const { target, run, records } = await applyLosing(
      {
        versions: [
          { version: '1.0.0', source: 'mods/a' },
          { version: '1.1.0', source: 'mods/b' },
        ],
      },
      () => false,
      failingUpload(2),
    );
    expect(run.summary.failed).toEqual([]);
    expect(versionWrites(records, '1.1.0')).toEqual(['POST', 'DELETE', 'POST']);
    expect(await statuses(target)).toEqual([
      { version: '1.0.0', status: 'ok' },
      { version: '1.1.0', status: 'ok' },
    ]);
  });

  it('a module’s only version whose upload failed is reported failed, and stays unpublished', async () => {
    const { target, run, records } = await applyLosing(
      { versions: [{ version: '1.0.0', source: 'mods/a' }] },
      () => false,
      failingUpload(1),
    );
    expect(versionWrites(records, '1.0.0')).toEqual(['POST']);
    expect(run.summary.failed.map((f) => `${f.key} ${f.error.message}`)).toEqual([
      `RegistryModuleVersion/${REGISTRY_ORG}/repro/aws/1.0.0 POST /api/v2${registryModulesPath(REGISTRY_ORG)}/private/${REGISTRY_ORG}/repro/aws/versions: version 1.0.0 was created, but its upload failed (500 the upload store is unavailable (gave up after 3 attempts)): it has no content, and the registry gives an upload link only when a version is created`,
    ]);
    expect(await statuses(target)).toEqual([{ version: '1.0.0', status: 'pending' }]);
    // the upload link, a capability, is never shown
    const link = records.find((r) => r.method === 'PUT')?.path ?? '';
    expect(link).toMatch(/\/_archivist\/v1\/object\/\S+$/);
    expect(JSON.stringify(run.summary)).not.toContain(link.split('/').at(-1));
  });

  it('a module whose create POST answer was lost gets its test-config', async () => {
    const modulePost = (o: RequestOptions) =>
      o.method === 'POST' && o.path === `/api/v2${registryModulesPath(REGISTRY_ORG)}`;
    const { target, wanted, run } = await applyLosing({ 'test-config': { 'tests-enabled': true } }, modulePost);
    expect(run.summary.failed).toEqual([]);
    // today: the create is reported done (read back, found) and its PATCH of test-config never sent
    const again = await plan(target, wanted, { client: CLIENT });
    expect(changes(again.plan.actions).map((a) => `${a.action} ${a.key}`)).toEqual([]);
  });
});
