/**
 * Runs the converge CLI as a real process on the same Node: the bundle built for this vitest run
 * (test/helpers/cli-bundle.ts), or the sources where there is none (CONVERGE_TEST_FROM_SOURCE=1,
 * a project without that global setup).
 */
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';

/** The CLI's sources, for a test that means them. */
export const MAIN = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));

/** What the tests run as `converge`. */
export const CLI = inject('convergeBundle') ?? MAIN;

/**
 * Node's compile cache from the start, in the directory src/cli/main.ts turns it on in: main.ts
 * can turn it on only for what it imports, so run from source, Node strips the types of main.ts
 * itself on every run, and loading the type stripper for that one file was about half the CPU of
 * `--version` from source (docs/performance.md, "Start-up"). With the variable, main.ts comes from
 * the cache too; the bundle's entry is JavaScript, a few hundred bytes: it gains little.
 */
const COMPILE_CACHE = join(tmpdir(), 'node-compile-cache');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  cwd?: string;
  env?: Record<string, string | undefined>;
  input?: string;
}

/** The CLI with a clean environment: no colour, not a terminal, only what the test adds. */
export function converge(args: string[], options: RunOptions = {}): Promise<CliResult> {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NO_COLOR: '1',
    CI: 'true',
    NODE_COMPILE_CACHE: COMPILE_CACHE,
  };
  for (const [k, v] of Object.entries(options.env ?? {})) if (v !== undefined) env[k] = v;
  return runNode(CLI, args, { ...options, env });
}

/** A Node script as a process on this Node, with exactly `options.env` (or this process's environment). */
export function runNode(script: string, args: string[], options: RunOptions = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}
