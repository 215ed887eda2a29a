/**
 * Apply at scale, as a user runs it: `converge apply DIR --auto-approve
 * --no-progress` as a whole process (start-up, manifests, the plan's read,
 * then N creates), against an emulator in its own process with 20 ms of
 * injected latency and a fresh state per run. N tool versions, none live:
 * the plan reads one empty list page, the apply sends N POSTs.
 *
 * The wall clock (spawn to exit) of plain runs is the figure; runs with
 * `--json` tell where it went, from the events' own timestamps: the plan
 * (spawn to `plan-ready`, start-up included) and the apply phase
 * (`apply-done`'s elapsed time). The bound is the window's ceiling: N
 * requests at 20 ms through at most 64 at once; the floor this emulator
 * allows, the same N POSTs over undici alone with 64 in flight (timed in
 * this process: no start-up, no window, no engine), beside it.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Pool } from 'undici';
import { DEFAULT_MAX_PARALLELISM } from '../../src/config/load.ts';
import { type Doc, KINDS } from '../kinds.ts';
import { cliMains } from '../lib/cli-plan.ts';
import { UNLIMITED, withEmulator } from '../lib/emulator.ts';
import { writeManifests } from '../lib/manifests.ts';
import { BUILT_MAIN, MAIN, tempDir } from '../lib/paths.ts';
import { cliEnv, runProcess } from '../lib/process-run.ts';
import { atMost, bySize, type Checked, mark, median, ratio, round, type SuiteOptions } from '../lib/report.ts';

export interface ApplyRun {
  from: 'source' | 'build';
  objects: number;
  latencyMs: number;
  /** Answered by the emulator in one run: the plan's read and the creates. */
  requests: number;
  /** Median of the plain runs, spawn to exit. */
  wallMs: number;
  wallRunsMs: number[];
  /** Median of the JSON runs: spawn to `plan-ready` (start-up, manifests, the read, the plan). */
  planMs: number;
  /** Median of the JSON runs: the executor's own elapsed time. */
  applyMs: number;
  /** Emulator CPU over one plain run (ms), where the OS tells. */
  emulatorCpuMs: number | undefined;
  /** Median of the same POSTs over undici alone, 64 in flight, against the same emulator: the apply phase's floor here. */
  rawLoopMs: number;
  applyVsRawLoop: number;
  /** N x latency / 64: the requests alone through the widest window. */
  ceilingMs: number;
  wallVsCeiling: number;
  applyVsCeiling: number;
  check: Checked;
  applyCheck: Checked;
}

/** The same apply against a server that advertises no limit and never answers 429 (rate limiting off). */
export type SilentApplyRun = Pick<
  ApplyRun,
  'from' | 'objects' | 'wallMs' | 'wallRunsMs' | 'ceilingMs' | 'wallVsCeiling' | 'check'
>;

export interface ApplyResult {
  runs: ApplyRun[];
  silent?: SilentApplyRun;
}

const LATENCY_MS = 20;
/** Target: the whole process within this many times the window's ceiling. */
const TARGET_VS_CEILING = 1.5;
/** Target against a server that says nothing of its limit: the client's slow start from 30/s costs its ramp. */
const TARGET_SILENT_VS_CEILING = 3;

