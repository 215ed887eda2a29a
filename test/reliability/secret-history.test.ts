/**
 * A value that was a secret stays one: when a field stops coming from
 * `${env:}`, its previous value (still live on the server) is not printed as
 * the "before" of the change in plan, plan --json, apply or drift, because the
 * fingerprint store remembers the field was secret.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type RunningEmulator, startEmulator } from '../../src/emulator/server.ts';
import { converge } from '../helpers/cli.ts';
import { seedApply } from '../helpers/cli-seed.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const CANARY = 'https://canary-7f3a9e.example.com/private/tool.zip';
const SHA = 'c'.repeat(64);

let emulator: RunningEmulator;
let scratch: string;

beforeEach(async () => {
  emulator = await startEmulator({ port: 0 });
  scratch = await tempDir('secret-history');
});
afterEach(() => emulator?.close());

const manifest = (url: string) =>
  ['kind: ToolVersion', 'metadata: {name: 7.7.7}', `spec: {url: "${url}", sha: "${SHA}"}`].join('\n');

/** converge against the emulator, with one store of fingerprints and the manifest's variables. */
const cli =
  (variables: Record<string, string>) =>
  (args: string[]): ReturnType<typeof converge> =>
    converge(args, {
      cwd: scratch,
      env: {
        CONVERGE_PLATFORM_URL: emulator.url,
        CONVERGE_PLATFORM_TOKEN: emulator.tokens.admin,
        CONVERGE_FINGERPRINTS: join(scratch, 'fingerprints.json'),
        ...variables,
      },
    });

/**
 * The apply that makes the field secret, in-process (test/helpers/cli-seed.ts): what a
 * `converge apply` with the same variables leaves, the fingerprints recorded in the store the CLI
 * reads, keyed as the CLI keys it (a store keyed otherwise would not know the field, and the plans
 * below would show it). What is under test are the commands after it, which run as processes.
 */
async function appliedSecret(file: string, variables: Record<string, string>): Promise<void> {
  const env = {
    CONVERGE_PLATFORM_URL: emulator.url,
    CONVERGE_PLATFORM_TOKEN: emulator.tokens.admin,
    CONVERGE_FINGERPRINTS: join(scratch, 'fingerprints.json'),
  };
  const summary = await seedApply({ emulator, scratch, env }, [file], { env: variables });
  expect(Object.values(summary.done).reduce((a, b) => a + (b ?? 0), 0)).toBe(1);
}

describe('a field that was secret', () => {
  it('is never shown in clear once the manifest writes it literally', async () => {
    const file = join(scratch, 'm.yaml');
    const run = cli({ TOOL_URL: CANARY });
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the manifest's placeholder syntax
    await writeFile(file, manifest('${env:TOOL_URL}'));
    await appliedSecret(file, { TOOL_URL: CANARY });

    await writeFile(file, manifest('https://mirror.example.com/tool.zip'));
    // commands that change nothing run side by side
    const outputs = [
      ...(await Promise.all([
        run(['plan', file]),
        run(['plan', file, '--json']),
        run(['drift', file, '--format', 'markdown']),
      ])),
      await run(['apply', file, '--auto-approve']),
    ];
    expect(outputs.map((o) => o.code)).toEqual([0, 0, 2, 0]);
    for (const { stdout, stderr } of outputs) {
      expect(stdout).not.toContain('canary-7f3a9e');
      expect(stderr).not.toContain('canary-7f3a9e');
    }
    expect(outputs[0]?.stdout).toContain('url');
    expect(outputs[0]?.stdout).toContain('secret');
  });

  it('is never shown in clear once the manifest leaves the field out (reset to its default)', async () => {
    const secret = 'leak-login-5b1e7c';
    const file = join(scratch, 'm.yaml');
    const run = cli({ LEAK_LOGIN: secret });
    await writeFile(
      file,
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the manifest's placeholder syntax
      'kind: CustomizationSettings\nspec:\n  login-help: "Help: ${env:LEAK_LOGIN} end"\n  footer: f\n',
    );
    await appliedSecret(file, { LEAK_LOGIN: secret });

    // login-help is no longer named: it goes back to its default, and its live value is the old secret
    await writeFile(file, 'kind: CustomizationSettings\nspec:\n  footer: f\n');
    const saved = join(scratch, 'plan.json');
    // commands that change nothing run side by side; `plan --out` prints the text plan as `plan` does, and saves it
    const outputs = [
      ...(await Promise.all([
        run(['plan', file, '--out', saved]),
        run(['plan', file, '--json']),
        ...['text', 'json', 'markdown', 'junit'].map((f) => run(['drift', file, '--format', f])),
      ])),
      await run(['apply', saved, '--auto-approve']),
    ];
    expect(outputs.map((o) => o.code)).toEqual([0, 0, 2, 2, 2, 2, 0]);
    for (const { stdout, stderr } of [...outputs, { stdout: await readFile(saved, 'utf8'), stderr: '' }]) {
      expect(stdout).not.toContain(secret);
      expect(stderr).not.toContain(secret);
    }
    expect(outputs[0]?.stdout).toContain('login-help: (secret)');
  });
});
