/**
 * The CLI as a process against the emulator: exit codes, file:line:col
 * errors, nothing sent on bad input (by the emulator's own count), approval
 * without a terminal, saved plans, the delete guard, and no secret in any
 * output.
 */
import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { VERSION } from '../../src/cli/version.ts';
import { type RunningEmulator, startEmulator } from '../../src/emulator/server.ts';
import { CLI, converge } from '../helpers/cli.ts';
import { NO_FINGERPRINTS } from '../helpers/cli-target.ts';
import { apply, desiredFrom } from '../helpers/engine.ts';
import { KINDS_FIXTURE, kindsFixtureSecrets } from '../helpers/kinds-fixture.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const KINDS = KINDS_FIXTURE;
const BAD = fileURLToPath(new URL('../fixtures/manifests/bad/', import.meta.url));
const SECRETS = kindsFixtureSecrets('canary-e2e');

let emulator: RunningEmulator;
let scratch: string;
let env: Record<string, string>;

beforeEach(async () => {
  emulator = await startEmulator({ port: 0 });
  scratch = await tempDir('e2e');
  env = {
    CONVERGE_PLATFORM_URL: emulator.url,
    CONVERGE_PLATFORM_TOKEN: emulator.tokens.admin,
    CONVERGE_SECRETS_URL: emulator.url,
    CONVERGE_SECRETS_TOKEN: emulator.tokens.secrets,
    ...NO_FINGERPRINTS,
    ...SECRETS,
  };
});
afterEach(() => emulator?.close());

const run = (args: string[], extra: Record<string, string> = {}) =>
  converge(args, { cwd: scratch, env: { ...env, ...extra } });

function expectNoSecret(...texts: string[]) {
  for (const text of texts) {
    for (const secret of [...Object.values(SECRETS), emulator.tokens.admin]) expect(text).not.toContain(secret);
  }
}

