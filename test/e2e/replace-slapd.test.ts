/**
 * A replacement that cannot lose an object, against a real OpenLDAP
 * (test/helpers/slapd.ts): the CLI as a process replaces an LDAP static role
 * whose new account is not in the directory; the create is refused after the
 * old role was deleted, converge puts the old role back from what it read,
 * says so and exits 1, and the restored role hands out a password that slapd
 * accepts (asked with ldapwhoami, an independent client). Skipped, with the
 * reason printed, where slapd cannot run.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type CliTarget, cliTarget, LDAP_CONFIG, NO_FINGERPRINTS } from '../helpers/cli-target.ts';
import { binds, type Slapd, startSlapd } from '../helpers/slapd.ts';

const availability = await startSlapd();
const skipped = 'skipped' in availability ? availability.skipped : undefined;
if ('skipped' in availability) console.warn(`skipping the replacement tests against slapd: ${availability.skipped}`);
else await availability.stop();

const role = (username: string) =>
  `kind: LDAPStaticRole\nmetadata: {name: app1}\nspec: {username: ${username}, rotation_period: 1h}\n`;

let slapd: Slapd | undefined;
let target: CliTarget | undefined;
afterEach(async () => {
  await target?.close();
  await slapd?.stop();
});

describe.skipIf(skipped !== undefined)('a static role replacement against slapd', () => {
  it('puts the previous role back when the create is refused, and the restored role binds', async () => {
    const started = await startSlapd();
    if ('skipped' in started) throw new Error(`slapd could not start: ${started.skipped}`);
    slapd = started;
    target = await cliTarget('replace-slapd', {
      ...NO_FINGERPRINTS,
      LDAP_URL: started.url,
      LDAP_BINDPASS: started.bindPassword,
    });
    const secrets = async (path: string) => {
      const response = await fetch(`${target?.emulator.url}/v1${path}`, {
        headers: { 'x-service-token': target?.emulator.tokens.secrets ?? '' },
      });
      return (await response.json()).data;
    };
    const config = join(target.scratch, 'config.yaml');
    const file = join(target.scratch, 'role.yaml');
    await writeFile(config, LDAP_CONFIG);
    await writeFile(file, role('svc-app1'));
    const created = await target.run(['apply', config, file, '--auto-approve']);
    expect(created.code, created.stderr).toBe(0);
    const dn = 'cn=svc-app1,ou=service,dc=example,dc=org';
    const before = await secrets('/ldap/static-cred/app1');
    expect(binds(started, dn, String(before.password))).toBe(true);

    // svc-app2 is in no entry of slapd's tree
    await writeFile(file, role('svc-app2'));
    const applied = await target.run(['apply', config, file, '--auto-approve', '--no-progress']);
    expect(applied.code).toBe(1);
    expect(applied.stdout).toContain(
      'replace failed: the create was refused (POST /v1/ldap/static-role/app1: 400 could not find the account ' +
        '"svc-app2" in the directory); the previous LDAPStaticRole/ldap/app1 was restored from what was read',
    );

    expect(await secrets('/ldap/static-role/app1')).toMatchObject({ username: 'svc-app1', dn, rotation_period: 3600 });
    // restored, the engine rotated the account's password on import: the new one binds, the old one not
    const after = await secrets('/ldap/static-cred/app1');
    expect(after.password).not.toBe(before.password);
    expect(binds(started, dn, String(after.password))).toBe(true);
    expect(binds(started, dn, String(before.password))).toBe(false);
    expect(applied.stdout + applied.stderr).not.toContain(String(after.password));
  });
});
