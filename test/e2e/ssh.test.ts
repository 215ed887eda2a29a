/**
 * The SSH kinds through the CLI as a process: references to roles, the
 * consent a CA replacement needs, and plan notes for fields of the other key
 * type. The emulator serves both APIs on one URL.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type CliTarget, cliTarget } from '../helpers/cli-target.ts';

const CA_KEY = fileURLToPath(new URL('../fixtures/kinds/ssh-ca', import.meta.url));

let target: CliTarget;
beforeEach(async () => {
  target = await cliTarget('ssh');
});
afterEach(() => target?.close());

async function manifest(name: string, text: string): Promise<string> {
  const path = join(target.scratch, name);
  await writeFile(path, text);
  return path;
}

async function secretsGet(path: string) {
  const response = await fetch(`${target.emulator.url}/v1${path}`, {
    headers: { 'x-service-token': target.emulator.tokens.secrets },
  });
  return { status: response.status, text: await response.text() };
}

const OTP_ROLE =
  'kind: SSHRole\nmetadata: {name: web}\nspec: {key_type: otp, default_user: ubuntu, cidr_list: 10.0.0.0/8}\n';

describe('SSH kinds through the CLI', () => {
  it('refuses a zero-address list naming a role neither declared nor live, at its manifest line, and sends nothing', async () => {
    const file = await manifest('zero.yaml', 'kind: SSHZeroAddress\nmetadata: {mount: ssh}\nspec: {roles: [ghost]}\n');
    target.emulator.resetStats();
    const result = await target.run(['plan', file]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('zero.yaml:1:1: references SSHRole/ssh/ghost, which is neither declared nor live');
    const stats = target.emulator.stats();
    expect(Object.keys(stats.byRoute).every((route) => route.startsWith('GET'))).toBe(true);
  });

  it('accepts a role that is live but not declared, and orders a declared one before the list', async () => {
    const roles = await manifest('roles.yaml', OTP_ROLE);
    expect((await target.run(['apply', roles, '--auto-approve'])).code).toBe(0);
    const zero = await manifest('zero.yaml', 'kind: SSHZeroAddress\nmetadata: {mount: ssh}\nspec: {roles: [web]}\n');
    const applied = await target.run(['apply', zero, '--auto-approve', '--no-progress']);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toContain('created SSHZeroAddress/ssh');
    // the role was read (to check the reference) but is not part of this plan: not listed as unmanaged
    expect(applied.stdout).not.toContain('Unmanaged');
    expect(JSON.parse((await secretsGet('/ssh/config/zeroaddress')).text).data.roles).toEqual(['web']);
  });

  it('marks a CA replacement as destructive, and applies it only with --allow-replace', async () => {
    const generated = await manifest(
      'ca.yaml',
      'kind: SSHCertificateAuthority\nmetadata: {mount: ssh}\nspec: {key_type: ed25519}\n',
    );
    expect((await target.run(['apply', generated, '--auto-approve'])).code).toBe(0);
    const before = (await secretsGet('/ssh/public_key')).text;
    // a generated CA that exists is left alone, whatever its key type says now
    await writeFile(
      generated,
      'kind: SSHCertificateAuthority\nmetadata: {mount: ssh}\nspec: {key_type: ecdsa-sha2-nistp256}\n',
    );
    expect((await target.run(['plan', generated, '--detailed-exitcode'])).code).toBe(0);

    const publicKey = (await readFile(`${CA_KEY}.pub`, 'utf8')).trim();
    const given = await manifest(
      'ca.yaml',
      `kind: SSHCertificateAuthority\nmetadata: {mount: ssh}\nspec:\n  private_key: \${file:${CA_KEY}}\n  public_key: ${publicKey}\n`,
    );
    const plan = await target.run(['plan', given, '--detailed-exitcode'], {});
    // the key file is outside the manifest directory: allowed only by the configuration
    expect(plan.code).toBe(1);
    await writeFile(
      join(target.scratch, 'converge.config.yaml'),
      `interpolation:\n  fileRoots: [${JSON.stringify(join(CA_KEY, '..'))}]\n`,
    );
    const planned = await target.run(['plan', given, '--detailed-exitcode']);
    expect(planned.code, planned.stderr).toBe(2);
    expect(planned.stdout).toContain('-/+ replace SSHCertificateAuthority/ssh');
    expect(planned.stdout).toContain('destructive: a new CA key invalidates every certificate the old key signed');

    const refused = await target.run(['apply', given, '--auto-approve']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('--allow-replace SSHCertificateAuthority');
    expect((await secretsGet('/ssh/public_key')).text).toBe(before);

    const applied = await target.run(['apply', given, '--auto-approve', '--allow-replace', 'SSHCertificateAuthority']);
    expect(applied.code, applied.stderr).toBe(0);
    expect((await secretsGet('/ssh/public_key')).text.trim()).toBe(publicKey.split(' ').slice(0, 2).join(' '));
    const privateKey = await readFile(CA_KEY, 'utf8');
    for (const line of privateKey.split('\n').filter((l) => l.length > 20 && !l.startsWith('-'))) {
      expect(applied.stdout + applied.stderr + planned.stdout).not.toContain(line);
    }
    expect((await target.run(['plan', given, '--detailed-exitcode'])).code).toBe(0);
  });

  it('notes a field of the other key type instead of planning a change forever', async () => {
    const file = await manifest(
      'role.yaml',
      'kind: SSHRole\nmetadata: {name: web}\nspec: {key_type: otp, default_user: ubuntu, cidr_list: 10.0.0.0/8, ttl: 1h}\n',
    );
    expect((await target.run(['apply', file, '--auto-approve'])).code).toBe(0);
    const again = await target.run(['plan', file, '--detailed-exitcode']);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('SSHRole/ssh/web: ttl does not apply to this object and is not compared');
  });
});
