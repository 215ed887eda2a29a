/**
 * The emulator in its own process (`converge emulator --port 0`), so that
 * its CPU does not compete with the client being measured on the same
 * event loop, and helpers for its control endpoints.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { createHttpClient } from '../../src/api/client.ts';
import type { HttpClient } from '../../src/api/types.ts';
import type { EmulatorStats, SeedData } from '../../src/emulator/server.ts';
import { MAIN } from './paths.ts';

export interface EmulatorProcess {
  url: string;
  /** The site administrator's token. */
  token: string;
  tokens: { admin: string; owner: string; member: string; secrets: string };
  stats(): Promise<EmulatorStats>;
  resetStats(): Promise<void>;
  setLatency(ms: number): Promise<void>;
  /** The platform's `api-rate-limit` (requests per second per token). */
  setRateLimit(perSecond: number): Promise<void>;
  /** CPU time the emulator process has used (ms), where the OS tells (Linux); undefined in-process or elsewhere. */
  cpuMs(): number | undefined;
  stop(): Promise<void>;
}

export interface EmulatorLaunch {
  latencyMs?: number;
  /** Written to a file in `dir` and passed as `--seed`. */
  seed?: SeedData;
  /** Enforce the `api-rate-limit` setting (default true, as the real platform). */
  rateLimit?: boolean;
  /**
   * Raise `api-rate-limit` to this before handing the emulator over. The
   * client paces itself at the advertised limit, so figures about speed need
   * a high one; the rate-limit suite keeps the platform default of 30.
   */
  raiseLimitTo?: number;
  /**
   * Live objects the seed cannot hold (the secrets API's, the registry's),
   * written through the API before the emulator is handed over: with no
   * latency (it is set afterwards) and after `raiseLimitTo`, and left out of
   * the stats.
   */
  populate?: (clients: PopulateClients) => Promise<void>;
  /** Where the seed file goes. */
  dir: string;
  /**
   * Run it in this process (faster to start): for figures that count
   * requests rather than time them.
   */
  inProcess?: boolean;
}

const started = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of started) child.kill('SIGKILL');
});

/** A high `api-rate-limit`: headers still flow (the client learns from them) but never limit. */
export const UNLIMITED = 1_000_000;

export async function launchEmulator(options: EmulatorLaunch): Promise<EmulatorProcess> {
  // populating goes without latency: it is set once the objects are in
  const start = options.populate ? { ...options, latencyMs: 0 } : options;
  const started = options.inProcess ? await inProcess(start) : await child(start);
  return controlled(started, options);
}

/** The clients `populate` writes with: the secrets API's, and the platform's as the site administrator. */
export interface PopulateClients {
  secrets: HttpClient;
  platform: HttpClient;
}

/** Requests in flight while populating: many, over keep-alive connections. */
const POPULATE_CONCURRENCY = 64;

async function populate(
  url: string,
  tokens: Started['tokens'],
  fill: (clients: PopulateClients) => Promise<void>,
): Promise<void> {
  const concurrency = { initial: POPULATE_CONCURRENCY, max: POPULATE_CONCURRENCY };
  const clients: PopulateClients = {
    secrets: createHttpClient({ baseUrl: url, auth: { api: 'secrets', token: tokens.secrets }, concurrency }),
    platform: createHttpClient({ baseUrl: url, auth: { api: 'platform', token: tokens.admin }, concurrency }),
  };
  try {
    await fill(clients);
  } finally {
    await Promise.all([clients.secrets.close(), clients.platform.close()]);
  }
}

interface Started {
  url: string;
  tokens: EmulatorProcess['tokens'];
  pid?: number;
  stop(): Promise<void>;
}

/** Clock ticks per second of /proc/<pid>/stat on Linux (USER_HZ, 100 on every common build). */
const USER_HZ = 100;

function processCpuMs(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / USER_HZ;
  } catch {
    return undefined;
  }
}

async function inProcess(options: EmulatorLaunch): Promise<Started> {
  const { startEmulator } = await import('../../src/emulator/server.ts');
  const emulator = await startEmulator({
    port: 0,
    ...(options.latencyMs !== undefined && { latencyMs: options.latencyMs }),
    ...(options.seed !== undefined && { seed: options.seed }),
    rateLimit: options.rateLimit !== false,
  });
  return { url: emulator.url, tokens: emulator.tokens, stop: () => emulator.close() };
}

async function child(options: EmulatorLaunch): Promise<Started> {
  const args = [MAIN, 'emulator', '--port', '0'];
  if (options.latencyMs) args.push('--latency', String(options.latencyMs));
  if (options.rateLimit === false) args.push('--no-rate-limit');
  if (options.seed) {
    const file = join(options.dir, `seed-${process.pid}-${Date.now()}.json`);
    await writeFile(file, JSON.stringify(options.seed));
    args.push('--seed', file);
  }
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env } });
  started.add(child);
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const line = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`emulator exited (${code}) before listening:\n${stderr}`)));
    child.once('error', reject);
  });
  const { url, tokens } = JSON.parse(line) as { url: string; tokens: EmulatorProcess['tokens'] };
  const stop = async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    await exited;
    started.delete(child);
  };
  return { url, tokens, stop, ...(child.pid !== undefined && { pid: child.pid }) };
}

async function controlled(started: Started, options: EmulatorLaunch): Promise<EmulatorProcess> {
  const { url, tokens, stop, pid } = started;
  const token = tokens.admin;
  const control = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body !== undefined && { 'content-type': 'application/vnd.api+json' }),
      },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
    return text === '' ? undefined : (JSON.parse(text) as unknown);
  };
  const emulator: EmulatorProcess = {
    url,
    token,
    tokens,
    stats: async () => (await control('GET', '/_emulator/stats')) as EmulatorStats,
    resetStats: async () => {
      await control('DELETE', '/_emulator/stats');
    },
    setLatency: async (ms) => {
      await control('PUT', '/_emulator/faults', { rate: 0, latencyMs: ms });
    },
    setRateLimit: async (perSecond) => {
      await control('PATCH', '/api/v2/admin/general-settings', {
        data: { type: 'general-settings', attributes: { 'api-rate-limit': perSecond } },
      });
    },
    cpuMs: () => processCpuMs(pid),
    stop,
  };
  if (options.raiseLimitTo !== undefined) {
    // the latency applies to this request too (unless populating: it is set below)
    await emulator.setRateLimit(options.raiseLimitTo);
    await emulator.resetStats();
  }
  if (options.populate) {
    await populate(url, tokens, options.populate);
    if (options.latencyMs) await emulator.setLatency(options.latencyMs);
    await emulator.resetStats();
  }
  return emulator;
}

/** Runs `body` with an emulator and always stops it. */
export async function withEmulator<T>(options: EmulatorLaunch, body: (e: EmulatorProcess) => Promise<T>): Promise<T> {
  const emulator = await launchEmulator(options);
  try {
    return await body(emulator);
  } finally {
    await emulator.stop();
  }
}