export async function applyAtScale(options: SuiteOptions): Promise<ApplyResult> {
  const objects = bySize(options, 2000, 300, 20);
  const repeats = options.quick ? 1 : 3;
  const inProcess = options.smoke;
  const dir = await tempDir('apply');
  const kind = KINDS.find((k) => k.name === 'ToolVersion');
  if (!kind) throw new Error('no ToolVersion bench kind');
  // the second half of 2N documents is the half that does not exist: N creates over an empty seed
  const manifests = await writeManifests(join(dir, 'manifests'), kind.documents(2 * objects).slice(objects));
  const ceilingMs = (objects * LATENCY_MS) / DEFAULT_MAX_PARALLELISM;
  // a smoke run: one CLI (the build where there is one), and the emulator in this process
  const entries: Array<{ from: ApplyRun['from']; main: string }> = options.smoke
    ? cliMains(true)
    : [{ from: 'source', main: MAIN }];
  if (!options.smoke && existsSync(BUILT_MAIN)) entries.push({ from: 'build', main: BUILT_MAIN });
  const docs = kind.documents(2 * objects).slice(objects);
  const raw: number[] = [];
  for (let i = 0; i < repeats; i++) raw.push(await rawLoop(dir, docs, inProcess));
  const rawLoopMs = round(median(raw));
  options.log(
    `apply: the same ${objects} POSTs over undici alone, ${DEFAULT_MAX_PARALLELISM} in flight: ${raw.map(round).join(', ')} ms`,
  );
  const runs: ApplyRun[] = [];
  for (const { from, main } of entries) {
    const plain: Array<{ ms: number; requests: number; cpuMs: number | undefined }> = [];
    const json: Array<{ planMs: number; applyMs: number }> = [];
    for (let i = 0; i < repeats; i++) {
      plain.push(await once(dir, main, manifests, objects, { json: false, inProcess }));
      const timed = await once(dir, main, manifests, objects, { json: true, inProcess });
      json.push({ planMs: timed.planMs, applyMs: timed.applyMs });
    }
    const wallMs = round(median(plain.map((r) => r.ms)));
    const applyMs = round(median(json.map((r) => r.applyMs)));
    const run: ApplyRun = {
      from,
      objects,
      latencyMs: LATENCY_MS,
      requests: plain[0]?.requests ?? 0,
      wallMs,
      wallRunsMs: plain.map((r) => round(r.ms)),
      planMs: round(median(json.map((r) => r.planMs))),
      applyMs,
      emulatorCpuMs: plain[0]?.cpuMs,
      rawLoopMs,
      applyVsRawLoop: ratio(applyMs, rawLoopMs),
      ceilingMs: round(ceilingMs),
      wallVsCeiling: ratio(wallMs, ceilingMs),
      applyVsCeiling: ratio(applyMs, ceilingMs),
      check: atMost(wallMs, round(TARGET_VS_CEILING * ceilingMs), ' ms'),
      applyCheck: atMost(applyMs, round(TARGET_VS_CEILING * ceilingMs), ' ms'),
    };
    runs.push(run);
    options.log(
      `apply ${objects} creates at ${LATENCY_MS} ms from ${from}: wall ${wallMs} ms (${run.wallRunsMs.join(', ')}; ` +
        `${run.wallVsCeiling} x the ceiling of ${run.ceilingMs} ms: ${mark(run.check)} ${run.check.target}), ` +
        `plan ${run.planMs} ms, apply phase ${applyMs} ms (${run.applyVsCeiling} x; ${run.applyVsRawLoop} x the raw ` +
        `loop's ${rawLoopMs} ms), ${run.requests} requests`,
    );
  }
  // a smoke run proves the harness's apply; the silent server's is the same process
  const last = options.smoke ? undefined : entries[entries.length - 1];
  const silent = last ? await silentApply(dir, last, manifests, objects, repeats, ceilingMs, options) : undefined;
  return { runs, ...(silent && { silent }) };
}

/** Whole processes against an emulator with rate limiting off: no limit advertised, never a 429. */
async function silentApply(
  dir: string,
  entry: { from: ApplyRun['from']; main: string },
  manifests: string,
  objects: number,
  repeats: number,
  ceilingMs: number,
  options: SuiteOptions,
): Promise<SilentApplyRun> {
  const walls: number[] = [];
  const how = { json: false, silent: true, inProcess: false };
  for (let i = 0; i < repeats; i++) walls.push((await once(dir, entry.main, manifests, objects, how)).ms);
  const wallMs = round(median(walls));
  const run: SilentApplyRun = {
    from: entry.from,
    objects,
    wallMs,
    wallRunsMs: walls.map(round),
    ceilingMs: round(ceilingMs),
    wallVsCeiling: ratio(wallMs, ceilingMs),
    check: atMost(wallMs, round(TARGET_SILENT_VS_CEILING * ceilingMs), ' ms'),
  };
  options.log(
    `apply ${objects} creates at ${LATENCY_MS} ms from ${entry.from}, server advertising no limit: wall ${wallMs} ms ` +
      `(${run.wallRunsMs.join(', ')}; ${run.wallVsCeiling} x the ceiling: ${mark(run.check)} ${run.check.target})`,
  );
  return run;
}

