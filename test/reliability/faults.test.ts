/**
 * Faults: the emulator fails 20 % of requests with a 429, a 500, a 503, a
 * dropped connection, a timeout or a lost answer (applied, then the
 * connection dropped), each alone and all mixed. An apply of every kind
 * (test/fixtures/kinds plus creates, updates and deletes of versions, and of
 * SSH roles in two mounts of the secrets API with a generated CA and a
 * zero-address list, and of the LDAP engine's config, static roles, dynamic
 * roles and library sets in two mounts) then:
 * - reports every action as done or failed with a message, counts that match,
 *   and "done" only for what really is done;
 * - creates nothing twice: a create whose answer was lost is read back, not repeated
 *   (a static role's creation rotates its account's password: once);
 * - touches nothing outside the plan (seeded versions no manifest mentions stay as they were);
 * - converges: applying again (still under faults) ends with a plan of 0 changes.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { delegate } from '../../src/api/delegate.ts';
import { NetworkError } from '../../src/api/errors.ts';
import type { HttpClient, HttpResponse, RequestOptions } from '../../src/api/types.ts';
import type { FaultKind, SeedData } from '../../src/emulator/server.ts';
import { kebabKind } from '../../src/export/names.ts';
import { addressKey } from '../../src/reconcile/address.ts';
import type { ApplySummary, ReconcileEvent } from '../../src/reconcile/events.ts';
import type { DesiredObject, PlannedAction } from '../../src/reconcile/types.ts';
import { api, apply, changes, desiredFrom, plan, providerMap, secrets, type Target } from '../helpers/engine.ts';
import { KINDS_FIXTURE, kindsFixtureSecrets } from '../helpers/kinds-fixture.ts';
import { LDAP_ADMIN_DN, LDAP_ADMIN_PASSWORD, LDAP_URL, type ManifestDoc } from './arbitraries.ts';
import {
  type Emulator,
  emulator,
  ldapPath,
  listHierarchy,
  type Recorded,
  recording,
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

/** A request that is held longer than the client waits: the client gives up and the outcome is unknown. */
const CLIENT = { requestTimeoutMs: 400, assumedRateLimit: 0 };
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
  desired = await desiredFrom([KINDS, extra], ENV);
  return () => scratch.remove();
});

