import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningEmulator, startEmulator } from '../../src/emulator/server.ts';
import { providers } from '../../src/providers/index.ts';
import type { DesiredObject } from '../../src/reconcile/types.ts';
import { api, apply, applyPlanned, changes, desiredFrom, plan, secrets, type Target } from '../helpers/engine.ts';
import { KINDS_FIXTURE, kindsFixtureSecrets, SSH_CA_KEY_CANARIES } from '../helpers/kinds-fixture.ts';

const FIXTURES = KINDS_FIXTURE;
const ENV = kindsFixtureSecrets('canary');

let emulator: RunningEmulator;
let target: Target;
let desired: DesiredObject[];

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  target = { url: emulator.url, token: emulator.tokens.admin, secretsToken: emulator.tokens.secrets };
  desired = await desiredFrom([FIXTURES], ENV);
});
afterAll(() => emulator?.close());

/** Every registered kind: a kind added later fails here until the fixtures and DRIFT below cover it. */
const KINDS = providers.map((p) => p.kind);
/** Kinds of keyed child lists (a module's versions): planned as objects of their own. */
const CHILD_KINDS = providers.flatMap((p) => (p.children ?? []).map((c) => c.provider.kind));

/** An id of a version, looked up the way an operator would. */
async function versionId(collection: string, version: string): Promise<string> {
  const found = await api(target, 'GET', `/admin/${collection}?filter%5Bversion%5D=${version}`);
  const data = found.body?.data as Array<{ id: string }>;
  return data[0]?.id ?? '';
}

async function userId(username: string): Promise<string> {
  const found = await api(target, 'GET', `/admin/users?q=${username}`);
  const data = found.body?.data as Array<{ id: string; attributes: { username: string } }>;
  return data.find((u) => u.attributes.username === username)?.id ?? '';
}

const settings = (type: string, attributes: Record<string, unknown>) => ({ data: { type, attributes } });

/** For each kind: what someone changes behind converge's back, and the change converge must then plan. */
const DRIFT: Array<{
  kind: string;
  key: string;
  field: string;
  change: () => Promise<unknown>;
  /** What converge plans to repair it: an update, unless the field cannot change in place. */
  action?: 'update' | 'replace';
}> = [
  {
    kind: 'GeneralSettings',
    key: 'GeneralSettings',
    field: 'api-rate-limit',
    change: () =>
      api(target, 'PATCH', '/admin/general-settings', settings('general-settings', { 'api-rate-limit': 250 })),
  },
  {
    kind: 'CostEstimationSettings',
    key: 'CostEstimationSettings',
    field: 'enabled',
    change: () =>
      api(target, 'PATCH', '/admin/cost-estimation-settings', settings('cost-estimation-settings', { enabled: false })),
  },
  {
    kind: 'SAMLSettings',
    key: 'SAMLSettings',
    field: 'attr-username',
    change: () => api(target, 'PATCH', '/admin/saml-settings', settings('saml-settings', { 'attr-username': 'Other' })),
  },
  {
    kind: 'SMTPSettings',
    key: 'SMTPSettings',
    field: 'sender',
    change: () =>
      api(target, 'PATCH', '/admin/smtp-settings', settings('smtp-settings', { sender: 'someone@example.com' })),
  },
  {
    kind: 'SMSSettings',
    key: 'SMSSettings',
    field: 'from-number',
    change: () =>
      api(target, 'PATCH', '/admin/sms-settings', settings('sms-settings', { 'from-number': '+15555550199' })),
  },
  {
    kind: 'CustomizationSettings',
    key: 'CustomizationSettings',
    field: 'footer',
    change: () =>
      api(target, 'PATCH', '/admin/customization-settings', settings('customization-settings', { footer: 'hacked' })),
  },
  {
    kind: 'ToolVersion',
    key: 'ToolVersion/1.9.8',
    field: 'enabled',
    change: async () =>
      api(target, 'PATCH', `/admin/tool-versions/${await versionId('tool-versions', '1.9.8')}`, {
        data: { type: 'tool-versions', attributes: { enabled: false } },
      }),
  },
  {
    kind: 'PolicyVersion',
    key: 'PolicyVersion/0.26.0',
    field: 'url',
    change: async () =>
      api(target, 'PATCH', `/admin/policy-versions/${await versionId('policy-versions', '0.26.0')}`, {
        data: { type: 'policy-versions', attributes: { url: 'https://elsewhere.example.com/p.zip' } },
      }),
  },
  {
    kind: 'AdminUser',
    key: 'AdminUser/member',
    field: 'is-admin',
    change: async () => api(target, 'POST', `/admin/users/${await userId('member')}/actions/revoke_admin`),
  },
  {
    kind: 'SSHRole',
    key: 'SSHRole/ssh/web-otp',
    field: 'cidr_list',
    // the POST rebuilds the role: what is not sent returns to its default
    change: () =>
      secrets(target, 'POST', '/ssh/roles/web-otp', {
        key_type: 'otp',
        default_user: 'ubuntu',
        cidr_list: '10.0.0.0/8',
      }),
  },
  {
    kind: 'SSHCertificateAuthority',
    key: 'SSHCertificateAuthority/ssh',
    field: 'public_key',
    action: 'replace',
    change: () => secrets(target, 'POST', '/ssh/config/ca', { key_type: 'ed25519' }),
  },
  {
    kind: 'SSHZeroAddress',
    key: 'SSHZeroAddress/ssh',
    field: 'roles',
    change: () => secrets(target, 'POST', '/ssh/config/zeroaddress', { roles: 'engineers' }),
  },
  {
    kind: 'LDAPConfig',
    key: 'LDAPConfig/ldap',
    field: 'request_timeout',
    change: () => secrets(target, 'POST', '/ldap/config', { request_timeout: '5m' }),
  },
  {
    kind: 'LDAPStaticRole',
    key: 'LDAPStaticRole/ldap/apps/app1',
    field: 'rotation_period',
    change: () => secrets(target, 'POST', '/ldap/static-role/apps/app1', { rotation_period: '48h' }),
  },
  {
    kind: 'LDAPDynamicRole',
    key: 'LDAPDynamicRole/ldap/team/readonly',
    field: 'default_ttl',
    change: () => secrets(target, 'POST', '/ldap/role/team/readonly', { default_ttl: '10m' }),
  },
  {
    kind: 'LDAPLibrarySet',
    key: 'LDAPLibrarySet/ldap/batch',
    field: 'service_account_names',
    change: () => secrets(target, 'POST', '/ldap/library/batch', { service_account_names: ['svc-batch1'] }),
  },
  {
    kind: 'RegistryModule',
    key: 'RegistryModule/example-org/storage/aws',
    field: 'test-config.tests-enabled',
    change: () =>
      api(target, 'PATCH', '/organizations/example-org/registry-modules/private/example-org/storage/aws', {
        data: { type: 'registry-modules', attributes: { 'test-config': { 'tests-enabled': true } } },
      }),
  },
  {
    kind: 'ModuleTestVariable',
    key: 'ModuleTestVariable/example-org/network/aws/TF_VAR_cidr_block',
    field: 'value',
    change: async () => {
      const prefix = '/organizations/example-org/tests/registry-modules/private/example-org/network/aws/vars';
      const listed = await api(target, 'GET', prefix);
      const variables = (listed.body?.data ?? []) as Array<{ id: string; attributes: { key: string } }>;
      const id = variables.find((v) => v.attributes.key === 'TF_VAR_cidr_block')?.id;
      return api(target, 'PATCH', `${prefix}/${id}`, { data: { type: 'vars', attributes: { value: '10.9.0.0/16' } } });
    },
  },
];