interface Once {
  /** `--json`: the events tell the phases. */
  json: boolean;
  /** Rate limiting off: no headers, no 429. */
  silent?: boolean;
  /** The emulator in this process (a smoke run). */
  inProcess: boolean;
}

/** One `converge apply` process against a fresh emulator. */
async function once(dir: string, main: string, manifests: string, objects: number, how: Once) {
  const { json, silent = false, inProcess } = how;
  const launch = silent
    ? { dir, latencyMs: LATENCY_MS, rateLimit: false, inProcess }
    : { dir, latencyMs: LATENCY_MS, raiseLimitTo: UNLIMITED, inProcess };
  return withEmulator(launch, async (emulator) => {
    const cpuBefore = emulator.cpuMs();
    const run = await runProcess({
      script: main,
      args: ['apply', manifests, '--auto-approve', '--no-progress', ...(json ? ['--json'] : [])],
      env: cliEnv({
        CONVERGE_PLATFORM_URL: emulator.url,
        CONVERGE_PLATFORM_TOKEN: emulator.token,
        CONVERGE_FINGERPRINTS: 'off',
      }),
      cwd: dir,
      keepStdout: json,
    });
    const cpuAfter = emulator.cpuMs();
    if (run.code !== 0) throw new Error(`converge apply exited ${run.code}: ${run.stderr}`);
    const stats = await emulator.stats();
    if (stats.total !== objects + 1)
      throw new Error(`expected ${objects + 1} requests, the emulator answered ${stats.total}`);
    const phases = json ? phasesOf(run.stdout, run.ms) : { planMs: Number.NaN, applyMs: Number.NaN };
    return {
      ms: run.ms,
      requests: stats.total,
      cpuMs: cpuBefore !== undefined && cpuAfter !== undefined ? cpuAfter - cpuBefore : undefined,
      ...phases,
    };
  });
}

/**
 * From the JSON lines: the apply phase's elapsed time, and the plan's end
 * measured back from the process's end (the events carry epoch times, the
 * process's wall clock is measured here).
 */
function phasesOf(stdout: string, wallMs: number): { planMs: number; applyMs: number } {
  let planReady: number | undefined;
  let last: number | undefined;
  let applyMs: number | undefined;
  for (const line of stdout.split('\n')) {
    if (!line.startsWith('{')) continue;
    const event = JSON.parse(line) as { type: string; time: number; summary?: { elapsedMs: number } };
    if (event.type === 'plan-ready') planReady = event.time;
    if (event.type === 'apply-done') applyMs = event.summary?.elapsedMs;
    last = event.time;
  }
  if (planReady === undefined || last === undefined || applyMs === undefined) {
    throw new Error('converge apply --json printed no plan-ready or apply-done event');
  }
  // the last event is within a few ms of exit: the plan ended that long before it
  return { planMs: wallMs - (last - planReady), applyMs };
}

/** N tool-version creates over undici alone, 64 in flight, against a fresh emulator: wall ms. */
async function rawLoop(dir: string, docs: readonly Doc[], inProcess: boolean): Promise<number> {
  return withEmulator({ dir, latencyMs: LATENCY_MS, raiseLimitTo: UNLIMITED, inProcess }, async (emulator) => {
    const pool = new Pool(emulator.url, { connections: DEFAULT_MAX_PARALLELISM });
    const headers = { authorization: `Bearer ${emulator.token}`, 'content-type': 'application/vnd.api+json' };
    let next = 0;
    const started = performance.now();
    const worker = async () => {
      while (next < docs.length) {
        const doc = docs[next++];
        const body = { data: { type: 'tool-versions', attributes: { version: doc?.metadata?.name, ...doc?.spec } } };
        const response = await pool.request({
          method: 'POST',
          path: '/api/v2/admin/tool-versions',
          headers,
          body: JSON.stringify(body),
        });
        const text = await response.body.text();
        if (response.statusCode !== 201) throw new Error(`raw POST: ${response.statusCode} ${text.slice(0, 200)}`);
        JSON.parse(text);
      }
    };
    await Promise.all(Array.from({ length: DEFAULT_MAX_PARALLELISM }, worker));
    const ms = performance.now() - started;
    await pool.close();
    return ms;
  });
}
