// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are manifest placeholders, not templates
/**
 * Ordinary mistakes and hostile input, through the CLI as a process: each is
 * one line naming what is wrong, exit 1, no stack trace, and nothing sent
 * (counted by the emulator). docs/security.md lists these promises.
 */
import { execFileSync } from 'node:child_process';
import { cp, mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type RunningEmulator, startEmulator } from '../../src/emulator/server.ts';
import { converge } from '../helpers/cli.ts';
import { tempDir } from '../helpers/temp-dir.ts';

let emulator: RunningEmulator;
let scratch: string;
let env: Record<string, string>;

const SETTINGS = 'kind: GeneralSettings\nspec: {api-rate-limit: 45}\n';

// one emulator for the file: each test counts the requests of its own runs from zero, and none
// depends on what another left live (only the FIFO test writes, a tool version no other reads)
beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  env = {
    CONVERGE_PLATFORM_URL: emulator.url,
    CONVERGE_PLATFORM_TOKEN: emulator.tokens.admin,
    CONVERGE_SECRETS_URL: emulator.url,
    CONVERGE_SECRETS_TOKEN: emulator.tokens.secrets,
  };
});
afterAll(() => emulator?.close());

beforeEach(async () => {
  scratch = await tempDir('safety');
  await mkdir(join(scratch, 'm'));
  await writeFile(join(scratch, 'm/settings.yaml'), SETTINGS);
  await writeFile(join(scratch, 'a-file'), 'not a directory');
  emulator.resetStats();
});
afterEach(() => rm(scratch, { recursive: true, force: true }));

const run = (args: string[], extra: Record<string, string> = {}) =>
  converge(args, { cwd: scratch, env: { ...env, ...extra } });

function expectRefused(result: { code: number | null; stderr: string }, message: string) {
  expect(result.code).toBe(1);
  expect(result.stderr).toContain(message);
  expect(result.stderr).not.toMatch(/hit a bug|\n\s+at .*:\d+:\d+/);
  expect(emulator.stats().total).toBe(0);
}

describe('outputs that cannot be written are refused before any request', () => {
  it.each([
    [['plan', 'm', '--out', 'a-file/plan.json'], '--out a-file/plan.json cannot be written'],
    [
      ['drift', 'm', '--output', 'a-file/drift.md', '--format', 'markdown'],
      '--output a-file/drift.md cannot be written',
    ],
    [['export', '--out', 'a-file/out', '--kind', 'ToolVersion'], '--out a-file/out cannot be written'],
    [['export', '--out', 'a-file', '--kind', 'ToolVersion'], '--out a-file cannot be written: it is not a directory'],
  ])('%j', async (args, message) => {
    expectRefused(await run(args), message);
  });

  it('a fingerprint store that cannot be written, before any secret is sent', async () => {
    const result = await run(['apply', 'm', '--auto-approve'], { CONVERGE_FINGERPRINTS: 'a-file/store.json' });
    expectRefused(result, 'the fingerprint store');
  });
});

