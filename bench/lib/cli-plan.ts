/**
 * `converge plan` as a user runs it: a whole process of the CLI (from the
 * build, or from source), against an emulator in a process of its own,
 * timed from spawn to exit with its peak RSS; and, against the same
 * emulator in the same run, the raw undici loop (bench/raw-loop.ts) over
 * the same requests, so that the two are compared on one machine state.
 */
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PAGE_SIZE } from '../../src/api/jsonapi.ts';
import type { ApiName } from '../../src/api/profiles.ts';
import { PROFILES } from '../../src/api/profiles.ts';
import { withQuery } from '../../src/api/wire.ts';
import { secretsPath } from '../../src/providers/shared/secrets-api.ts';
import { type BenchKind, KINDS, scaleKind } from '../kinds.ts';
import type { RawLoopSpec } from '../raw-loop.ts';
import { type EmulatorLaunch, type EmulatorProcess, type PopulateClients, UNLIMITED } from './emulator.ts';
import { BUILT_MAIN, MAIN, ROOT } from './paths.ts';
import { cliEnv, type ProcessRun, runProcess } from './process-run.ts';
import { round } from './report.ts';

/** Matches the plain reporter's line (src/ui/plain-reporter.ts): the read phase, as the process saw it. */
const READ_LINE = /Read (\d+) live object\(s\) in (\d+) ms/;

export interface CliPlan {
  /** Spawn to exit. */
  wallMs: number;
  /** The plan's own figure for reading live state (first read to last answer), from its output. */
  readMs: number | null;
  peakRssMB: number;
  /** CPU time of the process (user + system), where /usr/bin/time tells. */
  cpuMs: number | null;
  via: ProcessRun['via'];
  /** Answered by the emulator during the run. */
  requests: number;
  rateLimited: number;
}

/** The environment that points `converge` at the emulator: both APIs, fingerprints off (no state file). */
export function emulatorEnv(emulator: EmulatorProcess): Record<string, string | undefined> {
  return cliEnv({
    CONVERGE_PLATFORM_URL: emulator.url,
    CONVERGE_PLATFORM_TOKEN: emulator.token,
    CONVERGE_SECRETS_URL: emulator.url,
    CONVERGE_SECRETS_TOKEN: emulator.tokens.secrets,
    CONVERGE_FINGERPRINTS: 'off',
  });
}

/** One `converge plan <manifests> [flags]` process; `nodeFlags` for node itself (`--cpu-prof`). */
export async function cliPlan(
  emulator: EmulatorProcess,
  main: string,
  manifests: string,
  cwd: string,
  nodeFlags: readonly string[] = [],
  flags: readonly string[] = [],
): Promise<CliPlan> {
  await emulator.resetStats();
  const run = await runProcess({
    script: main,
    args: ['plan', manifests, ...flags],
    env: emulatorEnv(emulator),
    cwd,
    nodeFlags,
  });
  if (run.code !== 0) throw new Error(`converge plan exited ${run.code}: ${run.stderr}`);
  const stats = await emulator.stats();
  const read = READ_LINE.exec(run.stderr);
  return {
    wallMs: round(run.ms),
    readMs: read ? Number(read[2]) : null,
    peakRssMB: round(run.peakKib / 1024),
    cpuMs: run.cpuMs,
    via: run.via,
    requests: stats.total,
    rateLimited: stats.rateLimited,
  };
}

/** The requests of a plan, as the raw loop sends them. */
export type RawRequests = Pick<RawLoopSpec, 'first' | 'rest'> & { api: ApiName };

/** A list-then-read plan of SSH roles: the LIST of the mount's roles, then one GET per role. */
export function sshRoleRequests(mount: string, names: readonly string[]): RawRequests {
  return {
    api: 'secrets',
    first: [withQuery(secretsPath(mount, 'roles'), { list: 'true' })],
    rest: names.map((name) => secretsPath(mount, 'roles', name)),
  };
}

/**
 * A plan of a hierarchical collection (the LDAP kinds): the LIST of the top
 * level, then the LIST of each folder that holds a live object and one GET
 * per live object. The raw loop sends the folders' LISTs with the GETs, a
 * little sooner than a plan can (it reads the GETs' names from them).
 */
export function levelRequests(mount: string, collection: string, live: readonly string[]): RawRequests {
  const folders = [...new Set(live.map((name) => name.slice(0, name.lastIndexOf('/') + 1)).filter(Boolean))];
  const list = (folder: string) => withQuery(secretsPath(mount, collection, folder), { list: 'true' });
  return {
    api: 'secrets',
    first: [withQuery(secretsPath(mount, collection), { list: 'true' })],
    rest: [...folders.map(list), ...live.map((name) => secretsPath(mount, collection, name))],
  };
}

