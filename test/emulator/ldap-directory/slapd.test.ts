/**
 * ldapDirectory against a real OpenLDAP (test/helpers/slapd.ts): the shared
 * behaviour suite, failing over along the URL list, and ldapwhoami as an
 * independent client accepting a password that setPassword stored. Skipped,
 * loudly, where slapd is not installed.
 */
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Directory, DirectoryError, ldapDirectory } from '../../../src/emulator/ldap/directory/index.ts';
import { freePort, hasLdapWhoami, type Slapd, slapdMissing, startSlapd } from '../../helpers/slapd.ts';
import { directoryBehaviour } from './behaviour.ts';

const missing = slapdMissing();
if (missing) console.warn(`skipping the slapd directory tests: ${missing}`);

async function started(): Promise<Slapd> {
  const slapd = await startSlapd();
  if ('skipped' in slapd) throw new Error(`slapd could not start: ${slapd.skipped}`);
  return slapd;
}

function connect(slapd: Slapd, urls = [slapd.url], bindPassword = slapd.bindPassword): Promise<Directory> {
  return ldapDirectory({ urls, bindDn: slapd.bindDn, bindPassword, timeoutMs: 2_000 });
}

describe.skipIf(missing !== undefined)('ldapDirectory against slapd', () => {
  describe('behaviour', () => {
    directoryBehaviour(async () => {
      const slapd = await started();
      const directory = await connect(slapd);
      return {
        directory,
        async dispose() {
          await directory.close();
          await slapd.stop();
        },
      };
    });
  });

  describe('connecting', () => {
    let slapd: Slapd;
    let closedUrl: string;
    beforeAll(async () => {
      slapd = await started();
      closedUrl = `ldap://127.0.0.1:${await freePort()}/`;
    });
    afterAll(async () => {
      await slapd?.stop();
    });

    it('skips an unreachable first URL and uses the next one', async () => {
      const directory = await connect(slapd, [closedUrl, slapd.url]);
      expect(await directory.bind('cn=svc-app1,ou=service,dc=example,dc=org', 'svc-app1-password')).toBe(true);
      expect((await directory.findBy(slapd.baseDn, 'uid', 'svc-batch1')).length).toBe(1);
      await directory.close();
    });

    it('takes a comma-separated list as the engine configures it', async () => {
      const directory = await connect(slapd, [`${closedUrl}, ${slapd.url}`]);
      expect(await directory.get(slapd.baseDn)).toBeDefined();
      await directory.close();
    });

    it('fails with a network error (200) naming every URL when none answers', async () => {
      const error = await connect(slapd, [closedUrl]).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(DirectoryError);
      expect((error as DirectoryError).code).toBe(200);
      expect((error as DirectoryError).message).toContain(closedUrl);
    });

    it('stops at a server that refuses the bind credentials (49) instead of trying the next', async () => {
      const error = await connect(slapd, [slapd.url, closedUrl], 'wrong').catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(DirectoryError);
      expect((error as DirectoryError).code).toBe(49);
    });

    it('formats server errors like the real engine', async () => {
      const directory = await connect(slapd);
      await expect(
        directory.apply({
          line: 1,
          dn: 'cn=svc-app1,ou=service,dc=example,dc=org',
          changetype: 'add',
          attributes: [
            { name: 'objectClass', values: ['inetOrgPerson'] },
            { name: 'cn', values: ['svc-app1'] },
            { name: 'sn', values: ['svc-app1'] },
          ],
        }),
      ).rejects.toThrow(/^LDAP Result Code 68 "Entry Already Exists"$/);
      await directory.close();
    });
  });

  it('reports a network error (200) once the server is gone, after trying to reconnect', async () => {
    const slapd = await started();
    const directory = await connect(slapd);
    await slapd.stop();
    const error = await directory.get(slapd.baseDn).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DirectoryError);
    expect((error as DirectoryError).code).toBe(200);
    await directory.close();
  });

  describe.skipIf(!hasLdapWhoami())('with ldapwhoami', () => {
    it('accepts a password set by setPassword, and no longer the old one', async () => {
      const slapd = await started();
      try {
        const directory = await connect(slapd);
        const dn = 'cn=svc-batch2,ou=service,dc=example,dc=org';
        await directory.setPassword(dn, 'Rotated-by-converge-7');
        await directory.close();
        const whoami = (password: string) =>
          spawnSync('ldapwhoami', ['-x', '-H', slapd.url, '-D', dn, '-w', password], { encoding: 'utf8' });
        const accepted = whoami('Rotated-by-converge-7');
        expect(accepted.status, accepted.stderr).toBe(0);
        expect(accepted.stdout.trim()).toBe(`dn:${dn}`);
        const refused = whoami('svc-batch2-password');
        expect(refused.status).toBe(49);
      } finally {
        await slapd.stop();
      }
    });
  });
});
