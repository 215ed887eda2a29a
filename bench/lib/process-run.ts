/**
 * A whole process, timed from spawn to exit, with its peak RSS: from
 * /usr/bin/time when there is one, else from the process itself
 * (bench/lib/max-rss.ts, preloaded). What a user waits for, start-up and
 * exit included.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

const TIME = '/usr/bin/time';

export interface ProcessRun {
  /** Spawn to exit. */
  ms: number;
  /** Peak resident set size, KiB. */
  peakKib: number;
  /** User + system CPU time of the process, ms (from /usr/bin/time; null without it). */
  cpuMs: number | null;
  via: '/usr/bin/time' | 'process.resourceUsage';
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface ProcessLaunch {
  /** The script node runs, and its arguments. */
  script: string;
  args: readonly string[];
  env: Record<string, string | undefined>;
  cwd: string;
  /** Flags for node itself (`--cpu-prof`). */
  nodeFlags?: readonly string[];
  /** Keep stdout (a plan of 10,000 objects prints a lot: by default it is read and dropped). */
  keepStdout?: boolean;
}

/** The environment a run of `converge` gets: plain output, as in CI, and nothing else from ours. */
export function cliEnv(extra: Record<string, string>): Record<string, string | undefined> {
  return { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', CI: 'true', ...extra };
}

export async function runProcess(launch: ProcessLaunch): Promise<ProcessRun> {
  const useTime = existsSync(TIME);
  const rssFile = join(launch.cwd, `max-rss-${process.pid}-${Date.now()}.txt`);
  const node = [...(launch.nodeFlags ?? []), launch.script, ...launch.args];
  const command = useTime
    ? { file: TIME, args: ['-f', 'MAXRSS %M CPU %U %S', process.execPath, ...node] }
    : {
        file: process.execPath,
        args: ['--import', new URL('./max-rss.ts', import.meta.url).href, ...node],
      };
  const started = performance.now();
  const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>(
    (resolve, reject) => {
      const child = spawn(command.file, command.args, {
        cwd: launch.cwd,
        env: { ...launch.env, ...(!useTime && { BENCH_MAX_RSS_FILE: rssFile }) },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      let err = '';
      child.stdout.on('data', (chunk: Buffer) => {
        if (launch.keepStdout) out += chunk.toString();
      });
      child.stderr.on('data', (chunk: Buffer) => {
        err = (err + chunk.toString()).slice(-8000);
      });
      child.on('error', reject);
      child.on('close', (exit) => resolve({ code: exit, stdout: out, stderr: err }));
    },
  );
  const ms = performance.now() - started;
  if (useTime) {
    const match = /MAXRSS (\d+) CPU ([\d.]+) ([\d.]+)/.exec(stderr);
    if (!match) throw new Error(`no peak RSS in /usr/bin/time output (exit ${code}): ${stderr}`);
    const cpuMs = Math.round((Number(match[2]) + Number(match[3])) * 1000);
    return { ms, peakKib: Number(match[1]), cpuMs, via: TIME, code, stdout, stderr: stderr.replace(match[0], '') };
  }
  const peakKib = Number(await readFile(rssFile, 'utf8').catch(() => Number.NaN));
  return { ms, peakKib, cpuMs: null, via: 'process.resourceUsage', code, stdout, stderr };
}
