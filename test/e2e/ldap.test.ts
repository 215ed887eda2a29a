/**
 * The LDAP kinds through the CLI as a process, against the emulator's
 * in-memory directory: the root password converge must never send again
 * once the engine rotated it, a checked-out account that cannot leave its
 * set, and a static role whose account changes.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seedApply } from '../helpers/cli-seed.ts';
import { type CliTarget, cliTarget, keepFingerprints, LDAP_CONFIG, NO_FINGERPRINTS } from '../helpers/cli-target.ts';

let target: CliTarget;
beforeEach(async () => {
  // a store only in the test about the bind password's fingerprint (keepFingerprints)
  target = await cliTarget('ldap', NO_FINGERPRINTS);
});
afterEach(() => target?.close());

const CONFIG = LDAP_CONFIG;

const staticRole = (name: string, username: string) =>
  `kind: LDAPStaticRole\nmetadata: {name: ${name}}\nspec: {username: ${username}, rotation_period: 24h}\n`;

/**
 * The engine's config and one static role, applied in-process (test/helpers/cli-seed.ts: the
 * starting state, not what is tested); the role's manifest is then changed by the test.
 */
async function appliedRole(name: string, username: string): Promise<{ config: string; role: string }> {
  const config = await manifest('config.yaml', CONFIG);
  const role = await manifest('role.yaml', staticRole(name, username));
  await seedApply(target, [config, role]);
  return { config, role };
}

async function manifest(name: string, text: string): Promise<string> {
  const path = join(target.scratch, name);
  await writeFile(path, text);
  return path;
}

