/**
 * Scale: `converge plan` of 10,000 SSH roles as a user runs it, a whole
 * process of the CLI, every role live, so one LIST then one GET each
 * (bench/kinds.ts `scaleKind`), at 20 ms injected latency. Timed from spawn
 * to exit, against two floors measured in the same run: the ideal of its
 * requests at the adaptive window's ceiling (requests x latency / 64), and
 * the raw undici loop over the same requests at the same concurrency
 * (bench/raw-loop.ts), a process of its own. Targets: within 1.3 x the
 * first and 1.1 x the second. A fixed `--parallelism 10` shows what the
 * window buys; the list-pages kind (ToolVersion) is the other read path.
 *
 * BENCH_CPU_PROF_DIR=dir adds one more run of each headline, under `--cpu-prof`, whose
 * profile goes there (profiling slows a process: its time is not reported).
 */
import { join } from 'node:path';
import { DEFAULT_MAX_PARALLELISM } from '../../src/config/load.ts';
import { cliMains, cliPlan, emulatorFor, type ReadPath, rawLoop, readPaths } from '../lib/cli-plan.ts';
import { withEmulator } from '../lib/emulator.ts';
import { writeManifests } from '../lib/manifests.ts';
import { tempDir } from '../lib/paths.ts';
import { bySize, type Checked, fmt, mark, ratio, round, type SuiteOptions } from '../lib/report.ts';

export interface ScaleRun {
  kind: string;
  reads: string;
  objects: number;
  latencyMs: number;
  /** `adaptive` (the default) or `fixed-10` (`--parallelism 10`). */
  mode: string;
  /** The CLI from the build (`dist/`) or from source. */
  from: 'build' | 'source';
  requests: number;
  lowerBound: number;
  /** Spawn to exit of `converge plan`. */
  wallMs: number;
  /** The plan's own figure for reading live state (its output's `Read N live object(s) in X ms`). */
  readMs: number | null;
  /** requests x latency / the mode's widest window: the wall if every request ran at the ceiling, with no CPU anywhere. */
  ceilingMs: number;
  /** The raw undici loop over the same requests, spawn to exit (same emulator, same run). */
  rawMs: number;
  /** The raw loop inside its process, first request to last answer: the floor of `readMs`. */
  rawLoopMs: number;
  vsCeiling: number;
  vsRaw: number;
  peakRssMB: number;
  rateLimited: number;
  /** CPU time of the emulator process during the plan (null where the OS does not tell). */
  emulatorCpuMs: number | null;
  /** Only the adaptive runs of the scale kind have a target. */
  check?: Checked;
}

export interface ScaleResult {
  runs: ScaleRun[];
}

const LATENCY_MS = 20;
/** The targets: wall within these multiples of the ceiling and of the raw loop. */
const VS_CEILING = 1.3;
const VS_RAW = 1.1;

interface Plan extends ReadPath {
  modes: Array<{ name: string; flags: string[]; window: number }>;
  target: boolean;
}

/** A smoke run's size: every role is one GET, and the versions one page, at any size. */
const SMOKE = 20;

const ADAPTIVE = { name: 'adaptive', flags: [], window: DEFAULT_MAX_PARALLELISM };
const FIXED_10 = { name: 'fixed-10', flags: ['--parallelism', '10'], window: 10 };

export async function scale(options: SuiteOptions): Promise<ScaleResult> {
  const n = bySize(options, 10_000, 500, SMOKE);
  const dir = await tempDir('scale');
  // the list-then-read kind has the target; fixed 10 shows what the adaptive window buys (20 s: not in a quick run)
  const plans: Plan[] = readPaths().map((path, i) => ({
    ...path,
    modes: i === 0 && !options.quick ? [ADAPTIVE, FIXED_10] : [ADAPTIVE],
    target: i === 0,
  }));
  const mains = cliMains(options.quick);
  const profiles = process.env.BENCH_CPU_PROF_DIR;
  const runs: ScaleRun[] = [];
  for (const plan of plans) {
    const { kind } = plan;
    const manifests = await writeManifests(join(dir, kind.name.replace(/\W/g, '-')), kind.documents(n));
    await withEmulator(emulatorFor(kind, n, dir, LATENCY_MS, options.smoke), async (emulator) => {
      const raw = await rawLoop(emulator, plan.requests(n), DEFAULT_MAX_PARALLELISM, dir);
      for (const mode of plan.modes) {
        for (const { from, main } of mode === ADAPTIVE ? mains : mains.slice(0, 1)) {
          const headline = mode === ADAPTIVE && from === mains[0]?.from;
          if (profiles && headline) {
            await cliPlan(emulator, main, manifests, dir, ['--cpu-prof', `--cpu-prof-dir=${profiles}`], mode.flags);
          }
          const emulatorBefore = emulator.cpuMs();
          const measured = await cliPlan(emulator, main, manifests, dir, [], mode.flags);
          const emulatorAfter = emulator.cpuMs();
          const ceilingMs = round((measured.requests * LATENCY_MS) / mode.window);
          const run: ScaleRun = {
            kind: kind.name,
            reads: kind.reads,
            objects: n,
            latencyMs: LATENCY_MS,
            mode: mode.name,
            from,
            requests: measured.requests,
            lowerBound: kind.planBound(n),
            wallMs: measured.wallMs,
            readMs: measured.readMs,
            ceilingMs,
            rawMs: raw.wallMs,
            rawLoopMs: raw.loopMs,
            vsCeiling: ratio(measured.wallMs, ceilingMs),
            vsRaw: ratio(measured.wallMs, raw.wallMs),
            peakRssMB: measured.peakRssMB,
            rateLimited: measured.rateLimited,
            emulatorCpuMs:
              emulatorAfter !== undefined && emulatorBefore !== undefined
                ? round(emulatorAfter - emulatorBefore)
                : null,
            // a quick run's 500 roles are mostly process start-up, which neither floor has: no target
            ...(plan.target &&
              headline &&
              !options.quick && { check: withinBoth(measured.wallMs, ceilingMs, raw.wallMs) }),
          };
          runs.push(run);
          options.log(
            `scale ${kind.name} ${n} objects at ${LATENCY_MS} ms ${mode.name} from ${from}: ${fmt(run.wallMs)} ms ` +
              `spawn to exit (read ${run.readMs === null ? '-' : fmt(run.readMs)} ms), ${run.requests} requests ` +
              `(lower bound ${run.lowerBound}), ceiling ${fmt(ceilingMs)} ms (${run.vsCeiling} x), ` +
              `raw loop ${fmt(raw.wallMs)} ms (${run.vsRaw} x; ${fmt(raw.loopMs)} ms of requests), peak RSS ${run.peakRssMB} MB, ` +
              `emulator CPU ${run.emulatorCpuMs === null ? '-' : fmt(run.emulatorCpuMs)} ms` +
              (run.check ? ` (${mark(run.check)} ${run.check.target})` : ''),
          );
        }
      }
    });
  }
  return { runs };
}

/** Both targets as one check, so that the summary shows them on one line. */
function withinBoth(wallMs: number, ceilingMs: number, rawMs: number): Checked {
  const ceilingLimit = round(VS_CEILING * ceilingMs);
  const rawLimit = round(VS_RAW * rawMs);
  return {
    target: `<= ${VS_CEILING} x ceiling (${fmt(ceilingLimit)} ms) and ${VS_RAW} x raw loop (${fmt(rawLimit)} ms)`,
    met: wallMs <= ceilingLimit && wallMs <= rawLimit,
  };
}
