// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are manifest placeholders, not templates
/**
 * A server echoes a secret in forms other than the one written: a part of it on its own (one URL
 * of an LDAP URL list, or its host, in `no LDAP server could be reached`), or the form converge
 * sent it in (a DN normalized: `could not find the account "cn=…"`). The redactor masks those
 * forms too (docs/security.md, "Redaction"); here, as the CLI prints them.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliResult } from '../helpers/cli.ts';
import { type CliTarget, cliTarget, LDAP_CONFIG, NO_FINGERPRINTS } from '../helpers/cli-target.ts';

let target: CliTarget;
beforeAll(async () => {
  target = await cliTarget('echoed-secrets', NO_FINGERPRINTS);
});
afterAll(() => target?.close());

/** Everything a run printed. */
const printed = (result: CliResult) => result.stdout + result.stderr;

describe('the parts of a secret LDAP URL list', () => {
  const ROLE =
    'kind: LDAPStaticRole\nmetadata: {mount: ldap, name: svc-urls}\nspec: {username: svc1, rotation_period: 1h}\n';

  it.each([
    [
      'a list',
      'ldap://first-secret-dc.invalid, ldap://second-secret-dc.invalid:389',
      ['first-secret', 'second-secret'],
    ],
    ['one URL', 'ldap://corp-dc01-secrethost.invalid', ['corp-dc01']],
  ])('%s: no URL nor host of it in the error of a role the engine cannot reach', async (_, url, fragments) => {
    await writeFile(join(target.scratch, 'ldap.yaml'), `${LDAP_CONFIG}---\n${ROLE}`);
    const applied = await target.run(['apply', 'ldap.yaml', '--auto-approve', '--no-progress'], { LDAP_URL: url });
    expect(applied.code).not.toBe(0);
    // the server's answer is shown, with every server it tried masked
    expect(applied.stdout).toContain('no LDAP server could be reached (***: ');
    for (const fragment of fragments) expect(printed(applied)).not.toContain(fragment);
  });
});

describe('a secret sent normalized', () => {
  it('a DN is masked in the spelling converge sends, which the engine echoes', async () => {
    const role = [
      'kind: LDAPStaticRole',
      'metadata: {mount: ldap, name: ghost}',
      'sensitive: [dn, username]',
      'spec:',
      '  username: GhostSecretUser',
      '  dn: "CN=GhostSecretUser, OU=Service,DC=example,DC=org"',
      '  rotation_period: 1h',
    ].join('\n');
    await writeFile(join(target.scratch, 'ghost.yaml'), `${LDAP_CONFIG}---\n${role}\n`);
    const applied = await target.run(['apply', 'ghost.yaml', '--auto-approve', '--no-progress']);
    expect(applied.code).not.toBe(0);
    expect(applied.stdout).toContain('could not find the account "***"');
    expect(printed(applied).toLowerCase()).not.toContain('ghostsecretuser');
  });
});
