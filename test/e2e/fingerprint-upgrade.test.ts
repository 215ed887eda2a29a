// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are manifest placeholders, not templates
/**
 * A fingerprint store of version 2 (each value hashed alone, so two fields holding one secret had
 * equal hashes in the file) read by this converge, through the CLI as a process against the
 * emulator: the plan says its entries cannot be compared and why, keeps the fields it names secret,
 * sends them once, and the store is rewritten as version 3, where one secret in two fields gives
 * two different hashes. docs/security.md, "Secrets at rest and on the wire".
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliTarget, cliTarget } from '../helpers/cli-target.ts';

const SECRET = 'one-secret-for-two-fields';
let target: CliTarget;
let store: string;

beforeAll(async () => {
  target = await cliTarget('fingerprint-upgrade', { SHARED_SECRET: SECRET });
  store = target.env.CONVERGE_FINGERPRINTS as string;
  await writeFile(
    join(target.scratch, 'settings.yaml'),
    [
      'kind: SMTPSettings',
      'spec: {enabled: true, host: smtp.example.com, port: 587, sender: converge@example.com, auth: login, username: mailer, password: "${env:SHARED_SECRET}"}',
      '---',
      'kind: SMSSettings',
      'spec: {enabled: true, account-sid: AC123, from-number: "+15550100", auth-token: "${env:SHARED_SECRET}"}',
      '',
    ].join('\n'),
  );
});
afterAll(() => target?.close());

describe('a fingerprint store of version 2', () => {
  it('is rewritten as version 3, whose hashes do not show that two fields hold one secret', async () => {
    const applied = await target.run(['apply', 'settings.yaml', '--auto-approve', '--no-progress']);
    expect(applied.code, applied.stderr).toBe(0);
    const written = JSON.parse(await readFile(store, 'utf8')) as { version: number; entries: Record<string, string> };
    expect(written.version).toBe(3);
    const secretEntries = Object.entries(written.entries).filter(([name]) =>
      /SMTPSettings#password|SMSSettings#auth-token/.test(name),
    );
    expect(secretEntries).toHaveLength(2);
    expect(secretEntries[0]?.[1]).not.toBe(secretEntries[1]?.[1]);
    expect(JSON.stringify(written)).not.toContain(SECRET);
  });

  it('is read as not comparable, says why, sends its secrets once, and keeps them secret', async () => {
    const current = JSON.parse(await readFile(store, 'utf8')) as Record<string, unknown>;
    await writeFile(store, JSON.stringify({ ...current, version: 2 }));
    const plan = await target.run(['plan', 'settings.yaml']);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain('the fingerprint store was written by an older converge');
    expect(plan.stdout).not.toContain(SECRET);
    const applied = await target.run(['apply', 'settings.yaml', '--auto-approve', '--no-progress']);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).not.toContain(SECRET);
    expect((JSON.parse(await readFile(store, 'utf8')) as { version: number }).version).toBe(3);
    const again = await target.run(['plan', 'settings.yaml', '--detailed-exitcode']);
    expect(again.code, again.stdout).toBe(0);
  });
});