describe('the environment and flags', () => {
  it.each([
    [{ CONVERGE_PLATFORM_URL: '127.0.0.1:8080' }, 'CONVERGE_PLATFORM_URL must be an http:// or https:// URL'],
    [{ CONVERGE_PLATFORM_TOKEN: 'abc\ndef' }, 'CONVERGE_PLATFORM_TOKEN holds a line break inside the token'],
  ])('%j is refused with one line', async (extra, message) => {
    expectRefused(await run(['plan', 'm'], extra), message);
  });

  it.each([
    ['a control character', 'Bad\x01Tok-canary-q9'],
    ['DEL', 'Bad\x7fTok-canary-q9'],
    ['a character beyond Latin-1', 'Bad\u20acTok-canary-q9'],
  ])('a token holding %s is refused with one line and its code, never shown', async (_, token) => {
    const result = await run(['plan', 'm'], { CONVERGE_PLATFORM_TOKEN: token });
    expectRefused(
      result,
      'error [CONFIG_INVALID]: cannot authenticate to the platform API: the token holds a character an HTTP header cannot carry',
    );
    expect(result.stdout + result.stderr).not.toContain('Tok-canary-q9');
  });

  it('a token with a trailing line end still works', async () => {
    const result = await run(['plan', 'm'], { CONVERGE_PLATFORM_TOKEN: `${emulator.tokens.admin}\n` });
    expect(result.code).toBe(0);
  });

  it('--parallelism above 256 is a usage error naming the flag', async () => {
    const result = await run(['plan', 'm', '--parallelism', '100000']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("option '-p, --parallelism <n>' argument '100000' is invalid");
    expect(emulator.stats().total).toBe(0);
  });
});

describe('a configuration written as code', () => {
  it('does not run for validate without opt-in, and says how to opt in', async () => {
    const marker = join(scratch, 'ran');
    await writeFile(
      join(scratch, 'converge.config.js'),
      `require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'x'); module.exports = {};`,
    );
    const refused = await run(['validate', 'm']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('a configuration written as code runs when loaded');
    expect(refused.stderr).toContain('--allow-code-config');
    const { existsSync } = await import('node:fs');
    expect(existsSync(marker)).toBe(false);
    expect((await run(['validate', 'm', '--allow-code-config'])).code).toBe(0);
    expect(existsSync(marker)).toBe(true);
  });
});

describe('interpolation cannot publish what is outside the repository', () => {
  it('refuses ${file:} outside the manifests and converge tokens in ${env:}, and sends nothing', async () => {
    await writeFile(
      join(scratch, 'm/leak.yaml'),
      [
        'kind: ToolVersion',
        'metadata: {name: 6.6.6}',
        'spec: {url: "https://x.example.com/${file:/etc/hostname}", sha: "${env:CONVERGE_PLATFORM_TOKEN}"}',
      ].join('\n'),
    );
    const result = await run(['apply', 'm', '--auto-approve']);
    expectRefused(result, 'it is outside the directories ${file:} may read');
    expect(result.stderr).toContain("holds a token of converge's own and is never interpolated");
    expect(result.stderr + result.stdout).not.toContain(emulator.tokens.admin);
  });
});

describe('a manifest directory', () => {
  it('with a dangling symbolic link is an error, and --prune deletes nothing it might declare', async () => {
    await symlink(join(scratch, 'moved-away.yaml'), join(scratch, 'm/versions.yaml'));
    const result = await run(['plan', 'm', '--prune']);
    expectRefused(result, 'm/versions.yaml:1:1: a symbolic link to nothing');
  });

  it('reads .YML files like .yml ones', async () => {
    await writeFile(join(scratch, 'm/more.YML'), 'kind: ToolVersion\nmetadata: {name: 1}\nspec: {}\n');
    const result = await run(['validate', 'm']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('m/more.YML:2:');
  });
});

describe('a FIFO among the manifests', () => {
  const V402_URL = 'https://releases.example.com/tool/4.0.2/tool.zip';
  const V402_SHA = 'ab'.repeat(32);

  it('is an error, and --prune deletes nothing of what it would have declared', async () => {
    await writeFile(join(scratch, 'converge.config.yaml'), 'ownership:\n  - kind: ToolVersion\n');
    // what the refused run would have pruned: the tool version live, written through the API (a
    // tool version has no write-only field, so an apply would have left nothing more; the
    // refusal is what runs as a process, and the engine is not loaded into this file for one object)
    const created = await fetch(`${emulator.url}/api/v2/admin/tool-versions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${emulator.tokens.admin}`, 'content-type': 'application/vnd.api+json' },
      body: JSON.stringify({
        data: { type: 'tool-versions', attributes: { version: '4.0.2', url: V402_URL, sha: V402_SHA } },
      }),
    });
    expect(created.status, await created.text()).toBe(201);
    execFileSync('mkfifo', [join(scratch, 'm/v402.yaml')]);
    emulator.resetStats();
    const result = await run(['apply', 'm', '--prune', '--auto-approve']);
    expectRefused(
      result,
      'm/v402.yaml:1:1: is not a regular file (a device, FIFO or socket): a manifest must be a file',
    );
    const tools = await fetch(`${emulator.url}/api/v2/admin/tool-versions`, {
      headers: { authorization: `Bearer ${emulator.tokens.admin}` },
    });
    const names = ((await tools.json()).data as Array<{ attributes: { version: string } }>).map(
      (t) => t.attributes.version,
    );
    expect(names).toContain('4.0.2');
  });

  it('given to validate by name, answers at once instead of waiting for a writer', async () => {
    execFileSync('mkfifo', [join(scratch, 'm/v402.yaml')]);
    expectRefused(await run(['validate', 'm/v402.yaml']), 'm/v402.yaml:1:1: is not a regular file');
  }, 15_000);
});

describe('module sources stay in the repository', () => {
  const CANARY = 'canary-tfstate-outside-the-repository-7719';
  const NETWORK = fileURLToPath(new URL('../../examples/modules/network/', import.meta.url));

  it('a version whose source is elsewhere on the runner is refused at its place, and nothing of it is sent', async () => {
    const elsewhere = join(scratch, 'elsewhere/infra-live');
    await cp(NETWORK, elsewhere, { recursive: true });
    await writeFile(join(elsewhere, 'terraform.tfstate'), `{"secret": "${CANARY}"}`);
    await mkdir(join(scratch, 'repo/m'), { recursive: true });
    await writeFile(
      join(scratch, 'repo/m/modules.yaml'),
      [
        'kind: RegistryModule',
        'metadata: {organization: example-org, name: network, provider: aws}',
        'spec:',
        '  versions: [{version: 1.0.0, source: ../../elsewhere/infra-live}]',
        '',
      ].join('\n'),
    );
    const result = await converge(['apply', 'm', '--auto-approve'], { cwd: join(scratch, 'repo'), env });
    expectRefused(result, 'm/modules.yaml:4:39: ../../elsewhere/infra-live is outside the repository');
    expect(result.stdout + result.stderr).not.toContain(CANARY);
  });

  it('a link inside a module to a file outside it is refused at validate, not followed', async () => {
    await cp(NETWORK, join(scratch, 'm/network'), { recursive: true });
    await writeFile(join(scratch, 'state.json'), CANARY);
    await symlink(join(scratch, 'state.json'), join(scratch, 'm/network/state.json'));
    await writeFile(
      join(scratch, 'm/modules.yaml'),
      'kind: RegistryModule\nmetadata: {organization: example-org, name: network, provider: aws}\nspec:\n  versions: [{version: 1.0.0, source: network}]\n',
    );
    const result = await run(['plan', 'm']);
    expectRefused(result, 'm/modules.yaml:4:39: network/state.json is a symbolic link; converge does not pack links');
    expect(result.stdout + result.stderr).not.toContain(CANARY);
  });

  it('a FIFO as .terraformignore is refused at validate instead of hanging plan', async () => {
    await cp(NETWORK, join(scratch, 'm/network'), { recursive: true });
    execFileSync('mkfifo', [join(scratch, 'm/network/.terraformignore')]);
    await writeFile(
      join(scratch, 'm/modules.yaml'),
      'kind: RegistryModule\nmetadata: {organization: example-org, name: network, provider: aws}\nspec:\n  versions: [{version: 1.0.0, source: network}]\n',
    );
    expectRefused(await run(['plan', 'm']), 'm/modules.yaml:4:39: network/.terraformignore: is not a regular file');
  }, 15_000);
});