/** A list-pages plan: the first page of a collection, then the rest of its `live` objects' pages. */
export function pageRequests(path: string, live: number): RawRequests {
  const pages = Math.max(1, Math.ceil(live / PAGE_SIZE));
  const page = (n: number) => withQuery(path, { 'page[number]': n, 'page[size]': PAGE_SIZE });
  return { api: 'platform', first: [page(1)], rest: Array.from({ length: pages - 1 }, (_, i) => page(i + 2)) };
}

export interface RawLoopRun {
  wallMs: number;
  /** Inside the process: the first request to the last answer. */
  loopMs: number;
  requests: number;
  peakRssMB: number;
  cpuMs: number | null;
}

/** The raw undici loop over `requests`, `concurrency` in flight, as a process of its own. */
export async function rawLoop(
  emulator: EmulatorProcess,
  requests: RawRequests,
  concurrency: number,
  cwd: string,
): Promise<RawLoopRun> {
  const profile = PROFILES[requests.api];
  const token = requests.api === 'secrets' ? emulator.tokens.secrets : emulator.token;
  const spec: RawLoopSpec = {
    origin: emulator.url,
    headers: {
      [profile.tokenHeader]: `${profile.tokenScheme}${token}`,
      accept: profile.contentType(requests.first[0] ?? ''),
    },
    first: requests.first,
    rest: requests.rest,
    concurrency,
  };
  const file = join(cwd, `raw-loop-${process.pid}-${Date.now()}.json`);
  await writeFile(file, JSON.stringify(spec));
  await emulator.resetStats();
  const run = await runProcess({
    script: join(ROOT, 'bench/raw-loop.ts'),
    args: [file],
    env: cliEnv({}),
    cwd,
    keepStdout: true,
  });
  if (run.code !== 0) throw new Error(`raw loop exited ${run.code}: ${run.stderr}`);
  const stats = await emulator.stats();
  const out = JSON.parse(run.stdout) as { requests: number; ms: number };
  return {
    wallMs: round(run.ms),
    loopMs: round(out.ms),
    requests: stats.total,
    peakRssMB: round(run.peakKib / 1024),
    cpuMs: run.cpuMs,
  };
}

/** A read path the scale and memory suites plan: a kind, and the requests its plan makes for N objects. */
export interface ReadPath {
  kind: BenchKind;
  requests(n: number): RawRequests;
}

/**
 * The two read paths: list-then-read (SSH roles, every one live: the LIST,
 * then a GET each) and list pages (tool versions, half of them live).
 */
export function readPaths(): ReadPath[] {
  const roles = scaleKind();
  const versions = KINDS.find((k) => k.name === 'ToolVersion');
  return [
    {
      kind: roles,
      requests: (n) =>
        sshRoleRequests(
          'ssh',
          roles.documents(n).map((d) => d.metadata?.name ?? ''),
        ),
    },
    ...(versions
      ? [{ kind: versions, requests: (n: number) => pageRequests('/api/v2/admin/tool-versions', Math.floor(n / 2)) }]
      : []),
  ];
}

/**
 * The CLIs to run: the build first (what users install, the headline), and
 * from source in a full run; from source alone where there is no build.
 */
export function cliMains(quick: boolean): Array<{ from: 'build' | 'source'; main: string }> {
  if (!existsSync(BUILT_MAIN)) return [{ from: 'source', main: MAIN }];
  return [{ from: 'build', main: BUILT_MAIN }, ...(quick ? [] : [{ from: 'source' as const, main: MAIN }])];
}

/**
 * The third read shape, a LIST per level: LDAP static roles, half of them
 * live in four folders (bench/kinds.ts). The memory suite plans it; the
 * scale suite does not (its figure is the SSH roles' one GET each).
 */
export function levelReadPath(): ReadPath {
  const kind = KINDS.find((k) => k.name === 'LDAPStaticRole');
  if (kind === undefined) throw new Error('bench/kinds.ts has no LDAPStaticRole');
  return {
    kind,
    requests: (n) =>
      // the live half is objects 0 to n/2 - 1, named as in a set of that size
      levelRequests(
        'ldap',
        'static-role',
        kind.documents(Math.floor(n / 2)).map((d) => d.metadata?.name ?? ''),
      ),
  };
}

/**
 * An emulator holding N live objects of a kind (seeded, or written through the API), its limit
 * out of the way; in this process for a smoke run (`inProcess`), in its own otherwise.
 */
export function emulatorFor(kind: BenchKind, n: number, dir: string, latencyMs = 0, inProcess = false): EmulatorLaunch {
  return {
    dir,
    seed: kind.seed(n),
    latencyMs,
    raiseLimitTo: UNLIMITED,
    inProcess,
    ...(kind.populate && { populate: (clients: PopulateClients) => kind.populate!(clients, n) }),
  };
}
