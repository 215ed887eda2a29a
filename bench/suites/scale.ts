/**
 * Scale: plan 10,000 SSH roles, every one live, so one LIST then one GET
 * each (bench/kinds.ts `scaleKind`), at 20 ms injected latency. Target
 * <= 5 s, which a fixed parallelism of 10 cannot reach (10,000 x 20 ms / 10
 * = 20 s): the client's adaptive window has to open up. The time is split
 * into reading and building the plan, against the ceiling of the widest window.
 */
import { join } from 'node:path';
import { KINDS, providersFor, scaleKind } from '../kinds.ts';
import { type PopulateClients, UNLIMITED, withEmulator } from '../lib/emulator.ts';
import { ADAPTIVE, desiredFrom, fixed, type Mode, timedPlan } from '../lib/engine.ts';
import { writeManifests } from '../lib/manifests.ts';
import { tempDir } from '../lib/paths.ts';
import { atMost, type Checked, fmt, mark, round, type SuiteOptions } from '../lib/report.ts';
import { warmUp } from '../lib/warm-up.ts';

export interface ScaleRun {
  kind: string;
  reads: string;
  objects: number;
  latencyMs: number;
  mode: string;
  requests: number;
  lowerBound: number;
  wallMs: number;
  /** Reading live state (the LIST, then the GETs), then building the plan from it: wall = the two, roughly. */
  readMs: number;
  buildMs: number;
  /** requests x latency / the mode's widest window: the wall if every request ran at the ceiling with no server time. */
  ceilingMs: number;
  peakWindow: number;
  /** The window each request started with, averaged: below the peak while ramping up or after a cut. */
  meanWindow: number;
  rateLimited: number;
  /** CPU time of the client (this process) and of the emulator process (null where the OS does not tell). */
  clientCpuMs: number;
  emulatorCpuMs: number | null;
  /** Only the adaptive run of the scale kind has a target. */
  check?: Checked;
}

export interface ScaleResult {
  runs: ScaleRun[];
}

const LATENCY_MS = 20;
const TARGET_MS = 5000;

export async function scale(options: SuiteOptions): Promise<ScaleResult> {
  const n = options.quick ? 500 : 10_000;
  const dir = await tempDir('scale');
  const perObject = scaleKind();
  const pagesKind = KINDS.find((k) => k.name === 'ToolVersion');
  const plans: Array<{ kind: typeof perObject; modes: Mode[] }> = [
    // fixed 10 shows what the adaptive window buys; 20 s, so not in a quick run
    { kind: perObject, modes: options.quick ? [ADAPTIVE] : [ADAPTIVE, fixed(10)] },
    ...(pagesKind ? [{ kind: pagesKind, modes: [ADAPTIVE] }] : []),
  ];
  const runs: ScaleRun[] = [];
  await warmUp();
  for (const { kind, modes } of plans) {
    const desired = await desiredFrom(await writeManifests(join(dir, kind.name), kind.documents(n)));
    const providers = providersFor([kind]);
    for (const mode of modes) {
      const launch = {
        dir,
        seed: kind.seed(n),
        latencyMs: LATENCY_MS,
        raiseLimitTo: UNLIMITED,
        ...(kind.populate && { populate: (clients: PopulateClients) => kind.populate!(clients, n) }),
      };
      await withEmulator(launch, async (emulator) => {
        const clientBefore = process.cpuUsage();
        const emulatorBefore = emulator.cpuMs();
        const plan = await timedPlan(emulator, desired, providers, mode);
        const client = process.cpuUsage(clientBefore);
        const emulatorAfter = emulator.cpuMs();
        const stats = await emulator.stats();
        const run: ScaleRun = {
          kind: kind.name,
          reads: kind.reads,
          objects: n,
          latencyMs: LATENCY_MS,
          mode: mode.name,
          requests: stats.total,
          lowerBound: kind.planBound(n),
          wallMs: round(plan.ms),
          readMs: round(plan.phases.readMs),
          buildMs: round(plan.phases.buildMs),
          ceilingMs: round((stats.total * LATENCY_MS) / mode.concurrency.max),
          peakWindow: plan.peakWindow,
          meanWindow: plan.meanWindow,
          rateLimited: stats.rateLimited,
          clientCpuMs: round((client.user + client.system) / 1000),
          emulatorCpuMs:
            emulatorAfter !== undefined && emulatorBefore !== undefined ? round(emulatorAfter - emulatorBefore) : null,
          ...(kind === perObject && mode === ADAPTIVE && { check: atMost(round(plan.ms), TARGET_MS, ' ms') }),
        };
        runs.push(run);
        options.log(
          `scale ${kind.name} ${n} objects at ${LATENCY_MS} ms ${mode.name}: ${fmt(run.wallMs)} ms, ` +
            `${run.requests} requests (lower bound ${run.lowerBound}), read ${fmt(run.readMs)} ms + build ${fmt(run.buildMs)} ms, ` +
            `ceiling ${fmt(run.ceilingMs)} ms, window up to ${run.peakWindow} (mean ${run.meanWindow}), ` +
            `CPU client ${fmt(run.clientCpuMs)} ms emulator ${run.emulatorCpuMs === null ? '-' : fmt(run.emulatorCpuMs)} ms` +
            (run.check ? ` (${mark(run.check)} ${run.check.target})` : ''),
        );
      });
    }
  }
  return { runs };
}
