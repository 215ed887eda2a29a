// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are manifest placeholders, not templates
/**
 * A sensitive module test variable's value is never blanked by a round trip: exported without
 * placeholders, the value is left out and so not managed (its `""` default applies only to a
 * variable that is not sensitive); exported with them, an unfilled `.env.example` line sourced as
 * `NAME=` is refused at validate with its file:line:col, as every empty secret is.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliTarget, cliTarget } from '../helpers/cli-target.ts';

const SECRET = 'canary-test-variable-secret-5521';
const MODULE = `kind: RegistryModule
metadata: {organization: example-org, name: net, provider: aws}
spec: {}
---
kind: ModuleTestVariable
metadata: {organization: example-org, module: net/aws, name: SECRET_VAR}
spec: {value: "\${env:MTV_SECRET}", sensitive: true}
`;

let target: CliTarget;

/** Requests that change something on the server. */
function writes(): number {
  return Object.entries(target.emulator.stats().byRoute)
    .filter(([route]) => !route.startsWith('GET '))
    .reduce((n, [, count]) => n + count, 0);
}

beforeAll(async () => {
  target = await cliTarget('sensitive-test-variable');
  await writeFile(join(target.scratch, 'module.yaml'), MODULE);
  const applied = await target.run(['apply', 'module.yaml', '--auto-approve'], { MTV_SECRET: SECRET });
  expect(applied.code, applied.stderr).toBe(0);
});
afterAll(() => target?.close());

describe('a sensitive module test variable, exported and applied again', () => {
  const exportArgs = ['--kind', 'ModuleTestVariable', '--scope', 'organization=example-org'];

  it('without placeholders: the value is left out, not managed, and nothing is written', async () => {
    const exported = await target.run(['export', '--out', 'bare', '--no-placeholders', ...exportArgs]);
    expect(exported.code, exported.stderr).toBe(0);
    const manifest = await readFile(join(target.scratch, 'bare', 'module-test-variable.yaml'), 'utf8');
    expect(manifest).toContain('sensitive: true');
    expect(manifest).not.toMatch(/^\s*value:/m);

    const plan = await target.run(['plan', 'bare', '--no-progress', '--json']);
    expect(plan.code, plan.stderr).toBe(0);
    expect(JSON.parse(plan.stdout).plan.actions).toEqual([
      expect.objectContaining({ kind: 'ModuleTestVariable', action: 'noop' }),
    ]);
    const before = writes();
    const applied = await target.run(['apply', 'bare', '--auto-approve']);
    expect(applied.code, applied.stderr).toBe(0);
    expect(writes()).toBe(before);
  });

  it('with placeholders: an unfilled one sourced as NAME= is refused at its line, and nothing is sent', async () => {
    const exported = await target.run(['export', '--out', 'placeholders', ...exportArgs]);
    expect(exported.code, exported.stderr).toBe(0);
    const example = await readFile(join(target.scratch, 'placeholders', '.env.example'), 'utf8');
    const name = /^([A-Z0-9_]+)=$/m.exec(example)?.[1];
    expect(name).toMatch(/SECRET_VAR/);
    const env = { [name as string]: '' };

    const validated = await target.run(['validate', 'placeholders'], env);
    expect(validated.code).toBe(1);
    expect(validated.stderr).toMatch(
      new RegExp(
        `module-test-variable\\.yaml:\\d+:\\d+: \\$\\{env:${name}\\} is empty: an empty secret would blank the live one`,
      ),
    );
    const requests = target.emulator.stats().total;
    const applied = await target.run(['apply', 'placeholders', '--auto-approve'], env);
    expect(applied.code).toBe(1);
    expect(target.emulator.stats().total).toBe(requests);
  });
});
