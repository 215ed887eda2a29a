/**
 * A manifest naming a mount where no secrets engine is mounted. The service
 * answers a list there with a 404 naming the route, not the empty 404 of an
 * engine with no roles (docs/apis.md); converge reads it as an error naming
 * the mount and what to do, before any write, in every command that reads.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type CliTarget, cliTarget, NO_FINGERPRINTS } from '../helpers/cli-target.ts';

let target: CliTarget;
beforeEach(async () => {
  // no object here has a write-only field
  target = await cliTarget('missing-mount', NO_FINGERPRINTS);
});
afterEach(() => target?.close());

const ROLE = (mount: string) =>
  `kind: SSHRole\nmetadata: {mount: ${mount}, name: web}\nspec: {key_type: otp, default_user: ubuntu, cidr_list: 10.0.0.0/8}\n`;

const writes = () => Object.keys(target.emulator.stats().byRoute).filter((route) => !route.startsWith('GET'));

describe('a mount with no engine', () => {
  it('is an error naming the mount in plan, apply, drift and export, with nothing written', async () => {
    const file = join(target.scratch, 'roles.yaml');
    await writeFile(file, `${ROLE('ssh')}---\n${ROLE('ssh-prod')}`);
    target.emulator.resetStats();
    for (const args of [
      ['plan', file],
      ['apply', file, '--auto-approve'],
      ['drift', file],
      ['plan', file, '--json'],
      ['export', '--kind', 'SSHRole', '--scope', 'ssh-prod', '--out', join(target.scratch, 'exported')],
    ]) {
      const result = await target.run(args);
      expect(result.code, `${args.join(' ')}\n${result.stdout}\n${result.stderr}`).toBe(1);
      const output = `${result.stdout}\n${result.stderr}`;
      expect(output, args.join(' ')).toContain('no secrets engine is mounted at "ssh-prod"');
      expect(output, args.join(' ')).toContain('vault secrets enable -path=ssh-prod ssh');
      expect(output, args.join(' ')).not.toMatch(/create.*SSHRole\/ssh-prod\/web/);
    }
    expect(writes()).toEqual([]);
    // five runs of the CLI as a process
  }, 120_000);

  it('is the same error for the LDAP kinds, whose names are walked level by level', async () => {
    const file = join(target.scratch, 'ldap.yaml');
    await writeFile(
      file,
      'kind: LDAPStaticRole\nmetadata: {mount: ldap-prod, name: apps/app1}\nspec: {username: svc-app1, rotation_period: 1h}\n',
    );
    target.emulator.resetStats();
    const planned = await target.run(['plan', file]);
    expect(planned.code, planned.stdout).toBe(1);
    expect(planned.stderr).toContain('no secrets engine is mounted at "ldap-prod"');
    expect(writes()).toEqual([]);
  });

  it('still plans creates in a mounted engine that has no roles yet', async () => {
    const file = join(target.scratch, 'roles.yaml');
    await writeFile(file, ROLE('ssh'));
    const planned = await target.run(['plan', file, '--detailed-exitcode']);
    expect(planned.code, planned.stderr).toBe(2);
    expect(planned.stdout).toContain('+ create SSHRole/ssh/web');
  });
});