let server: Emulator | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(): Promise<{ server: Emulator; target: Target }> {
  server = await emulator({ seed: SEED });
  const target = targetOf(server);
  for (const { mount, name, body } of SSH_SEEDED) {
    expect((await secrets(target, 'POST', `/${mount}/roles/${name}`, body)).status).toBe(204);
  }
  for (const { path, body } of LDAP_SEEDED) expect((await secrets(target, 'POST', path, body)).status, path).toBe(204);
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

/** The summary agrees with the plan and with the events, and every failure says what failed. */
function expectAccurateSummary(actions: readonly PlannedAction[], summary: ApplySummary, events: ReconcileEvent[]) {
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
  for (const f of summary.failed) expect(f.error.message).toMatch(/^(GET|POST|PATCH|DELETE) \/(api\/v2|v1)\/\S+: \S/);
  expect(summary.skipped.every((s) => s.reason === 'dependency-failed')).toBe(true);
}

/** Every write went to an object of a planned action, and no create hit an object that already existed. */
function expectOnlyPlannedWrites(actions: readonly PlannedAction[], records: readonly Recorded[]) {
  const todo = changes(actions);
  const refs = new Set(todo.flatMap((a) => (a.ref ? [a.ref] : [])));
  const creates = new Set(todo.filter((a) => a.action === 'create').map((a) => `${a.kind}/${a.address.name}`));
  const singletons = new Set(
    todo.filter((a) => a.address.name === '').map((a) => `/api/v2/admin/${kebabKind(a.kind)}`),
  );
  const creating = new Map<string, number>();
  const keys = new Set(todo.map((a) => a.key));
  for (const r of records) {
    if (r.method === 'GET') continue;
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
  // a create is sent again only after an attempt that did not reach the server or whose answer was lost
  for (const [key, count] of creating) expect(count, key).toBeLessThanOrEqual(2);
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
    expect(new Set(planned.map((a) => a.kind))).toEqual(new Set(desired.map((d) => d.kind)));
    expect(new Set(planned.map((a) => a.action))).toEqual(new Set(['create', 'update', 'delete']));

    server.setFaults({ rate: FAULT_RATE, kinds, seed, holdMs: 5_000 });
    server.resetStats();
    const records: Recorded[] = [];
    const client = { ...CLIENT, wrap: (c: HttpClient) => recording(c, records) };
    let run = await apply(target, desired, { client });
    expect(run.plan.actions.map((a) => `${a.action} ${a.key}`)).toEqual(
      first.plan.actions.map((a) => `${a.action} ${a.key}`),
    );
    const stats = server.stats();
    expect(stats.faults).toBeGreaterThan(0);
    expectAccurateSummary(run.plan.actions, run.summary, run.events);
    expectOnlyPlannedWrites(run.plan.actions, records);
    expect(stats.byStatus['422'] ?? 0, 'a create or an action was repeated').toBe(0);
    expect(stats.byStatus['400'] ?? 0, 'the secrets API refused a write').toBe(0);
    const writeRoutes = Object.keys(stats.byRoute).filter((r) => !r.startsWith('GET '));
    for (const route of writeRoutes) {
      expect(route).toMatch(
        /^(PATCH \/api\/v2\/admin\/[a-z-]+-settings|POST \/api\/v2\/admin\/(tool|policy)-versions|(PATCH|DELETE) \/api\/v2\/admin\/(tool|policy)-versions\/:id|POST \/api\/v2\/admin\/users\/:id\/actions\/(grant_admin|suspend|unsuspend|revoke_admin)|(POST|DELETE) \/v1\/ssh(-prod)?\/roles\/:name|POST \/v1\/ssh(-prod)?\/config\/(ca|zeroaddress)|POST \/v1\/ldap(-prod|-new)?\/config|(POST|DELETE) \/v1\/ldap(-prod)?\/(static-role|role|library)\/\*)$/,
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
        .map((a) => a.key),
    ).toEqual([]);

    // applying again under faults converges, and each apply only redoes what did not get done
    let attempts = 1;
    while (run.summary.failed.length + run.summary.skipped.length > 0 && attempts < 5) {
      const left = new Set([...run.summary.failed, ...run.summary.skipped].map((f) => f.key));
      server.setFaults({ rate: FAULT_RATE, kinds, seed: seed * 100 + attempts, holdMs: 5_000 });
      const again = await apply(target, desired, { client });
      for (const a of changes(again.plan.actions)) expect(left.has(a.key), `${a.key} was done already`).toBe(true);
      expectAccurateSummary(again.plan.actions, again.summary, again.events);
      run = again;
      attempts++;
    }
    expect(run.summary.failed).toEqual([]);
    server.setFaults(undefined);
    const last = await plan(target, desired, { client: CLIENT });
    expect(changes(last.plan.actions).map((a) => `${a.action} ${a.key}`)).toEqual([]);

    // each version once, the deleted one gone, the untouched ones exactly as they were
    for (const type of ['tool-versions', 'policy-versions']) {
      const names = (await versions(target, type)).map((v) => String(v.attributes.version));
      expect(names.length, type).toBe(new Set(names).size);
    }
    expect((await versions(target, 'tool-versions')).some((v) => v.attributes.version === '1.4.0')).toBe(false);
    expect(await untouchedSnapshot(target)).toEqual(before);

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
  }, 60_000);
});

/** ` 1.2.3` for the body of a version create, '' otherwise. */
function createdVersion(body: unknown): string {
  const version = (body as { data?: { attributes?: { version?: unknown } } } | undefined)?.data?.attributes?.version;
  return typeof version === 'string' ? ` ${version}` : '';
}

/**
 * A client that loses the answer of the first POST or PATCH to each object: the
 * server applies it, converge hears nothing (as with the emulator's `lost`
 * fault, but on exactly the requests that matter).
 */
function losingFirstWrites(client: HttpClient, lost: string[]): HttpClient {
  const seen = new Set<string>();
  return delegate(client, async <T>(options: RequestOptions): Promise<HttpResponse<T>> => {
    const response = await client.request<T>(options);
    const key = `${options.method} ${options.path}${createdVersion(options.body)}`;
    if ((options.method === 'POST' || options.method === 'PATCH') && !seen.has(key)) {
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

describe('a lost answer', () => {
  it('is read back for every kind: no create, update or user action is sent twice (only secrets are resent)', async () => {
    const { target } = await start();
    const records: Recorded[] = [];
    const lost: string[] = [];
    const run = await apply(target, desired, {
      client: { ...CLIENT, wrap: (c) => recording(losingFirstWrites(c, lost), records) },
    });
    expect(run.summary.failed).toEqual([]);
    const writes = records.filter((r) => r.method === 'POST' || r.method === 'PATCH');
    // every write's answer was lost, and none was sent again
    const sent = writes.map((r) => `${r.method} ${r.path}${createdVersion(r.body)}`);
    // sent again: only write-only fields, which cannot be read back to see whether they were set
    const again = writes.filter((_r, i) => sent.indexOf(sent[i] ?? '') !== i);
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
    const writing = changes(run.plan.actions).filter((a) => a.action !== 'delete').length;
    expect(recovered).toBe(writing);
    expect(changes((await plan(target, desired, { client: CLIENT })).plan.actions)).toEqual([]);
  });
});