describe('converge as a process', () => {
  it('prints its version and help for every command', async () => {
    const version = await converge(['--version']);
    expect(version.code).toBe(0);
    expect(version.stdout.trim()).toBe(VERSION);
    for (const command of ['validate', 'plan', 'apply', 'emulator']) {
      const help = await converge([command, '--help']);
      expect(help.code).toBe(0);
      expect(help.stdout).toContain(`Usage: converge ${command}`);
    }
  });

  it('ends quietly when its reader stops early (`converge schema --all | head -c 100`)', async () => {
    // a shell pipe, as users write it: a socket pair (what spawn gives) takes the whole output
    const script = `"$0" "$1" schema --all | head -c 100 > /dev/null; echo "exit \${PIPESTATUS[0]}" >&2`;
    const shell = spawn('bash', ['--norc', '--noprofile', '-c', script, process.execPath, CLI], {
      env: { PATH: process.env.PATH, NO_COLOR: '1' },
    });
    let stderr = '';
    shell.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    await new Promise((resolve) => shell.on('close', resolve));
    expect(stderr).toBe('exit 0\n');
  });

  it('reports bad manifests as file:line:col lines, exits 1 and sends nothing', async () => {
    for (const command of ['validate', 'plan', 'apply']) {
      const result = await run([command, join(BAD, 'type-integer.yaml'), join(BAD, 'kind-unknown-suggest.yaml')]);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/type-integer\.yaml:4:9: spec\.port must be an integer/);
      expect(result.stderr).toMatch(/kind-unknown-suggest\.yaml:\d+:\d+: .*did you mean/);
      expect(result.stderr).toContain('nothing was sent to any API');
    }
    expect(emulator.stats().total).toBe(0);
  });

  it('reports a bad flag value as a usage error naming the flag, exits 1 and sends nothing', async () => {
    for (const args of [
      ['plan', KINDS, '-p', '0'],
      ['export', '--out', join(scratch, 'x'), '--parallelism', 'many'],
    ]) {
      const result = await run(args);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/error: option '-p, --parallelism <n>' argument '(0|many)' is invalid/);
      expect(result.stderr).not.toContain('hit a bug');
    }
    expect(emulator.stats().total).toBe(0);
  });

  it('plans changes with --detailed-exitcode 2, applies, and then plans 0', async () => {
    const first = await run(['plan', KINDS, '--detailed-exitcode']);
    expect(first.code).toBe(2);
    expect(first.stdout).toContain('ToolVersion/1.9.8');
    const applied = await run(['apply', KINDS, '--auto-approve']);
    expect(applied.code).toBe(0);
    expect(applied.stdout).toMatch(/Apply complete/);
    const second = await run(['plan', KINDS, '--detailed-exitcode']);
    expect(second.code).toBe(0);
    // without the flag, changes are still a success: the saved plan's test below plans changes with exit 0
    expectNoSecret(first.stdout, first.stderr, applied.stdout, applied.stderr, second.stdout);
  });

  it('refuses to apply without a terminal unless approved, and sends no change', async () => {
    const result = await run(['apply', KINDS]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('--auto-approve');
    const writes = Object.entries(emulator.stats().byRoute).filter(([route]) => !route.startsWith('GET '));
    expect(writes).toEqual([]);
  });

  it('plans changes with exit 0 without --detailed-exitcode; applies a saved plan, and refuses one whose objects changed since, listing them', async () => {
    const planFile = join(scratch, 'plan.json');
    const made = await run(['plan', KINDS, '--out', planFile]);
    // a plan with changes, without --detailed-exitcode: a success
    expect(made.stdout).toContain('ToolVersion/1.9.8');
    expect(made.code).toBe(0);
    const saved = await readFile(planFile, 'utf8');
    expectNoSecret(saved);
    expect(JSON.parse(saved).format).toBe('converge-plan');

    // someone changes a planned object before the apply
    await fetch(`${emulator.url}/api/v2/admin/general-settings`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${emulator.tokens.admin}`, 'content-type': 'application/vnd.api+json' },
      body: JSON.stringify({ data: { type: 'general-settings', attributes: { 'api-rate-limit': 99 } } }),
    });
    emulator.resetStats();
    const stale = await run(['apply', planFile]);
    expect(stale.code).toBe(1);
    expect(stale.stderr).toContain('GeneralSettings');
    expect(stale.stderr).toContain('nothing was sent');
    const writes = Object.keys(emulator.stats().byRoute).filter((route) => !route.startsWith('GET '));
    expect(writes).toEqual([]);

    const fresh = await run(['plan', KINDS, '--out', planFile]);
    expect(fresh.code).toBe(0);
    const applied = await run(['apply', planFile]);
    expect(applied.code).toBe(0);
    expect((await run(['plan', KINDS, '--detailed-exitcode'])).code).toBe(0);
    expectNoSecret(applied.stdout, applied.stderr, fresh.stdout);
  });

  it('prints JSON plans that parse, with secrets as markers only', async () => {
    const result = await run(['plan', KINDS, '--json']);
    expect(result.code).toBe(0);
    const parsed = JSON.parse(result.stdout) as { plan: { actions: Array<{ key: string }> } };
    expect(parsed.plan.actions.map((a) => a.key)).toContain('SMTPSettings');
    expectNoSecret(result.stdout, result.stderr);
  });

  it('fails only the failing action, reports the API message, and exits 1', async () => {
    const manifests = join(scratch, 'failing.yaml');
    await writeFile(
      manifests,
      [
        'kind: GeneralSettings',
        'spec: {api-rate-limit: 45}',
        '---',
        'kind: AdminUser',
        'metadata: {name: owner}',
        'ensure: absent',
      ].join('\n'),
    );
    const result = await run(['apply', manifests, '--auto-approve']);
    expect(result.code).toBe(1);
    // the owner is the sole owner of example-org: the API refuses with 422 and says why
    expect(result.stdout).toMatch(/failed\s+AdminUser\/owner/);
    expect(result.stdout).toMatch(/sole owner/i);
    expect(result.stdout).toMatch(/1 updated/);
  });

  it('refuses a plan deleting more objects than the guard allows', async () => {
    const versions = Array.from({ length: 3 }, (_, i) =>
      [
        'kind: ToolVersion',
        `metadata: {name: 2.0.${i}}`,
        'spec: {url: https://example.com/t.zip, sha: "0000000000000000000000000000000000000000000000000000000000000000"}',
      ].join('\n'),
    );
    const present = join(scratch, 'present.yaml');
    await writeFile(present, versions.join('\n---\n'));
    // the versions on the server, set up in-process: the guard's refusal is what this test runs as a process
    await apply({ url: emulator.url, token: emulator.tokens.admin }, await desiredFrom([present]));
    const absent = join(scratch, 'absent.yaml');
    await writeFile(absent, versions.map((v) => `ensure: absent\n${v}`).join('\n---\n'));
    await writeFile(join(scratch, 'converge.config.yaml'), 'guard:\n  maxDeletes: 2\n');
    emulator.resetStats();
    const refused = await run(['apply', absent, '--auto-approve']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('deletes 3 objects, more than the limit of 2');
    expect(Object.keys(emulator.stats().byRoute).filter((r) => r.startsWith('DELETE'))).toEqual([]);
    const allowed = await run(['apply', absent, '--auto-approve', '--allow-mass-delete']);
    expect(allowed.code).toBe(0);
    expect(allowed.stdout).toMatch(/3 deleted/);
  });

  it('names a configuration error at its file:line:col and exits 1 before any request', async () => {
    await writeFile(join(scratch, 'converge.config.yaml'), 'guard:\n  maxDeletes: 3\nparallelism: none\n');
    const result = await run(['plan', KINDS]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/converge\.config\.yaml:3:14: parallelism must be integer/);
    expect(emulator.stats().total).toBe(0);
  });

  it('says which variable is missing for a token, and never prints a token', async () => {
    const result = await run(['plan', KINDS], { CONVERGE_PLATFORM_TOKEN: '' });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('CONVERGE_PLATFORM_TOKEN');
    const bad = await run(['plan', KINDS], { CONVERGE_PLATFORM_TOKEN: 'canary-wrong-token-0005' });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/401|unauthorized/i);
    expect(bad.stderr + bad.stdout).not.toContain('canary-wrong-token-0005');
  });

  it.each([
    ['Ctrl-C', 'SIGINT'],
    ["a CI runner's cancel", 'SIGTERM'],
  ] as const)('stops new work on %s, lets requests in flight finish, and says what was not done', async (_, signal) => {
    emulator.setLatency(300);
    const child = spawn(process.execPath, [CLI, 'apply', KINDS, '--auto-approve', '--parallelism', '1'], {
      cwd: scratch,
      env: { PATH: process.env.PATH, NO_COLOR: '1', CI: 'true', ...env },
    });
    let stdout = '';
    let interrupted = false;
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (!interrupted && /\[1\/\d+\]/.test(stdout)) {
        interrupted = true;
        child.kill(signal);
      }
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(1);
    expect(stdout).toMatch(/Apply interrupted/);
    expect(stdout).toMatch(/skipped .*: not started/);
    const done = Number(/Apply interrupted: (\d+)/.exec(stdout)?.[1] ?? 0);
    expect(done).toBeGreaterThanOrEqual(1);
    // what was done is done: a plan afterwards shows exactly the rest
    emulator.setLatency(0);
    const after = await run(['plan', KINDS, '--json']);
    const actions = (JSON.parse(after.stdout) as { plan: { actions: Array<{ action: string }> } }).plan.actions;
    expect(actions.filter((a) => a.action !== 'noop').length).toBeGreaterThan(0);
  });

  it('ends at once on a second Ctrl-C, naming each action in flight as of unknown outcome', async () => {
    emulator.setLatency(1500);
    const child = spawn(process.execPath, [CLI, 'apply', KINDS, '--auto-approve', '--parallelism', '1'], {
      cwd: scratch,
      env: { PATH: process.env.PATH, NO_COLOR: '1', CI: 'true', ...env },
    });
    let stdout = '';
    let stderr = '';
    let interrupted = false;
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (!interrupted && /\[1\/\d+\]/.test(stdout)) {
        interrupted = true;
        // the next action's request is held 1.5 s: both signals land while it is in flight
        child.kill('SIGINT');
        setTimeout(() => child.kill('SIGINT'), 200);
      }
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    emulator.setLatency(0);
    expect(code).toBe(130);
    expect(stderr).toMatch(
      /Ended at once with 1 action\(s\) in flight, their outcome unknown:\n {2}\? \w+ \S+: it may/,
    );
    expect(stderr).toContain('Plan again to see what is live.');
  });
});
