/**
 * The emulator's LDAP secrets engine against a real OpenLDAP
 * (test/helpers/slapd.ts, seeded with the same tree as the in-memory
 * directory): the config simply names slapd's URL, so the engine works
 * through ldapts. Every password the API hands out is tried with
 * `ldapwhoami`, an independent client. Skipped, with the reason printed,
 * where slapd cannot run.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { CLI } from '../helpers/cli.ts';
import { binds, type Slapd, startSlapd } from '../helpers/slapd.ts';
import { type SecretsAnswer, type SecretsClient, startSecrets } from './secrets-client.ts';

const SERVICE_OU = 'ou=service,dc=example,dc=org';
const PEOPLE_OU = 'ou=people,dc=example,dc=org';

/**
 * The slapd that tells whether slapd can run here is kept for the tests that leave each other's
 * accounts alone (each works on accounts no other test of that slapd touches); a test that stops,
 * pauses or locks out a directory (the root rotation) gets one of its own.
 */
const shared = await startSlapd();
const skipped = 'skipped' in shared ? shared.skipped : undefined;
if ('skipped' in shared) console.warn(`skipping the LDAP engine tests against slapd: ${shared.skipped}`);
afterAll(async () => {
  if (!('skipped' in shared)) await shared.stop();
});

const running: Slapd[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((slapd) => slapd.stop()));
});

/** A fresh slapd, stopped after the test. */
async function own(): Promise<Slapd> {
  const slapd = await startSlapd();
  if ('skipped' in slapd) throw new Error(`slapd could not start: ${slapd.skipped}`);
  running.push(slapd);
  return slapd;
}

/**
 * An emulator whose `ldap` mount is configured on a slapd: the shared one when `directory` is
 * 'shared' (the test changes passwords only of accounts no other test of it uses), else a fresh one.
 */
async function configured(directory: 'shared' | 'own' = 'own'): Promise<{ client: SecretsClient; slapd: Slapd }> {
  const slapd = directory === 'shared' && !('skipped' in shared) ? shared : await own();
  const client = await startSecrets();
  expectWritten(
    await client.post('/ldap/config', {
      url: slapd.url,
      binddn: slapd.bindDn,
      bindpass: slapd.bindPassword,
      userdn: SERVICE_OU,
    }),
  );
  return { client, slapd };
}

function expectWritten(answer: SecretsAnswer): void {
  expect({ status: answer.status, text: answer.text }).toEqual({ status: 204, text: '' });
}

function expectOk(answer: SecretsAnswer): void {
  expect(answer.status, answer.text).toBe(200);
}

const CREATION_LDIF = `dn: cn={{.Username}},${PEOPLE_OU}
objectClass: inetOrgPerson
cn: {{.Username}}
sn: {{.Username}}
userPassword: {{.Password}}
`;
const DELETION_LDIF = `dn: cn={{.Username}},${PEOPLE_OU}
changetype: delete
`;

describe.skipIf(skipped !== undefined)('LDAP engine against slapd', () => {
  it('issues a dynamic credential that binds until its lease is revoked', async () => {
    const { client, slapd } = await configured('shared');
    expectWritten(
      await client.post('/ldap/role/dev', {
        creation_ldif: CREATION_LDIF,
        deletion_ldif: DELETION_LDIF,
        rollback_ldif: DELETION_LDIF,
        default_ttl: '1h',
      }),
    );
    const creds = await client.get('/ldap/creds/dev');
    expectOk(creds);
    const username = String(creds.data.username);
    const dn = `cn=${username},${PEOPLE_OU}`;
    expect(creds.data.distinguished_names).toEqual([dn]);
    expect(binds(slapd, dn, String(creds.data.password))).toBe(true);
    expectWritten(await client.request('PUT', '/sys/leases/revoke', { body: { lease_id: creds.body.lease_id } }));
    expect(binds(slapd, dn, String(creds.data.password))).toBe(false);
  });

  it("rotates a static role's password: the new one binds, the previous one no longer does", async () => {
    const { client, slapd } = await configured('shared');
    expectWritten(await client.post('/ldap/static-role/app1', { username: 'svc-app1', rotation_period: '1h' }));
    const dn = `cn=svc-app1,${SERVICE_OU}`;
    const imported = (await client.get('/ldap/static-cred/app1')).data;
    expect(imported.dn).toBe(dn);
    expect(binds(slapd, dn, String(imported.password))).toBe(true);
    expect(binds(slapd, dn, 'svc-app1-password')).toBe(false);
    expectWritten(await client.post('/ldap/rotate-role/app1'));
    const rotated = (await client.get('/ldap/static-cred/app1')).data;
    expect(rotated.last_password).toBe(imported.password);
    expect(binds(slapd, dn, String(rotated.password))).toBe(true);
    expect(binds(slapd, dn, String(imported.password))).toBe(false);
  });

  it('checks out a library account whose password binds', async () => {
    const { client, slapd } = await configured('shared');
    expectWritten(await client.post('/ldap/library/batch', { service_account_names: ['svc-batch1', 'svc-batch2'] }));
    const out = await client.post('/ldap/library/batch/check-out');
    expectOk(out);
    const dn = `cn=${String(out.data.service_account_name)},${SERVICE_OU}`;
    expect(binds(slapd, dn, String(out.data.password))).toBe(true);
    const back = await client.post('/ldap/library/batch/check-in');
    expectOk(back);
    expect(back.data).toEqual({ check_ins: [out.data.service_account_name] });
    expect(binds(slapd, dn, String(out.data.password))).toBe(false);
  });

  it('rotates the root password: the engine goes on with the new one, the old one no longer binds', async () => {
    const { client, slapd } = await configured();
    expect(binds(slapd, slapd.bindDn, slapd.bindPassword)).toBe(true);
    expectWritten(await client.post('/ldap/rotate-root'));
    expect((await client.get('/ldap/config')).data).toHaveProperty('last_bind_password_rotation');
    expectWritten(await client.post('/ldap/static-role/app1', { username: 'svc-app1', rotation_period: '1h' }));
    const cred = (await client.get('/ldap/static-cred/app1')).data;
    expect(binds(slapd, `cn=svc-app1,${SERVICE_OU}`, String(cred.password))).toBe(true);
    // slapd checks a `rootpw` of its config before the entry's userPassword: the harness must not set one
    expect(binds(slapd, slapd.bindDn, slapd.bindPassword)).toBe(false);
    // configured again with the old password, the engine cannot work
    expectWritten(await client.post('/ldap/config', { bindpass: slapd.bindPassword }));
    const refused = await client.post('/ldap/rotate-role/app1');
    expect(refused.status).toBe(500);
    expect(refused.body.errors?.[0]).toContain('LDAP Result Code 49 "Invalid Credentials"');
  });
});

