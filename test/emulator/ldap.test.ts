/**
 * The LDAP secrets engine of the emulator over HTTP, on its in-memory
 * directory (`ldap://ldap.emulator.test`, seeded from
 * src/emulator/ldap/directory/default-seed.ts): config and root rotation,
 * static roles and their scheduler, dynamic roles and their leases, library
 * sets, and policies. The rules are the contract's (docs/emulator.md, "LDAP
 * engine").
 *
 * Whether a password works is asked of the directory itself, through a
 * second LDAP mount (`probe`) on the same in-memory directory, configured to
 * bind as the account: an operation that needs the directory then fails with
 * "Invalid Credentials" when the password is wrong (see `binds`).
 */
import { describe, expect, it } from 'vitest';
import type { SeedData } from '../../src/emulator/seed.ts';
import type { EmulatorOptions } from '../../src/emulator/server.ts';
import { type SecretsAnswer, type SecretsClient, startSecrets } from './secrets-client.ts';

const MEMORY_URL = 'ldap://ldap.emulator.test';
const ADMIN_DN = 'cn=admin,dc=example,dc=org';
const ADMIN_PASSWORD = 'admin-password';
const SERVICE_OU = 'ou=service,dc=example,dc=org';
const PEOPLE_OU = 'ou=people,dc=example,dc=org';
const CONFIG = { url: MEMORY_URL, binddn: ADMIN_DN, bindpass: ADMIN_PASSWORD, userdn: SERVICE_OU };
const DAY = 86400;
const INVALID_CREDENTIALS = 'LDAP Result Code 49 "Invalid Credentials"';

/** Every test gets a `probe` mount next to `ldap`, on the same in-memory directory. */
const PROBE_SEED: SeedData = { secrets: { mounts: [{ path: 'probe', type: 'ldap' }] } };

function expectError(answer: SecretsAnswer, status: number, message: string): void {
  expect({ status: answer.status, body: answer.body }).toEqual({ status, body: { errors: [message] } });
}

/** A plain error of the engine: 500 with the service's wrapped text. */
function expectFailed(answer: SecretsAnswer, message: string): void {
  expectError(answer, 500, `1 error occurred:\n\t* ${message}\n\n`);
}

function expectNotFound(answer: SecretsAnswer): void {
  expect({ status: answer.status, body: answer.body }).toEqual({ status: 404, body: { errors: [] } });
}

function expectWritten(answer: SecretsAnswer): void {
  expect({ status: answer.status, text: answer.text }).toEqual({ status: 204, text: '' });
}

