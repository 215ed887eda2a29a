import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterEach, describe, expect, it } from 'vitest';
import { registerEmulator } from '../../src/cli/commands/emulator.ts';
import { CLI, converge } from '../helpers/cli.ts';

const ROOT = join(import.meta.dirname, '../..');

interface Started {
  child: ChildProcessWithoutNullStreams;
  line: { url: string; tokens: Record<string, string> };
  stdout: () => string;
  stderr: () => string;
  exit: Promise<number | null>;
}

const children: ChildProcessWithoutNullStreams[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

/**
 * Starts `converge emulator ARGS` and resolves once its start-up line is out: the CLI the other
 * tests run (test/helpers/cli.ts, the bundle users run), which starts on about a third of the CPU
 * of the sources (docs/performance.md, "Test suite").
 */
function startCli(args: string[]): Promise<Started> {
  const child = spawn(process.execPath, [CLI, 'emulator', ...args], { env: { ...process.env, NO_COLOR: '1' } });
  children.push(child);
  let stdout = '';
  let stderr = '';
  const exit = new Promise<number | null>((resolve) => child.on('close', resolve));
  return new Promise((resolve, reject) => {
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      const end = stdout.indexOf('\n');
      if (end >= 0)
        resolve({ child, line: JSON.parse(stdout.slice(0, end)), stdout: () => stdout, stderr: () => stderr, exit });
    });
    void exit.then((code) => reject(new Error(`exited ${code} before listening: ${stderr}`)));
  });
}

describe('converge emulator (as a process)', () => {
  it('prints exactly one JSON line with the URL and tokens, serves the API, and exits 0 on SIGTERM', async () => {
    const started = await startCli(['--port', '0']);
    const { url, tokens } = started.line;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(url).not.toMatch(/:8080$/);
    expect(Object.keys(tokens).sort()).toEqual(['admin', 'member', 'owner', 'secrets']);
    const response = await fetch(`${url}/api/v2/admin/users`, { headers: { authorization: `Bearer ${tokens.admin}` } });
    expect(response.status).toBe(200);
    started.child.kill('SIGTERM');
    expect(await started.exit).toBe(0);
    expect(started.stdout().trim().split('\n')).toHaveLength(1);
    expect(started.stderr()).toContain('SIGTERM');
  });

  it('stops on SIGINT too, and keeps tokens in --state across restarts', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'converge-emulator-cli-'));
    try {
      const state = join(dir, 'state.json');
      const first = await startCli(['--port', '0', '--state', state]);
      // signalled the moment the line is read: the handlers must already be armed
      first.child.kill('SIGINT');
      expect(await first.exit).toBe(0);
      expect(first.stderr()).toContain('SIGINT: stopping');
      const second = await startCli(['--port', '0', '--state', state]);
      expect(second.line.tokens).toEqual(first.line.tokens);
      second.child.kill('SIGTERM');
      expect(await second.exit).toBe(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('takes --seed, --latency, --fault-rate/--fault-kinds and --no-rate-limit', async () => {
    const seed = join(import.meta.dirname, '../fixtures/emulator/seed.yaml');
    const started = await startCli([
      '--port',
      '0',
      '--seed',
      seed,
      '--latency',
      '5',
      '--fault-rate',
      '1',
      '--fault-kinds',
      '503',
      '--no-rate-limit',
    ]);
    const { url } = started.line;
    const faults = await (await fetch(`${url}/_emulator/faults`)).json();
    expect(faults).toEqual({ rate: 1, kinds: ['503'], latencyMs: 5 });
    const answer = await fetch(`${url}/api/v2/admin/users`, { headers: { authorization: 'Bearer alice-fixed-token' } });
    expect(answer.status).toBe(503);
    expect(answer.headers.get('x-ratelimit-limit')).toBeNull();
    started.child.kill('SIGTERM');
    expect(await started.exit).toBe(0);
  });

  it('says which port is taken when it cannot listen', async () => {
    // any listener takes the port: an emulator process here would only prove again the first test's start and stop
    const taken = await listening();
    try {
      const port = String((taken.address() as { port: number }).port);
      const result = await converge(['emulator', '--port', port]);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(new RegExp(`cannot listen on 127\\.0\\.0\\.1:${port}`));
      expect(result.stderr).toContain('hint: pick another --port');
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
    // a host that is no address and resolves to none: the same handled error, not a bug
    const unknown = await converge(['emulator', '--host', '999.1.1.1', '--port', '0']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^error \[INPUT_INVALID\]: cannot listen on 999\.1\.1\.1:0: /);
    expect(unknown.stderr).not.toContain('bug');
  });

  // Each bad input as a process: that it exits 1 with nothing on stdout and the message on stderr.
  // One flag error and the seed's (an error of another kind, from loading the file) prove that;
  // the other flags' messages are the same path, proven below without a process each.
  it.each([
    [['--port', 'eighty'], /--port: expected a port from 0 to 65535, got "eighty"/],
    [['--seed', 'test/fixtures/emulator/bad-seed.yaml'], /invalid seed .*bad-seed\.yaml/],
  ])('rejects bad flags %j with exit 1 and a message', async (args, message) => {
    const result = await converge(['emulator', '--port', '0', ...args], { cwd: ROOT });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(message);
  });

  it.each([
    [['--port', '70000'], /--port: expected a port/],
    [['--fault-rate', '1.5'], /--fault-rate: expected a number from 0 to 1/],
    [['--fault-rate', '0.1', '--fault-kinds', '500,teapot'], /--fault-kinds: unknown kind\(s\) teapot/],
    [['--latency', '-3'], /--latency: expected milliseconds >= 0/],
  ])(
    'rejects bad flags %j with a usage error (the command as the CLI defines it, in this process)',
    async (args, message) => {
      const program = new Command('converge').exitOverride();
      registerEmulator(program);
      const parsed = program.parseAsync(['emulator', '--port', '0', ...args], { from: 'user' });
      await expect(parsed).rejects.toMatchObject({ code: 'INPUT_INVALID', message: expect.stringMatching(message) });
    },
  );
});

/** A server on a free loopback port, holding it. */
function listening(): Promise<Server> {
  const server = createServer();
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}