describe.skipIf(skipped !== undefined)('LDAP engine when slapd goes away', () => {
  const role = { creation_ldif: CREATION_LDIF, deletion_ldif: DELETION_LDIF, default_ttl: '1h' };

  it("answers with the directory's message while slapd is down, and works again once it is back", async () => {
    const { client, slapd } = await configured();
    expectWritten(await client.post('/ldap/role/dev', role));
    expectWritten(await client.post('/ldap/static-role/app1', { username: 'svc-app1', rotation_period: '1h' }));
    expectOk(await client.get('/ldap/creds/dev'));

    await slapd.down();
    const started = Date.now();
    const answers = [
      await client.get('/ldap/creds/dev'),
      await client.post('/ldap/rotate-role/app1'),
      await client.post('/ldap/static-role/app2', { username: 'svc-app2', rotation_period: '1h' }),
      await client.post('/ldap/library/batch', { service_account_names: ['svc-batch1'] }),
    ];
    for (const answer of answers) {
      expect(answer.status, answer.text).toBe(500);
      // never a bare "internal server error": the directory's own words
      expect(answer.body.errors?.[0]).toContain('LDAP Result Code 200 "Network Error"');
    }
    expect(Date.now() - started).toBeLessThan(10_000);

    await slapd.up();
    // writes go through again: the engine bound anew on its new connection, not anonymously
    const creds = await client.get('/ldap/creds/dev');
    expectOk(creds);
    expect(binds(slapd, `cn=${String(creds.data.username)},${PEOPLE_OU}`, String(creds.data.password))).toBe(true);
    expectWritten(await client.post('/ldap/rotate-role/app1'));
    const rotated = (await client.get('/ldap/static-cred/app1')).data;
    expect(binds(slapd, `cn=svc-app1,${SERVICE_OU}`, String(rotated.password))).toBe(true);
  }, 60_000);

  it('bounds every directory call in time: a hung slapd is an answer, not a hang', async () => {
    // the config's request_timeout is the default 90 s: longer than converge waits for an answer (60 s)
    const { client, slapd } = await configured();
    expectWritten(await client.post('/ldap/role/dev', role));
    expectOk(await client.get('/ldap/creds/dev'));
    await slapd.pause();
    const started = Date.now();
    const answer = await client.get('/ldap/creds/dev');
    slapd.resume();
    expect(answer.status, answer.text).toBe(500);
    expect(answer.body.errors?.[0]).toContain('LDAP Result Code 200 "Network Error"');
    expect(answer.body.errors?.[0]).toMatch(/timed out|timeout/i);
    // an operation (5 s at most) and the bind of the reconnection (5 s at most)
    expect(Date.now() - started).toBeLessThan(15_000);
    expectOk(await client.get('/ldap/creds/dev'));
  }, 60_000);

  it('stops within a few seconds of SIGTERM, aborting a request that waits on a hung slapd', async () => {
    const slapd = await own();
    // the CLI the other tests run (test/helpers/cli.ts, the bundle): a third of the sources' start-up CPU
    const child = spawn(process.execPath, [CLI, 'emulator', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = once(child, 'exit');
    try {
      const [first] = (await once(child.stdout, 'data')) as [Buffer];
      const { url, tokens } = JSON.parse(first.toString().split('\n')[0] ?? '') as {
        url: string;
        tokens: { secrets: string };
      };
      const call = (method: string, path: string, body?: unknown) =>
        fetch(`${url}/v1${path}`, {
          method,
          headers: { 'x-service-token': tokens.secrets, 'content-type': 'application/json' },
          ...(body !== undefined && { body: JSON.stringify(body) }),
        });
      const config = { url: slapd.url, binddn: slapd.bindDn, bindpass: slapd.bindPassword, userdn: SERVICE_OU };
      expect((await call('POST', '/ldap/config', config)).status).toBe(204);
      expect((await call('POST', '/ldap/role/dev', role)).status).toBe(204);
      expect((await call('GET', '/ldap/creds/dev')).status).toBe(200);
      await slapd.pause();
      const inFlight = call('GET', '/ldap/creds/dev').catch((error: unknown) => error);
      await new Promise((resolve) => setTimeout(resolve, 500));
      const signalled = Date.now();
      child.kill('SIGTERM');
      await exited;
      expect(Date.now() - signalled).toBeLessThan(3_000);
      expect(child.exitCode).toBe(0);
      // the request in flight was cut off, not answered after the stop
      expect(await inFlight).toBeInstanceOf(Error);
    } finally {
      slapd.resume();
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  }, 60_000);
});