async function secrets(method: string, path: string, body?: unknown) {
  const response = await fetch(`${target.emulator.url}/v1${path}`, {
    method,
    headers: { 'x-service-token': target.emulator.tokens.secrets, 'content-type': 'application/json' },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

describe('LDAP kinds through the CLI', () => {
  it('never re-sends a bind password the engine rotated, even with --resend-secrets; sends a changed one', async () => {
    // applied in-process with the target's fingerprint store: the bind password's fingerprint is recorded
    keepFingerprints(target);
    const file = await manifest('config.yaml', CONFIG);
    await seedApply(target, [file]);
    expect((await secrets('POST', '/ldap/rotate-root')).status).toBe(204);

    const resend = await target.run(['plan', file, '--resend-secrets', '--detailed-exitcode']);
    expect(resend.code, resend.stderr).toBe(0);
    expect(resend.stdout).toContain('LDAPConfig/ldap: bindpass is not sent: the engine rotated its root password at');
    // applying anyway changes nothing, and the engine still reaches its directory with its own password
    await writeFile(file, `${CONFIG}  request_timeout: 30s\n`);
    const applied = await target.run(['apply', file, '--auto-approve', '--resend-secrets']);
    expect(applied.code, applied.stderr).toBe(0);
    const role = await manifest(
      'role.yaml',
      'kind: LDAPStaticRole\nmetadata: {name: app}\nspec: {username: svc-app1, rotation_period: 1h}\n',
    );
    // the service checks the account in the directory with its bind password when the role is created
    await seedApply(target, [role]);

    // a bind password changed in the manifest (the directory admin set a new one) is sent
    const changed = await target.run(['plan', file, '--detailed-exitcode'], { LDAP_BINDPASS: 'a-new-password' });
    expect(changed.code).toBe(2);
    expect(changed.stdout).toMatch(/bindpass: \(secret\) changed since last apply/);
    expect(changed.stdout + changed.stderr).not.toContain('a-new-password');
  });

  it('warns in the plan that a checked-out account cannot leave its set, and apply fails with the service message', async () => {
    const config = await manifest('config.yaml', CONFIG);
    const set = await manifest(
      'set.yaml',
      'kind: LDAPLibrarySet\nmetadata: {name: batch}\nspec: {service_account_names: [svc-batch1, svc-batch2]}\n',
    );
    await seedApply(target, [config, set]);
    const out = await secrets('POST', '/ldap/library/batch/check-out');
    expect(out.status).toBe(200);
    const account = out.body.data.service_account_name as string;
    const other = account === 'svc-batch1' ? 'svc-batch2' : 'svc-batch1';
    await writeFile(set, `kind: LDAPLibrarySet\nmetadata: {name: batch}\nspec: {service_account_names: [${other}]}\n`);

    const plan = await target.run(['plan', config, set]);
    expect(plan.stdout).toContain(
      `LDAPLibrarySet/ldap/batch: ${account} is checked out: the service refuses to remove it`,
    );
    const applied = await target.run(['apply', config, set, '--auto-approve', '--no-progress']);
    expect(applied.code).toBe(1);
    expect(applied.stdout + applied.stderr).toContain(`can't be deleted because it is currently checked out`);
    expect(out.body.data.password).toBeTruthy();
    expect(applied.stdout + applied.stderr + plan.stdout).not.toContain(out.body.data.password);
  });

  it('plans a static role whose account changes as a replacement', async () => {
    const { config, role } = await appliedRole('apps/app1', 'svc-app1');
    await writeFile(role, staticRole('apps/app1', 'svc-batch3'));
    const plan = await target.run(['plan', config, role, '--detailed-exitcode']);
    expect(plan.code).toBe(2);
    expect(plan.stdout).toContain('-/+ replace LDAPStaticRole/ldap/apps/app1');
    expect(plan.stdout).toContain('(forces replacement)');
    const applied = await target.run(['apply', config, role, '--auto-approve']);
    expect(applied.code, applied.stderr).toBe(0);
    expect((await secrets('GET', '/ldap/static-role/apps/app1')).body.data.username).toBe('svc-batch3');
  });

  it('puts a static role back when its replacement is refused, says so, and exits 1', async () => {
    const { config, role } = await appliedRole('app1', 'svc-app1');
    // svc-app2 is not in the directory: the service refuses the create after the old role is deleted
    await writeFile(role, staticRole('app1', 'svc-app2'));
    const plan = await target.run(['plan', config, role]);
    expect(plan.stdout).toContain('-/+ replace LDAPStaticRole/ldap/app1');
    // its readable state recreates it: no risk to name, no consent to ask
    expect(plan.stdout).not.toContain('destructive');

    const applied = await target.run(['apply', config, role, '--auto-approve', '--no-progress']);
    expect(applied.code).toBe(1);
    expect(applied.stdout).toContain(
      'failed to replace LDAPStaticRole/ldap/app1: replace failed: the create was refused (POST /v1/ldap/static-role/app1: ' +
        '400 could not find the account "svc-app2" in the directory); ' +
        'the previous LDAPStaticRole/ldap/app1 was restored from what was read',
    );
    const restored = await secrets('GET', '/ldap/static-role/app1');
    expect(restored.body.data).toMatchObject({ username: 'svc-app1', rotation_period: 86400 });
    // the engine manages the account again: it has a password to hand out
    expect((await secrets('GET', '/ldap/static-cred/app1')).body.data.password).toBeTruthy();

    // JSON lines say the same, and what is live now, for machines
    const json = await target.run(['apply', config, role, '--auto-approve', '--json']);
    expect(json.code).toBe(1);
    const events = json.stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line));
    // the next plan (this apply's own) is the same replacement, not a create of something lost
    const next = events.find((event) => event.type === 'plan-ready').plan.actions as Array<{ key: string }>;
    expect(next.find((a) => a.key === 'LDAPStaticRole/ldap/app1')).toMatchObject({ action: 'replace' });
    const failed = events.find((event) => event.type === 'action-failed');
    expect(failed.error).toMatchObject({ code: 'REPLACE_FAILED', status: 400, live: 'restored' });
    expect(failed.error.message).toMatch(/; the previous LDAPStaticRole\/ldap\/app1 was restored from what was read$/);
  }, 60_000);
});