describe('every kind against the emulator', () => {
  it('plans a change for every kind before the first apply', async () => {
    const run = await plan(target, desired);
    expect(run.problems).toEqual([]);
    const kinds = new Set(changes(run.plan.actions).map((a) => a.kind));
    expect([...kinds].sort()).toEqual([...KINDS, ...CHILD_KINDS].sort());
  });

  it('applies every kind without a failure, then plans no change', async () => {
    const { summary } = await apply(target, desired);
    expect(summary.failed.map((f) => `${f.key}: ${f.error.message}`)).toEqual([]);
    const again = await plan(target, desired);
    expect(changes(again.plan.actions)).toEqual([]);
    const parents = again.plan.actions.filter((a) => !CHILD_KINDS.includes(a.kind));
    expect(parents.map((a) => a.kind).sort()).toEqual(desired.map((d) => d.kind).sort());
  });

  it('never receives a write-only value back from the API', async () => {
    for (const path of ['/admin/smtp-settings', '/admin/sms-settings', '/admin/cost-estimation-settings']) {
      const text = JSON.stringify((await api(target, 'GET', path)).body);
      for (const secret of Object.values(ENV).filter((v) => v.startsWith('canary'))) {
        expect(text).not.toContain(secret);
      }
    }
    const ca = JSON.stringify((await secrets(target, 'GET', '/ssh/config/ca')).body);
    for (const line of SSH_CA_KEY_CANARIES) expect(ca).not.toContain(line);
    // the LDAP engine's bind password and client certificate and key are not read back either
    const ldap = JSON.stringify((await secrets(target, 'GET', '/ldap/config')).body);
    for (const name of ['LDAP_BINDPASS', 'LDAP_CLIENT_CERT', 'LDAP_CLIENT_KEY']) expect(ldap).not.toContain(ENV[name]);
  });

  it('has a drift case for every kind', () => {
    expect(DRIFT.map((d) => d.kind).sort()).toEqual([...KINDS].sort());
  });

  it.each(DRIFT)('shows a change to $kind made through the API as drift, and repairs it', async (drift) => {
    const response = (await drift.change()) as { status: number };
    expect(response.status).toBeLessThan(300);
    const run = await plan(target, desired);
    const drifted = changes(run.plan.actions);
    expect(drifted.map((a) => a.key)).toEqual([drift.key]);
    expect(drifted[0]?.action).toBe(drift.action ?? 'update');
    expect(drifted[0]?.changes.map((c) => c.path)).toContain(drift.field);

    // the plan that showed the drift repairs it (as a saved plan would): the test above applies from a fresh read
    const { summary } = await applyPlanned(target, run);
    expect(summary.failed).toEqual([]);
    expect(changes((await plan(target, desired)).plan.actions)).toEqual([]);
  });

  it('reads each kind in as few requests as the API allows', async () => {
    emulator.resetStats();
    await plan(target, desired);
    const stats = emulator.stats();
    // six settings documents, one page each of tool versions, policy versions and users;
    // SSH: one LIST of the mount's roles and a GET per role (the list has names only), the CA, the zero-address list;
    // LDAP: the config; per hierarchical collection a LIST of each level on the way (two) and a GET per object,
    // and a library set's status; registry: one page of the organization's modules (versions included),
    // and one variable list for the one module that has declared variables
    expect(stats.total).toBe(9 + (1 + 2 + 1 + 1) + (1 + 3 + 3 + 3) + (1 + 1));
  });
});