function expectOk(answer: SecretsAnswer): void {
  expect(answer.status, answer.text).toBe(200);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` until it holds or `ms` pass; answers whether it held. */
async function eventually(check: () => Promise<boolean>, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > until) return false;
    await sleep(200);
  }
}

/**
 * A clock the test moves forward: the emulator reads it for leases and rotations (EmulatorOptions.now),
 * so a test of what happens once a period ends need not wait the period out. The engine still looks
 * for due rotations and ended leases on real one-second ticks: after a move, `eventually` waits for one.
 */
function movableClock(): { now: () => number; advance: (ms: number) => void } {
  let offset = 0;
  return {
    now: () => Date.now() + offset,
    advance: (ms) => {
      offset += ms;
    },
  };
}

/** Long enough for the engine's next tick (every second, src/emulator/ldap and src/emulator/secrets) on a busy machine. */
const NEXT_TICK_MS = 4_500;

async function emulator(options: EmulatorOptions = {}): Promise<SecretsClient> {
  return startSecrets({ seed: PROBE_SEED, ...options });
}

/** An emulator whose `ldap` mount is configured on the in-memory directory as its admin. */
async function configured(extra: Record<string, unknown> = {}, options: EmulatorOptions = {}) {
  const client = await emulator(options);
  expectWritten(await client.post('/ldap/config', { ...CONFIG, ...extra }));
  return client;
}

/**
 * Whether `password` binds as `dn` in the in-memory directory: the probe
 * mount binds as that entry, then searches for an account that does not
 * exist (400 once bound; 500 Invalid Credentials when the bind fails).
 */
async function binds(client: SecretsClient, dn: string, password: string): Promise<boolean> {
  expectWritten(await client.post('/probe/config', { url: MEMORY_URL, binddn: dn, bindpass: password }));
  const answer = await client.post('/probe/static-role/probe', {
    username: 'no-such-account',
    rotation_period: '1h',
    skip_import_rotation: true,
  });
  if (answer.status === 400) return true;
  expect(answer.status, answer.text).toBe(500);
  expect(answer.body.errors?.[0]).toContain(INVALID_CREDENTIALS);
  return false;
}

const renew = (client: SecretsClient, body: Record<string, unknown>) =>
  client.request('PUT', '/sys/leases/renew', { body });
const revoke = (client: SecretsClient, leaseId: string) =>
  client.request('PUT', '/sys/leases/revoke', { body: { lease_id: leaseId } });

describe('LDAP config', () => {
  it('reads back the config with its defaults and without bindpass', async () => {
    const client = await configured();
    const answer = await client.get('/ldap/config');
    expectOk(answer);
    expect(answer.body).toMatchObject({ lease_id: '', renewable: false, lease_duration: 0, warnings: null });
    expect(answer.data).not.toHaveProperty('bindpass');
    expect(answer.text).not.toContain(ADMIN_PASSWORD);
    expect(answer.data).toMatchObject({
      url: MEMORY_URL,
      binddn: ADMIN_DN,
      userdn: SERVICE_OU,
      schema: 'openldap',
      userattr: 'cn',
      credential_type: 'password',
      groupattr: 'cn',
      userfilter: '({{.UserAttr}}={{.Username}})',
      groupfilter: '(|(memberUid={{.Username}})(member={{.UserDN}})(uniqueMember={{.UserDN}}))',
      deny_null_bind: true,
      insecure_tls: false,
      starttls: false,
      tls_min_version: 'tls12',
      tls_max_version: 'tls12',
      request_timeout: 90,
      connection_timeout: 30,
      dereference_aliases: 'never',
      max_page_size: 0,
      skip_static_role_import_rotation: false,
      rotation_period: 0,
      rotation_window: 0,
      rotation_schedule: '',
      rotation_policy: '',
      disable_automated_rotation: false,
    });
    // shown only when set
    for (const field of ['password_policy', 'length', 'last_bind_password_rotation']) {
      expect(answer.data).not.toHaveProperty(field);
    }
  });

  it('defaults userattr per schema, and keeps an explicit one', async () => {
    const client = await emulator();
    const expected = { openldap: 'cn', ad: 'userPrincipalName', racf: 'racfid' };
    for (const [schema, userattr] of Object.entries(expected)) {
      expectWritten(await client.post('/ldap/config', { ...CONFIG, schema }));
      expect((await client.get('/ldap/config')).data).toMatchObject({ schema, userattr });
      expectWritten(await client.delete('/ldap/config'));
    }
    expectWritten(await client.post('/ldap/config', { ...CONFIG, schema: 'AD', userattr: 'uid' }));
    expect((await client.get('/ldap/config')).data).toMatchObject({ schema: 'ad', userattr: 'uid' });
  });

  it('shows length and password_policy when set, and refuses both together with a wrapped 500', async () => {
    const client = await emulator();
    expectFailed(
      await client.post('/ldap/config', { ...CONFIG, length: 20, password_policy: 'ldap' }),
      "cannot set both 'password_policy' and 'length'",
    );
    expectNotFound(await client.get('/ldap/config'));
    expectWritten(await client.post('/ldap/config', { ...CONFIG, length: 20 }));
    expect((await client.get('/ldap/config')).data).toMatchObject({ length: 20 });
    // an update merges: the stored length and a new policy would be both
    expectFailed(
      await client.post('/ldap/config', { password_policy: 'ldap' }),
      "cannot set both 'password_policy' and 'length'",
    );
    expectWritten(await client.post('/ldap/config', { ...CONFIG, length: 0, password_policy: 'ldap' }));
    const data = (await client.get('/ldap/config')).data;
    expect(data).toMatchObject({ password_policy: 'ldap' });
    expect(data).not.toHaveProperty('length');
  });

  it('refuses an invalid schema and a missing binddn or bindpass', async () => {
    const client = await emulator();
    expectFailed(
      await client.post('/ldap/config', { ...CONFIG, schema: 'novell' }),
      'configured schema novell not valid',
    );
    expectError(await client.post('/ldap/config', { ...CONFIG, binddn: '' }), 400, 'missing binddn');
    expectError(await client.post('/ldap/config', { ...CONFIG, bindpass: undefined }), 400, 'missing bindpass');
    expectNotFound(await client.get('/ldap/config'));
  });

  it('merges an update into the stored config, keeping the bindpass', async () => {
    const client = await configured({ request_timeout: '2m' });
    expect((await client.get('/ldap/config')).data).toMatchObject({ request_timeout: 120 });
    expectWritten(await client.post('/ldap/config', { userattr: 'uid', starttls: 'false' }));
    const data = (await client.get('/ldap/config')).data;
    expect(data).toMatchObject({ url: MEMORY_URL, binddn: ADMIN_DN, userdn: SERVICE_OU, userattr: 'uid' });
    expect(data).toMatchObject({ request_timeout: 120 });
    // the bindpass is still there: the engine can still work on the directory
    expectWritten(await client.post('/ldap/static-role/app1', { username: 'svc-app1', rotation_period: '1h' }));
  });

  it('deletes the config; a missing config is 404', async () => {
    const client = await emulator();
    expectNotFound(await client.get('/ldap/config'));
    expectWritten(await client.post('/ldap/config', CONFIG));
    expectWritten(await client.delete('/ldap/config'));
    expectNotFound(await client.get('/ldap/config'));
    expectWritten(await client.delete('/ldap/config'));
  });
});

describe('LDAP rotate-root', () => {
  it('sets a new admin password only the engine knows, and the old one stops working', async () => {
    const client = await configured();
    expect(await binds(client, ADMIN_DN, ADMIN_PASSWORD)).toBe(true);
    const rotated = await client.post('/ldap/rotate-root');
    expectWritten(rotated);
    const data = (await client.get('/ldap/config')).data;
    expect(Date.parse(String(data.last_bind_password_rotation))).toBeGreaterThan(Date.now() - 10_000);
    // the engine's record, not a parameter
    expectWritten(await client.post('/ldap/config', { last_bind_password_rotation: '2000-01-01T00:00:00Z' }));
    expect((await client.get('/ldap/config')).data.last_bind_password_rotation).toBe(data.last_bind_password_rotation);
    expect(data).not.toHaveProperty('bindpass');
    // the engine uses the new password
    expectWritten(await client.post('/ldap/static-role/app1', { username: 'svc-app1', rotation_period: '1h' }));
    // the old one no longer binds
    expect(await binds(client, ADMIN_DN, ADMIN_PASSWORD)).toBe(false);
    // configured again with the old password, operations fail with invalid credentials
    expectWritten(await client.post('/ldap/config', { bindpass: ADMIN_PASSWORD }));
    const answer = await client.post('/ldap/static-role/batch1', { username: 'svc-batch1', rotation_period: '1h' });
    expect(answer.status).toBe(500);
    expect(answer.body.errors?.[0]).toContain(INVALID_CREDENTIALS);
    expect((await client.post('/ldap/rotate-root')).body.errors?.[0]).toContain(INVALID_CREDENTIALS);
  });

  it('needs a config', async () => {
    const client = await emulator();
    expectFailed(await client.post('/ldap/rotate-root'), 'missing LDAP configuration');
  });
});

describe('LDAP static roles', () => {
  it('creates a role by username under userdn, rotates on import, and reads it back', async () => {
    const client = await configured();
    expectWritten(await client.post('/ldap/static-role/app1', { username: 'svc-app1', rotation_period: '1h' }));
    const role = await client.get('/ldap/static-role/app1');
    expectOk(role);
    expect(role.data).toEqual({
      dn: `cn=svc-app1,${SERVICE_OU}`,
      username: 'svc-app1',
      rotation_period: 3600,
      last_service_rotation: expect.any(String),
    });
    const cred = await client.get('/ldap/static-cred/app1');
    expectOk(cred);
    expect(cred.data).toMatchObject({
      dn: `cn=svc-app1,${SERVICE_OU}`,
      username: 'svc-app1',
      rotation_period: 3600,
      last_password: '',
      last_service_rotation: role.data.last_service_rotation,
    });
    expect(cred.data.ttl).toBeGreaterThan(3590);
    expect(cred.data.ttl).toBeLessThanOrEqual(3600);
    const password = String(cred.data.password);
    expect(password).toMatch(/^[A-Za-z0-9]{64}$/);
    expect(await binds(client, `cn=svc-app1,${SERVICE_OU}`, password)).toBe(true);
    expect(await binds(client, `cn=svc-app1,${SERVICE_OU}`, 'svc-app1-password')).toBe(false);
  });

  it('searches by the configured userattr, and takes dn over username', async () => {
    const client = await configured({ userattr: 'uid' });
    expectWritten(await client.post('/ldap/static-role/b1', { username: 'svc-batch1', rotation_period: 60 }));
    expect((await client.get('/ldap/static-role/b1')).data).toMatchObject({ dn: `cn=svc-batch1,${SERVICE_OU}` });
    // by dn: the username is only a name then
    expectWritten(
      await client.post('/ldap/static-role/b2', {
        username: 'batch-two',
        dn: `cn=svc-batch2,${SERVICE_OU}`,
        rotation_period: 60,
      }),
    );
    expect((await client.get('/ldap/static-role/b2')).data).toMatchObject({
      dn: `cn=svc-batch2,${SERVICE_OU}`,
      username: 'batch-two',
    });
    const missingAccount = await client.post('/ldap/static-role/x', { username: 'nobody', rotation_period: 60 });
    expect(missingAccount.status).toBe(400);
    const missingDn = await client.post('/ldap/static-role/y', {
      username: 'y',
      dn: `cn=nobody,${SERVICE_OU}`,
      rotation_period: 60,
    });
    expect(missingDn.status).toBe(400);
  });

  it('lower-cases hierarchical names and lists each level, folders ending in /', async () => {
    const client = await configured();
    const body = (username: string) => ({ username, rotation_period: '1h', skip_import_rotation: true });
    expectWritten(await client.post('/ldap/static-role/App1', body('svc-app1')));
    expectWritten(await client.post('/ldap/static-role/Team/Batch1', body('svc-batch1')));
    expectWritten(await client.post('/ldap/static-role/team/sub/batch2', body('svc-batch2')));
    expectOk(await client.get('/ldap/static-role/app1'));
    expectOk(await client.get('/ldap/static-role/TEAM/batch1'));
    expect((await client.list('/ldap/static-role')).data).toEqual({ keys: ['app1', 'team/'] });
    expect((await client.get('/ldap/static-role?list=true')).data).toEqual({ keys: ['app1', 'team/'] });
    expect((await client.list('/ldap/static-role/team/')).data).toEqual({ keys: ['batch1', 'sub/'] });
    // LIST without the trailing slash is the same level, as the service lists it
    expect((await client.list('/ldap/static-role/team')).data).toEqual({ keys: ['batch1', 'sub/'] });
    expect((await client.list('/ldap/static-role/team/sub')).data).toEqual({ keys: ['batch2'] });
    expectNotFound(await client.list('/ldap/static-role/nothing'));
    // a plain GET of a folder is a read of a role that does not exist, not a list
    expectNotFound(await client.get('/ldap/static-role/team/'));
    expectWritten(await client.delete('/ldap/static-role/team/sub/batch2'));
    expectNotFound(await client.list('/ldap/static-role/team/sub'));
  });

  it('refuses bad parameters with the engine messages', async () => {
    const client = await configured();
    expectError(
      await client.post('/ldap/static-role/r', { rotation_period: '1h' }),
      400,
      'username is a required field to manage a static account',
    );
    expectError(
      await client.post('/ldap/static-role/r', { username: '', rotation_period: '1h' }),
      400,
      'username must not be empty',
    );
    expectError(
      await client.post('/ldap/static-role/r', { username: 'svc-app1' }),
      400,
      'rotation_period is required to create static accounts',
    );
    expectError(
      await client.post('/ldap/static-role/r', { username: 'svc-app1', rotation_period: '4s' }),
      400,
      'rotation_period must be 5 seconds or more',
    );
    expectWritten(await client.post('/ldap/static-role/r', { username: 'svc-app1', rotation_period: '5s' }));
    expectError(
      await client.post('/ldap/static-role/r', { username: 'svc-batch1' }),
      400,
      'cannot update static account username',
    );
    expectError(
      await client.post('/ldap/static-role/r', { dn: `cn=svc-batch1,${SERVICE_OU}` }),
      400,
      'cannot update static account distinguished name (dn)',
    );
    expectError(
      await client.post('/ldap/static-role/r', { skip_import_rotation: true }),
      400,
      'skip_import_rotation has no effect on updates',
    );
    expectError(
      await client.post('/ldap/static-role/r', { rotation_period: 2 }),
      400,
      'rotation_period must be 5 seconds or more',
    );
    // same username and dn are not changes
    expectWritten(
      await client.post('/ldap/static-role/r', {
        username: 'svc-app1',
        dn: `CN=svc-app1,${SERVICE_OU}`,
        rotation_period: '2h',
      }),
    );
    expect((await client.get('/ldap/static-role/r')).data).toMatchObject({ rotation_period: 7200 });
    expectError(
      await client.post('/ldap/static-role/other', { username: 'svc-app1', rotation_period: '1h' }),
      400,
      '"svc-app1" is already managed by the secrets engine',
    );
  });

  it('needs a config to create a role', async () => {
    const client = await emulator();
    expectError(
      await client.post('/ldap/static-role/r', { username: 'svc-app1', rotation_period: '1h' }),
      400,
      'missing LDAP configuration',
    );
  });

  it('skips the import rotation when asked, or by the config default', async () => {
    const client = await configured();
    expectWritten(
      await client.post('/ldap/static-role/kept', {
        username: 'svc-app1',
        rotation_period: '1h',
        skip_import_rotation: true,
      }),
    );
    const role = await client.get('/ldap/static-role/kept');
    expect(role.data).not.toHaveProperty('last_service_rotation');
    expect((await client.get('/ldap/static-cred/kept')).data).toMatchObject({ password: '', last_password: '' });
    expect(await binds(client, `cn=svc-app1,${SERVICE_OU}`, 'svc-app1-password')).toBe(true);

    expectWritten(await client.post('/ldap/config', { skip_static_role_import_rotation: true }));
    expectWritten(await client.post('/ldap/static-role/b1', { username: 'svc-batch1', rotation_period: '1h' }));
    expect(await binds(client, `cn=svc-batch1,${SERVICE_OU}`, 'svc-batch1-password')).toBe(true);
    // the role's own setting overrides the config's
    expectWritten(
      await client.post('/ldap/static-role/b2', {
        username: 'svc-batch2',
        rotation_period: '1h',
        skip_import_rotation: false,
      }),
    );
    expect(await binds(client, `cn=svc-batch2,${SERVICE_OU}`, 'svc-batch2-password')).toBe(false);
  });

  it('rotates on rotate-role, keeping the previous password as last_password', async () => {
    const client = await configured();
    expectWritten(await client.post('/ldap/static-role/app1', { username: 'svc-app1', rotation_period: '1h' }));
    const before = (await client.get('/ldap/static-cred/app1')).data;
    expectWritten(await client.post('/ldap/rotate-role/app1'));
    const after = (await client.get('/ldap/static-cred/app1')).data;
    expect(after.password).not.toBe(before.password);
    expect(after.last_password).toBe(before.password);
    const dn = `cn=svc-app1,${SERVICE_OU}`;
    expect(await binds(client, dn, String(after.password))).toBe(true);
    expect(await binds(client, dn, String(before.password))).toBe(false);
    expectError(await client.post('/ldap/rotate-role/nothing'), 400, 'role not found');
    expectNotFound(await client.get('/ldap/static-cred/nothing'));
    expectNotFound(await client.get('/ldap/static-role/nothing'));
  });

  it('rotates on its own every rotation_period', async () => {
    const clock = movableClock();
    const client = await configured({}, { now: clock.now });
    // an hour by the emulator's clock, which the test moves: real time alone would not rotate it
    expectWritten(await client.post('/ldap/static-role/fast', { username: 'svc-batch3', rotation_period: '1h' }));
    const first = (await client.get('/ldap/static-cred/fast')).data;
    clock.advance(3600_000);
    const rotated = await eventually(
      async () => (await client.get('/ldap/static-cred/fast')).data.password !== first.password,
      NEXT_TICK_MS,
    );
    expect(rotated).toBe(true);
    const second = (await client.get('/ldap/static-cred/fast')).data;
    expect(second.last_password).toBe(first.password);
    expect(Date.parse(String(second.last_service_rotation))).toBeGreaterThan(
      Date.parse(String(first.last_service_rotation)),
    );
    expect(await binds(client, `cn=svc-batch3,${SERVICE_OU}`, String(second.password))).toBe(true);
  });

  it('frees the account when the role is deleted', async () => {
    const client = await configured();
    expectWritten(await client.post('/ldap/static-role/a', { username: 'svc-app1', rotation_period: '1h' }));
    expectWritten(await client.delete('/ldap/static-role/a'));
    expectNotFound(await client.get('/ldap/static-role/a'));
    expectWritten(await client.post('/ldap/static-role/b', { username: 'svc-app1', rotation_period: '1h' }));
  });
});

const CREATION_LDIF = `dn: cn={{.Username}},${PEOPLE_OU}
objectClass: inetOrgPerson
cn: {{.Username}}
sn: {{.Username}}
userPassword: {{.Password}}
`;
const DELETION_LDIF = `dn: cn={{.Username}},${PEOPLE_OU}
changetype: delete
`;
const ROLLBACK_LDIF = DELETION_LDIF;
const b64 = (text: string) => Buffer.from(text).toString('base64');

describe('LDAP dynamic roles', () => {
  it('stores plain and base64 LDIF decoded and reads the role back', async () => {
    const client = await configured();
    expectWritten(
      await client.post('/ldap/role/dev', {
        creation_ldif: b64(CREATION_LDIF),
        deletion_ldif: DELETION_LDIF,
        rollback_ldif: b64(ROLLBACK_LDIF),
        username_template: '{{.DisplayName}}_{{.RoleName}}',
        default_ttl: '1h',
        max_ttl: '2h',
      }),
    );
    const role = await client.get('/ldap/role/dev');
    expectOk(role);
    expect(role.data).toEqual({
      creation_ldif: CREATION_LDIF,
      deletion_ldif: DELETION_LDIF,
      rollback_ldif: ROLLBACK_LDIF,
      username_template: '{{.DisplayName}}_{{.RoleName}}',
      default_ttl: 3600,
      max_ttl: 7200,
    });
    expectWritten(
      await client.post('/ldap/role/team/dev', { creation_ldif: CREATION_LDIF, deletion_ldif: DELETION_LDIF }),
    );
    expect((await client.list('/ldap/role')).data).toEqual({ keys: ['dev', 'team/'] });
    expect((await client.list('/ldap/role/team')).data).toEqual({ keys: ['dev'] });
    expectWritten(await client.delete('/ldap/role/dev'));
    expectNotFound(await client.get('/ldap/role/dev'));
  });

  it('refuses every invalid write with a wrapped 500', async () => {
    const client = await configured();
    const post = (body: Record<string, unknown>) => client.post('/ldap/role/bad', body);
    expectFailed(await post({ deletion_ldif: DELETION_LDIF }), 'missing creation_ldif');
    expectFailed(await post({ creation_ldif: CREATION_LDIF }), 'missing deletion_ldif');
    const broken = await post({
      creation_ldif: 'dn: cn={{.Username,dc=x\nobjectClass: top\n',
      deletion_ldif: DELETION_LDIF,
    });
    expect(broken.status).toBe(500);
    expect(broken.body.errors?.[0]).toMatch(
      /^1 error occurred:\n\t\* invalid creation_ldif: invalid template: .*\(line 1, column \d+\)\n\n$/,
    );
    const unknownField = await post({
      creation_ldif: CREATION_LDIF,
      deletion_ldif: 'dn: cn={{.Nope}}\nchangetype: delete\n',
    });
    expect(unknownField.status).toBe(500);
    expect(unknownField.body.errors?.[0]).toContain('invalid deletion_ldif: invalid template: ');
    const notLdif = await post({ creation_ldif: CREATION_LDIF, deletion_ldif: 'not ldif at all\n' });
    expect(notLdif.status).toBe(500);
    expect(notLdif.body.errors?.[0]).toContain('invalid deletion_ldif: LDIF is invalid: ');
    const noEntry = await post({
      creation_ldif: CREATION_LDIF,
      deletion_ldif: DELETION_LDIF,
      rollback_ldif: '# only a comment\n',
    });
    expect(noEntry.status).toBe(500);
    expect(noEntry.body.errors?.[0]).toContain('invalid rollback_ldif: ');
    const badTtl = await post({ creation_ldif: CREATION_LDIF, deletion_ldif: DELETION_LDIF, default_ttl: 'soon' });
    expect(badTtl.status).toBe(500);
    expect(badTtl.body.errors?.[0]).toContain('failed to convert TTLs to duration: ');
    expectNotFound(await client.get('/ldap/role/bad'));
  });

  it('merges a partial update; an empty string removes a key', async () => {
    const client = await configured();
    expectWritten(
      await client.post('/ldap/role/dev', {
        creation_ldif: CREATION_LDIF,
        deletion_ldif: DELETION_LDIF,
        rollback_ldif: ROLLBACK_LDIF,
        username_template: 'u_{{.RoleName}}',
        default_ttl: 60,
      }),
    );
    expectWritten(await client.post('/ldap/role/dev', { max_ttl: 120, rollback_ldif: '' }));
    expect((await client.get('/ldap/role/dev')).data).toEqual({
      creation_ldif: CREATION_LDIF,
      deletion_ldif: DELETION_LDIF,
      rollback_ldif: '',
      username_template: 'u_{{.RoleName}}',
      default_ttl: 60,
      max_ttl: 120,
    });
    // a required LDIF cannot be removed
    expectFailed(await client.post('/ldap/role/dev', { creation_ldif: '' }), 'missing creation_ldif');
  });

  it('issues credentials: the username template sees the token display name, the entry is created', async () => {
    const client = await configured();
    expectWritten(
      await client.post('/ldap/role/dev', {
        creation_ldif: CREATION_LDIF,
        deletion_ldif: DELETION_LDIF,
        username_template: '{{.DisplayName}}_{{.RoleName | uppercase}}_{{random 4}}',
        default_ttl: '1h',
      }),
    );
    const token = await client.mint({ display_name: 'ci-bot', policies: ['root'] });
    const creds = await client.get('/ldap/creds/dev', token);
    expectOk(creds);
    expect(creds.body.renewable).toBe(true);
    expect(creds.body.lease_duration).toBe(3600);
    expect(String(creds.body.lease_id)).toMatch(/^ldap\/creds\/dev\/.+/);
    const username = String(creds.data.username);
    expect(username).toMatch(/^token-ci-bot_DEV_[A-Za-z0-9]{4}$/);
    expect(creds.data.distinguished_names).toEqual([`cn=${username},${PEOPLE_OU}`]);
    expect(String(creds.data.password)).toMatch(/^[A-Za-z0-9]{64}$/);
    expect(await binds(client, `cn=${username},${PEOPLE_OU}`, String(creds.data.password))).toBe(true);

    // the default template: v_<display name>_<role>_<random 10>_<unix time>
    expectWritten(await client.post('/ldap/role/dev', { username_template: '' }));
    const plain = await client.get('/ldap/creds/dev');
    expectOk(plain);
    expect(String(plain.data.username)).toMatch(/^v_root_dev_[A-Za-z0-9]{10}_\d{10}$/);
    expectError(await client.get('/ldap/creds/nothing'), 400, 'role "nothing" not found');
  });

  it('stops a failing creation at its first error and runs the rollback LDIF', async () => {
    const client = await configured();
    const failing = `${CREATION_LDIF}
dn: cn=missing,ou=groups,dc=example,dc=org
changetype: modify
add: member
member: cn={{.Username}},${PEOPLE_OU}

dn: cn=after-{{.Username}},${PEOPLE_OU}
objectClass: organizationalRole
cn: after-{{.Username}}
`;
    expectWritten(
      await client.post('/ldap/role/fixed', {
        creation_ldif: failing,
        deletion_ldif: DELETION_LDIF,
        rollback_ldif: ROLLBACK_LDIF,
        username_template: 'fixed-user',
      }),
    );
    const failed = await client.get('/ldap/creds/fixed');
    expect(failed.status).toBe(500);
    expect(failed.text).toContain('LDAP Result Code 32');
    // the rollback removed the user, and the third entry was never made: both can be created now
    const both = `${CREATION_LDIF}
dn: cn=after-{{.Username}},${PEOPLE_OU}
objectClass: organizationalRole
cn: after-{{.Username}}
`;
    expectWritten(await client.post('/ldap/role/fixed', { creation_ldif: both }));
    expectOk(await client.get('/ldap/creds/fixed'));

    // without a rollback LDIF the first entry stays behind
    expectWritten(
      await client.post('/ldap/role/norollback', {
        creation_ldif: failing,
        deletion_ldif: DELETION_LDIF,
        username_template: 'left-behind',
      }),
    );
    expect((await client.get('/ldap/creds/norollback')).status).toBe(500);
    expectWritten(await client.post('/ldap/role/norollback', { creation_ldif: CREATION_LDIF }));
    const again = await client.get('/ldap/creds/norollback');
    expect(again.status).toBe(500);
    expect(again.text).toContain('LDAP Result Code 68');
  });

  it('runs the deletion LDIF when the lease is revoked, and renews within max_ttl', async () => {
    const client = await configured();
    expectWritten(
      await client.post('/ldap/role/dev', {
        creation_ldif: CREATION_LDIF,
        deletion_ldif: DELETION_LDIF,
        username_template: 'leased-user',
        default_ttl: '1m',
        max_ttl: '5m',
      }),
    );
    const creds = await client.get('/ldap/creds/dev');
    expectOk(creds);
    const dn = `cn=leased-user,${PEOPLE_OU}`;
    const leaseId = String(creds.body.lease_id);
    // the same username cannot be issued twice while the entry exists
    expect((await client.get('/ldap/creds/dev')).status).toBe(500);

    const renewed = await renew(client, { lease_id: leaseId, increment: 3600 });
    expectOk(renewed);
    expect(renewed.body).toMatchObject({ lease_id: leaseId, renewable: true });
    expect(renewed.body.lease_duration).toBeGreaterThan(295);
    expect(renewed.body.lease_duration).toBeLessThanOrEqual(300);
    const plain = await renew(client, { lease_id: leaseId });
    expect(plain.body.lease_duration).toBeGreaterThan(55);
    expect(plain.body.lease_duration).toBeLessThanOrEqual(60);

    expect(await binds(client, dn, String(creds.data.password))).toBe(true);
    expectWritten(await revoke(client, leaseId));
    expect(await binds(client, dn, String(creds.data.password))).toBe(false);
    // the entry is gone: the same username can be issued again
    expectOk(await client.get('/ldap/creds/dev'));
    expectError(await revoke(client, leaseId), 400, 'lease not found');
    expectError(await renew(client, { lease_id: leaseId }), 400, 'lease not found');
  });

  it('deletes the entry when default_ttl elapses', async () => {
    const clock = movableClock();
    const client = await configured({}, { now: clock.now });
    expectWritten(
      await client.post('/ldap/role/short', {
        creation_ldif: CREATION_LDIF,
        deletion_ldif: DELETION_LDIF,
        username_template: 'short-lived',
        // an hour by the emulator's clock, which the test moves: real time alone would not end it
        default_ttl: '1h',
      }),
    );
    const creds = await client.get('/ldap/creds/short');
    expectOk(creds);
    expect(creds.body.lease_duration).toBe(3600);
    const dn = `cn=short-lived,${PEOPLE_OU}`;
    expect(await binds(client, dn, String(creds.data.password))).toBe(true);
    clock.advance(3600_000);
    const gone = await eventually(async () => !(await binds(client, dn, String(creds.data.password))), NEXT_TICK_MS);
    expect(gone).toBe(true);
    expectOk(await client.get('/ldap/creds/short'));
  });
});

describe('LDAP library sets', () => {
  async function withSet(body: Record<string, unknown> = {}, name = 'batch', options: EmulatorOptions = {}) {
    const client = await configured({}, options);
    expectWritten(
      await client.post(`/ldap/library/${name}`, { service_account_names: ['svc-batch1', 'svc-batch2'], ...body }),
    );
    return client;
  }

  it('creates a set with 24h defaults, lists it, updates only what is sent', async () => {
    const client = await withSet();
    const set = await client.get('/ldap/library/batch');
    expectOk(set);
    expect(set.data).toEqual({
      service_account_names: ['svc-batch1', 'svc-batch2'],
      ttl: DAY,
      max_ttl: DAY,
      disable_check_in_enforcement: false,
    });
    expectWritten(await client.post('/ldap/library/team/a', { service_account_names: 'svc-batch3', ttl: '1h' }));
    expect((await client.list('/ldap/library')).data).toEqual({ keys: ['batch', 'team/'] });
    expect((await client.list('/ldap/library/team')).data).toEqual({ keys: ['a'] });
    expectWritten(await client.post('/ldap/library/batch', { disable_check_in_enforcement: true }));
    expect((await client.get('/ldap/library/batch')).data).toEqual({
      service_account_names: ['svc-batch1', 'svc-batch2'],
      ttl: DAY,
      max_ttl: DAY,
      disable_check_in_enforcement: true,
    });
    expectWritten(await client.delete('/ldap/library/batch'));
    expectNotFound(await client.get('/ldap/library/batch'));
  });

  it('refuses accounts that do not exist or belong elsewhere, and max_ttl below ttl', async () => {
    const client = await withSet();
    expect((await client.post('/ldap/library/other', { service_account_names: ['svc-nobody'] })).status).toBe(400);
    expectError(
      await client.post('/ldap/library/other', { service_account_names: ['svc-batch1'] }),
      400,
      '"svc-batch1" is already managed by the secrets engine',
    );
    expectError(
      await client.post('/ldap/static-role/b1', { username: 'svc-batch2', rotation_period: '1h' }),
      400,
      '"svc-batch2" is already managed by the secrets engine',
    );
    expectError(await client.post('/ldap/library/other', {}), 400, '"service_account_names" must be provided');
    expectError(
      await client.post('/ldap/library/other', { service_account_names: [] }),
      400,
      'at least one service account must be configured',
    );
    // time.Duration printed with %d: nanoseconds
    expectError(
      await client.post('/ldap/library/other', { service_account_names: 'svc-batch3', ttl: '2h', max_ttl: '1h' }),
      400,
      'max_ttl (3600000000000 seconds) may not be less than ttl (7200000000000 seconds)',
    );
    expectWritten(await client.delete('/ldap/config'));
    expectError(
      await client.post('/ldap/library/other', { service_account_names: 'svc-batch3' }),
      400,
      'config must exist to create a library',
    );
    expectError(await client.post('/ldap/library/batch', { ttl: 60 }), 400, 'config must exist to update a library');
  });

  it('checks out with a renewable lease and a password that binds, until none is left', async () => {
    const client = await withSet();
    const out = await client.post('/ldap/library/batch/check-out');
    expectOk(out);
    expect(out.body).toMatchObject({ renewable: true, lease_duration: DAY });
    expect(String(out.body.lease_id)).toMatch(/^ldap\/library\/batch\/check-out\/.+/);
    const account = String(out.data.service_account_name);
    expect(['svc-batch1', 'svc-batch2']).toContain(account);
    expect(await binds(client, `cn=${account},${SERVICE_OU}`, String(out.data.password))).toBe(true);

    const second = await client.post('/ldap/library/batch/check-out', { ttl: '1h' });
    expectOk(second);
    expect(second.body.lease_duration).toBe(3600);
    expect(second.data.service_account_name).not.toBe(account);
    const none = await client.post('/ldap/library/batch/check-out');
    expect(none.status).toBe(400);
    expect(none.text).toContain('No service accounts available');
    expectError(await client.post('/ldap/library/nothing/check-out'), 400, '"nothing" doesn\'t exist');
  });

  it('enforces check-in by the borrower, unless disabled or forced through manage', async () => {
    const client = await withSet();
    const borrower = await client.mint({ display_name: 'borrower', policies: ['root'] });
    const other = await client.mint({ display_name: 'other', policies: ['root'] });
    const out = await client.post('/ldap/library/batch/check-out', {}, borrower);
    expectOk(out);
    const account = String(out.data.service_account_name);

    const status = await client.get('/ldap/library/batch/status');
    expectOk(status);
    const entry = status.data[account] as Record<string, unknown>;
    expect(entry).toEqual({
      available: false,
      borrower_client_token: expect.any(String),
      borrower_entity_id: '',
    });
    expect(entry.borrower_client_token).not.toBe(borrower);
    expect(status.text).not.toContain(borrower);
    const free = ['svc-batch1', 'svc-batch2'].find((a) => a !== account) as string;
    expect(status.data[free]).toEqual({ available: true });

    const refusedCheckIn = await client.post(
      '/ldap/library/batch/check-in',
      { service_account_names: [account] },
      other,
    );
    expect(refusedCheckIn.status).toBe(400);
    expect((await client.get('/ldap/library/batch/status')).data[account]).toMatchObject({ available: false });

    // the borrower checks in without naming the account: only one is out
    const back = await client.post('/ldap/library/batch/check-in', {}, borrower);
    expectOk(back);
    expect(back.data).toEqual({ check_ins: [account] });
    // the password handed out no longer works
    expect(await binds(client, `cn=${account},${SERVICE_OU}`, String(out.data.password))).toBe(false);
    // checking in an account that is in: success, not listed
    const again = await client.post('/ldap/library/batch/check-in', { service_account_names: account }, borrower);
    expectOk(again);
    expect(again.data).toEqual({ check_ins: [] });

    // manage check-in: forced, by anyone privileged
    const out2 = await client.post('/ldap/library/batch/check-out', {}, borrower);
    const account2 = String(out2.data.service_account_name);
    const forced = await client.post(
      '/ldap/library/manage/batch/check-in',
      { service_account_names: [account2] },
      other,
    );
    expectOk(forced);
    expect(forced.data).toEqual({ check_ins: [account2] });

    // enforcement disabled: anyone may check in
    expectWritten(await client.post('/ldap/library/batch', { disable_check_in_enforcement: true }));
    const out3 = await client.post('/ldap/library/batch/check-out', {}, borrower);
    const account3 = String(out3.data.service_account_name);
    const byOther = await client.post('/ldap/library/batch/check-in', { service_account_names: account3 }, other);
    expectOk(byOther);
    expect(byOther.data).toEqual({ check_ins: [account3] });
  });

  it('asks for names when the caller has several out, and checks in nothing when none', async () => {
    const client = await withSet();
    const none = await client.post('/ldap/library/batch/check-in');
    expectOk(none);
    expect(none.data).toEqual({ check_ins: [] });
    expectOk(await client.post('/ldap/library/batch/check-out'));
    expectOk(await client.post('/ldap/library/batch/check-out'));
    expectError(
      await client.post('/ldap/library/batch/check-in'),
      400,
      'when multiple service accounts are checked out, the "service_account_names" to check in must be provided',
    );
    const both = await client.post('/ldap/library/batch/check-in', { service_account_names: 'svc-batch1,svc-batch2' });
    expectOk(both);
    expect(both.data).toEqual({ check_ins: ['svc-batch1', 'svc-batch2'] });
    expectError(await client.post('/ldap/library/nothing/check-in'), 400, '"nothing" doesn\'t exist');
    expectError(await client.get('/ldap/library/nothing/status'), 400, '"nothing" doesn\'t exist');
  });

  it('lower-cases set names', async () => {
    const client = await withSet({}, 'Team/Batch');
    expectOk(await client.get('/ldap/library/team/batch'));
    expect((await client.list('/ldap/library/team')).data).toEqual({ keys: ['batch'] });
    expectOk(await client.post('/ldap/library/TEAM/batch/check-out'));
    expect(Object.keys((await client.get('/ldap/library/team/BATCH/status')).data)).toEqual([
      'svc-batch1',
      'svc-batch2',
    ]);
  });

  it('refuses removing a checked-out account from its set, or deleting the set', async () => {
    const client = await withSet();
    const out = await client.post('/ldap/library/batch/check-out');
    const account = String(out.data.service_account_name);
    const keep = ['svc-batch1', 'svc-batch2'].find((a) => a !== account) as string;
    expectError(
      await client.post('/ldap/library/batch', { service_account_names: [keep] }),
      400,
      `"${account}" can't be deleted because it is currently checked out'`,
    );
    expectError(
      await client.delete('/ldap/library/batch'),
      400,
      `"${account}" can't be deleted because it is currently checked out'`,
    );
    expectWritten(await client.post('/ldap/library/batch', { service_account_names: [account, 'svc-batch3'] }));
    expect((await client.get('/ldap/library/batch')).data).toMatchObject({
      service_account_names: [account, 'svc-batch3'],
    });
    expectOk(await client.post('/ldap/library/batch/check-in'));
    expectWritten(await client.delete('/ldap/library/batch'));
    // its accounts are free for another set
    expectWritten(await client.post('/ldap/library/again', { service_account_names: [account] }));
  });

  it('checks in on its own when the ttl elapses, and when the lease is revoked', async () => {
    const clock = movableClock();
    // an hour by the emulator's clock, which the test moves: real time alone would not end it
    const client = await withSet({ ttl: '1h', max_ttl: '10h' }, 'batch', { now: clock.now });
    const out = await client.post('/ldap/library/batch/check-out');
    expectOk(out);
    expect(out.body.lease_duration).toBe(3600);
    const account = String(out.data.service_account_name);
    const available = async (name: string) =>
      ((await client.get('/ldap/library/batch/status')).data[name] as { available: boolean }).available;
    expect(await available(account)).toBe(false);
    clock.advance(3600_000);
    expect(await eventually(() => available(account), NEXT_TICK_MS)).toBe(true);
    expect(await binds(client, `cn=${account},${SERVICE_OU}`, String(out.data.password))).toBe(false);

    const leased = await client.post('/ldap/library/batch/check-out');
    const leasedAccount = String(leased.data.service_account_name);
    expect(await available(leasedAccount)).toBe(false);
    expectWritten(await revoke(client, String(leased.body.lease_id)));
    expect(await available(leasedAccount)).toBe(true);
    expect(await binds(client, `cn=${leasedAccount},${SERVICE_OU}`, String(leased.data.password))).toBe(false);
  });
});

describe('LDAP policies', () => {
  const seed: SeedData = {
    secrets: {
      policies: {
        reader: [{ path: 'ldap/*', capabilities: ['read'] }],
        lister: [{ path: 'ldap/*', capabilities: ['list'] }],
      },
      tokens: [
        { token: 'reader-token', policies: ['reader'] },
        { token: 'lister-token', policies: ['lister'] },
      ],
    },
  };

  it('needs list to LIST and a write capability to write', async () => {
    const client = await startSecrets({ seed });
    expectWritten(await client.post('/ldap/config', CONFIG));
    expectWritten(
      await client.post('/ldap/static-role/team/app1', {
        username: 'svc-app1',
        rotation_period: '1h',
        skip_import_rotation: true,
      }),
    );
    expectError(await client.list('/ldap/static-role', 'reader-token'), 403, 'permission denied');
    expectError(await client.list('/ldap/static-role/team', 'reader-token'), 403, 'permission denied');
    expect((await client.list('/ldap/static-role', 'lister-token')).data).toEqual({ keys: ['team/'] });
    expect((await client.list('/ldap/static-role/team', 'lister-token')).data).toEqual({ keys: ['app1'] });
    // a folder read with GET is a read, not a way around list
    expectError(await client.get('/ldap/static-role/team/', 'lister-token'), 403, 'permission denied');

    expectOk(await client.get('/ldap/static-role/team/app1', 'reader-token'));
    expectOk(await client.get('/ldap/config', 'reader-token'));
    expectError(
      await client.post('/ldap/static-role/x', { username: 'svc-batch1', rotation_period: '1h' }, 'reader-token'),
      403,
      'permission denied',
    );
    expectError(await client.post('/ldap/rotate-root', {}, 'reader-token'), 403, 'permission denied');
    expectError(await client.post('/ldap/config', CONFIG, 'reader-token'), 403, 'permission denied');
    expectError(await client.delete('/ldap/static-role/team/app1', 'reader-token'), 403, 'permission denied');
    expectError(await client.get('/ldap/config', null), 403, 'permission denied');
  });
});
