// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are manifest placeholders, not templates
/**
 * A secret that also stands in an ordinary live field (a password pasted into a help text) is
 * masked in every report format: the Markdown and JUnit reports escape what they embed, and an
 * escaped secret (`Tr0ub4dor&#38;3`) would no longer match the redactor's forms of it, so they
 * mask before escaping (docs/security.md, "Redaction").
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliTarget, cliTarget } from '../helpers/cli-target.ts';

// every character the Markdown escaper turns into an entity, and those XML escapes
const SECRET = 'Tr0ub4dor&3_x!<p|a$s>"q`';
const FRAGMENT = 'Tr0ub4dor';

let target: CliTarget;

beforeAll(async () => {
  target = await cliTarget('report-secrets');
  // the live help text holds the very value that is the secret in the manifests
  const live = join(target.scratch, 'live.yaml');
  await writeFile(live, `kind: CustomizationSettings\nspec:\n  login-help: ${JSON.stringify(SECRET)}\n`);
  const applied = await target.run(['apply', live, '--auto-approve']);
  expect(applied.code, applied.stderr).toBe(0);
  await writeFile(
    join(target.scratch, 'm.yaml'),
    'kind: CustomizationSettings\nspec:\n  login-help: Sign in with SSO\n  footer: ${env:FOOTER_TOKEN}\n',
  );
});
afterAll(() => target?.close());

describe('a secret in an ordinary live field', () => {
  it('is masked in the drift report in every format, and in the plan in every format', async () => {
    const env = { FOOTER_TOKEN: SECRET };
    const shown: string[] = [];
    for (const format of ['text', 'json', 'markdown', 'junit']) {
      const result = await target.run(['drift', 'm.yaml', '--format', format, '--output', `r.${format}`], env);
      expect(result.code, result.stderr).toBe(2);
      const report = await readFile(join(target.scratch, `r.${format}`), 'utf8');
      // the field drifted, and its live value is shown masked, not left out
      expect(report, format).toContain('login-help');
      // the mask, as each format writes it (Markdown escapes `*`, which renders as `***`)
      expect(report, format).toContain(format === 'markdown' ? '&#42;&#42;&#42;' : '***');
      shown.push(report, result.stdout, result.stderr);
    }
    for (const args of [[], ['--json'], ['--format', 'markdown']]) {
      const result = await target.run(['plan', 'm.yaml', '--no-progress', ...args], env);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toContain('login-help');
      shown.push(result.stdout, result.stderr);
    }
    for (const text of shown) expect(text).not.toContain(FRAGMENT);
  });
});
