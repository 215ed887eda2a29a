/**
 * The SSH kinds through the CLI as a process: references to roles, the
 * consent a CA replacement needs, and plan notes for fields of the other key
 * type. The emulator serves both APIs on one URL.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seedApply } from '../helpers/cli-seed.ts';
import { type CliTarget, cliTarget, keepFingerprints, NO_FINGERPRINTS } from '../helpers/cli-target.ts';

const CA_KEY = fileURLToPath(new URL('../fixtures/kinds/ssh-ca', import.meta.url));

let target: CliTarget;
beforeEach(async () => {
  // a store only in the test about what it remembers (keepFingerprints): the others never read it
  target = await cliTarget('ssh', NO_FINGERPRINTS);
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

async function secretsSend(method: string, path: string, body?: unknown) {
  return fetch(`${target.emulator.url}/v1${path}`, {
    method,
    headers: { 'x-service-token': target.emulator.tokens.secrets, 'content-type': 'application/json' },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
}

const ca = (spec: string) => `kind: SSHCertificateAuthority\nmetadata: {mount: ssh}\nspec: ${spec}\n`;
const ALLOW_CA = ['--auto-approve', '--allow-replace', 'SSHCertificateAuthority'];

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
    await seedApply(target, [await manifest('roles.yaml', OTP_ROLE)]);
    const zero = await manifest('zero.yaml', 'kind: SSHZeroAddress\nmetadata: {mount: ssh}\nspec: {roles: [web]}\n');
    const applied = await target.run(['apply', zero, '--auto-approve', '--no-progress']);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toContain('created SSHZeroAddress/ssh');
    // the role was read (to check the reference) but is not part of this plan: not listed as unmanaged
    expect(applied.stdout).not.toContain('Unmanaged');
    expect(JSON.parse((await secretsGet('/ssh/config/zeroaddress')).text).data.roles).toEqual(['web']);
  });

  it('refuses to prune a role the zero-address list names, with or without --target, and changes nothing', async () => {
    const otp = (name: string) => OTP_ROLE.replace('{name: web}', `{name: ${name}}`);
    const zero = 'kind: SSHZeroAddress\nmetadata: {mount: ssh}\nspec: {roles: [legacy-otp, web]}\n';
    await seedApply(target, [await manifest('seed.yaml', `${otp('legacy-otp')}---\n${OTP_ROLE}---\n${zero}`)]);
    await manifest('converge.config.yaml', 'ownership:\n  - {kind: SSHRole, scope: ssh}\n');
    // legacy-otp is live and named by the list, but no manifest declares it
    const file = await manifest('declared.yaml', `${OTP_ROLE}---\n${zero}`);
    const refusal =
      'declared.yaml:5:1: SSHZeroAddress/ssh references SSHRole/ssh/legacy-otp, which --prune would delete ' +
      '(it is in an ownership scope and in no manifest): declare SSHRole/ssh/legacy-otp to keep it, or change ' +
      'SSHZeroAddress/ssh so that it no longer references it to let --prune delete it';
    target.emulator.resetStats();
    for (const args of [
      ['plan', file, '--prune'],
      ['apply', file, '--prune', '--auto-approve', '--no-progress'],
      ['plan', file, '--prune', '-t', 'SSHRole/ssh/legacy-otp'],
      ['apply', file, '--prune', '-t', 'SSHRole/ssh/legacy-otp', '--auto-approve', '--no-progress'],
    ]) {
      const result = await target.run(args);
      expect(result.code, args.join(' ')).toBe(1);
      expect(result.stderr).toContain(refusal);
      expect(result.stdout).not.toContain('delete SSHRole/ssh/legacy-otp');
    }
    expect(Object.keys(target.emulator.stats().byRoute).every((route) => route.startsWith('GET'))).toBe(true);
    expect((await secretsGet('/ssh/roles/legacy-otp')).status).toBe(200);
    expect(JSON.parse((await secretsGet('/ssh/config/zeroaddress')).text).data.roles).toEqual(['legacy-otp', 'web']);
    // without --prune the live role is a reference like any other: nothing to do, and not prunable
    const plain = await target.run(['plan', file, '--detailed-exitcode']);
    expect(plain.code, plain.stdout + plain.stderr).toBe(0);
    expect(plain.stdout).toContain('  ? SSHRole/ssh/legacy-otp\n');
  });

  it('marks a CA replacement as destructive, and applies it only with --allow-replace', async () => {
    const generated = await manifest('ca.yaml', ca('{key_type: ed25519}'));
    await seedApply(target, [generated]);
    const before = (await secretsGet('/ssh/public_key')).text;
    // a generated CA is compared by its live key's type and size: another type is a guarded replacement
    await writeFile(generated, ca('{key_type: ecdsa-sha2-nistp256}'));
    const typed = await target.run(['plan', generated, '--detailed-exitcode']);
    expect(typed.code, typed.stderr).toBe(2);
    expect(typed.stdout).toContain('-/+ replace SSHCertificateAuthority/ssh');
    expect(typed.stdout).toContain('key_type: "ed25519" -> "ec" (forces replacement)');
    expect(typed.stdout).toContain('key_bits: 0 -> 256 (forces replacement)');
    expect(typed.stdout).toContain(
      'destructive: a new CA key invalidates every certificate the old key signed; the object is deleted before ' +
        'the new one is created and cannot be put back if the create fails (private_key is never read back, so ' +
        'cannot be sent again); apply needs --allow-replace SSHCertificateAuthority',
    );

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
    // the plan as apply prints it before refusing it (a replacement planned with exit 2 is `typed` above)
    const refused = await target.run(['apply', given, '--auto-approve']);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain('-/+ replace SSHCertificateAuthority/ssh');
    expect(refused.stdout).toContain('destructive: a new CA key invalidates every certificate the old key signed');
    expect(refused.stderr).toContain('--allow-replace SSHCertificateAuthority');
    expect((await secretsGet('/ssh/public_key')).text).toBe(before);

    const applied = await target.run(['apply', given, ...ALLOW_CA]);
    expect(applied.code, applied.stderr).toBe(0);
    expect((await secretsGet('/ssh/public_key')).text.trim()).toBe(publicKey.split(' ').slice(0, 2).join(' '));
    const privateKey = await readFile(CA_KEY, 'utf8');
    for (const line of privateKey.split('\n').filter((l) => l.length > 20 && !l.startsWith('-'))) {
      expect(applied.stdout + applied.stderr + refused.stdout + refused.stderr).not.toContain(line);
    }
    expect((await target.run(['plan', given, '--detailed-exitcode'])).code).toBe(0);
  }, 60_000);

  it('replaces a generated CA for a new key size only with --allow-replace, and is then in sync', async () => {
    const file = await manifest('ca.yaml', ca('{key_type: ec}'));
    await seedApply(target, [file]);
    const before = (await secretsGet('/ssh/public_key')).text;
    expect(before).toMatch(/^ecdsa-sha2-nistp256 /);
    await writeFile(file, ca('{key_type: ec, key_bits: 384}'));
    const unguarded = await target.run(['apply', file, '--auto-approve']);
    expect(unguarded.code).toBe(1);
    expect(unguarded.stderr).toContain('the object is deleted before the new one is created');
    expect(unguarded.stderr).toContain('--allow-replace SSHCertificateAuthority');
    expect((await secretsGet('/ssh/public_key')).text).toBe(before);

    const applied = await target.run(['apply', file, ...ALLOW_CA, '--no-progress']);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toContain('replaced SSHCertificateAuthority/ssh');
    expect((await secretsGet('/ssh/public_key')).text).toMatch(/^ecdsa-sha2-nistp384 /);
    expect((await target.run(['plan', file, '--detailed-exitcode'])).code).toBe(0);
  });

  it('reports a generated CA swapped by hand as drift, by the key converge saw after creating it', async () => {
    // applied in-process: the store remembers the key seen after the create, as the CLI's apply does
    keepFingerprints(target);
    const file = await manifest('ca.yaml', ca('{key_type: ed25519}'));
    await seedApply(target, [file]);

    // someone replaces the key behind converge's back, with one of the same type and size
    expect((await secretsSend('DELETE', '/ssh/config/ca')).status).toBe(204);
    expect((await secretsSend('POST', '/ssh/config/ca', { key_type: 'ed25519' })).status).toBe(200);
    const swapped = (await secretsGet('/ssh/public_key')).text.trim();

    const plan = await target.run(['plan', file, '--detailed-exitcode']);
    expect(plan.code, plan.stderr).toBe(2);
    expect(plan.stdout).toContain('-/+ replace SSHCertificateAuthority/ssh');
    expect(plan.stdout).toMatch(
      /public_key: "ssh-ed25519 [^\n]* -> \(a new one, made by the service\) \(forces replacement\)/,
    );
    expect(plan.stdout).toContain(
      'SSHCertificateAuthority/ssh: public_key is not the one converge saw after creating the object: it was ' +
        'changed outside converge',
    );
    const drift = await target.run(['drift', file, '--format', 'json']);
    expect(drift.code).toBe(2);
    const report = JSON.parse(drift.stdout);
    expect(report.objects[0]).toMatchObject({
      key: 'SSHCertificateAuthority/ssh',
      state: 'drifted',
      action: 'replace',
      changes: [{ path: 'public_key', before: swapped, replace: true, note: 'a new one, made by the service' }],
    });
    // replacing it is guarded as any CA replacement; afterwards the new key is the one remembered
    expect((await target.run(['apply', file, ...ALLOW_CA])).code).toBe(0);
    expect((await secretsGet('/ssh/public_key')).text.trim()).not.toBe(swapped);
    expect((await target.run(['drift', file])).code).toBe(0);
  }, 60_000);

  it('notes a field of the other key type instead of planning a change forever', async () => {
    const file = await manifest(
      'role.yaml',
      'kind: SSHRole\nmetadata: {name: web}\nspec: {key_type: otp, default_user: ubuntu, cidr_list: 10.0.0.0/8, ttl: 1h}\n',
    );
    await seedApply(target, [file]);
    const again = await target.run(['plan', file, '--detailed-exitcode']);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('SSHRole/ssh/web: ttl does not apply to this object and is not compared');
  });
});
