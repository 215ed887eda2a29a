// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are manifest placeholders, not templates
/**
 * Secrets too short to be told apart from ordinary words (docs/security.md,
 * "Redaction"): a password `changed` no longer masks the word in unrelated
 * messages (`live state *** since the plan was made`), it is still masked
 * where it stands, and validate and plan warn about it at its
 * `file:line:col`, never showing it.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliTarget, cliTarget, NO_FINGERPRINTS } from '../helpers/cli-target.ts';
import { api } from '../helpers/engine.ts';

const MANIFEST = [
  'kind: GeneralSettings',
  'spec: {api-rate-limit: 45}',
  '---',
  'kind: SMTPSettings',
  'spec:',
  '  {enabled: true, host: smtp.example.com, sender: platform@example.com, auth: login, username: mailer,',
  '   password: "${env:SMTP_PASSWORD}"}',
].join('\n');

let target: CliTarget;
let manifest: string;
beforeAll(async () => {
  target = await cliTarget('short-secrets', NO_FINGERPRINTS);
  manifest = join(target.scratch, 'settings.yaml');
  await writeFile(manifest, MANIFEST);
});
afterAll(() => target?.close());

describe('a secret too short to be redacted safely', () => {
  it('is warned about at validate and plan, at its file:line:col, without its value', async () => {
    const short = { SMTP_PASSWORD: 'Zq9!x' };
    const valid = await target.run(['validate', manifest], short);
    expect(valid.code, valid.stderr).toBe(0);
    const warning =
      'settings.yaml:7:14: warning: SMTPSettings spec.password: this secret is shorter than 8 characters, too short to be told apart from ordinary words';
    expect(valid.stderr).toContain(warning);
    const plan = await target.run(['plan', manifest], short);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stderr).toContain(warning);
    expect(valid.stdout + valid.stderr + plan.stdout + plan.stderr).not.toContain('Zq9!x');

    const long = await target.run(['validate', manifest], { SMTP_PASSWORD: 'long-enough-1' });
    expect(long.code, long.stderr).toBe(0);
    expect(long.stderr).not.toContain('warning');
  });

  it('no longer masks the same word in unrelated messages: a password `changed`', async () => {
    const env = { SMTP_PASSWORD: 'changed' };
    const planFile = join(target.scratch, 'plan.json');
    const made = await target.run(['plan', manifest, '--out', planFile], env);
    expect(made.code, made.stderr).toBe(0);
    // where it stands, it is masked all the same: the saved plan and the plan's text never carry it
    expect(await readFile(planFile, 'utf8')).not.toMatch(/"changed"/);
    expect(made.stdout).toMatch(/password/);
    expect(made.stdout).not.toMatch(/password.*changed/);

    const patched = await api(
      { url: target.emulator.url, token: target.emulator.tokens.admin },
      'PATCH',
      '/admin/general-settings',
      {
        data: { type: 'general-settings', attributes: { 'api-rate-limit': 99 } },
      },
    );
    expect(patched.status).toBe(200);
    const refused = await target.run(['apply', planFile], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('live state changed since the plan was made. Changed:');
    expect(refused.stderr).not.toContain('***');
  });
});
