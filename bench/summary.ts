/** The end-of-run table on stderr: every figure that has a target, and whether it was met. */
import { type Checked, fmt, mark, signed } from './lib/report.ts';
import type { ApplyResult } from './suites/apply.ts';
import type { EfficiencyRow } from './suites/efficiency.ts';
import type { EmulatorResult } from './suites/emulator.ts';
import type { MemoryResult } from './suites/memory.ts';
import type { PolicyResult } from './suites/policies.ts';
import type { RateLimitResult } from './suites/rate-limit.ts';
import type { RegistryResult } from './suites/registry.ts';
import type { ScaleResult } from './suites/scale.ts';
import type { SpeedResult } from './suites/speed.ts';
import type { StartupResult } from './suites/startup.ts';

export interface SuiteResults {
  efficiency?: EfficiencyRow[];
  speed?: SpeedResult;
  scale?: ScaleResult;
  rateLimit?: RateLimitResult;
  apply?: ApplyResult;
  startup?: StartupResult;
  memory?: MemoryResult;
  registry?: RegistryResult;
  emulator?: EmulatorResult;
  policies?: PolicyResult;
}

export function summarize(suites: SuiteResults): string[] {
  const lines: string[] = [];
  const line = (what: string, value: string, check: Checked) =>
    lines.push(`${mark(check).padEnd(6)} ${what.padEnd(58)} ${value.padStart(14)}  target ${check.target}`);
  const efficiency = suites.efficiency ?? [];
  if (efficiency.length > 0) {
    const missed = efficiency.filter((r) => !r.met);
    line(
      `efficiency: ${efficiency.length} kind/size/phase runs at the lower bound`,
      `${efficiency.length - missed.length}/${efficiency.length}`,
      { target: 'all equal', met: missed.length === 0 },
    );
    for (const r of missed) {
      line(`  ${r.kind} ${r.phase} ${r.objects}`, `${r.requests} vs ${r.lowerBound}`, r);
    }
  }
  for (const c of suites.speed?.comparisons ?? []) {
    const what = `speed ${c.objects} objects ${c.latencyMs} ms ${c.phase}`;
    if (c.speedup) line(`${what}: vs parallelism 1`, `${c.speedupVsParallelism1} x`, c.speedup);
    if (c.ideal) line(`${what}: vs ideal at parallelism 10`, `${c.vsBound} x`, c.ideal);
  }
  for (const r of suites.scale?.runs ?? []) {
    if (r.check) line(`scale ${r.kind} ${r.objects} objects ${r.latencyMs} ms`, `${fmt(r.wallMs)} ms`, r.check);
  }
  for (const r of suites.rateLimit?.runs ?? []) {
    const what = `rate limit ${r.limit}/s${r.advertised === false ? ' not advertised' : ''}`;
    line(`${what}: 429s`, String(r.rateLimited), r.tooManyRequests);
    line(`${what}: throughput`, `${r.throughput}/s`, r.rate);
  }
  const burst = suites.rateLimit?.burst;
  if (burst)
    line(
      `rate limit burst of ${burst.requests} requests at 30/s vs 5,000/s: read`,
      `${burst.vsHighLimit} x`,
      burst.check,
    );
  const silent = suites.rateLimit?.silent;
  if (silent) line(`rate limit silent server: vs the assumed 30/s`, `${silent.vsAssumed} x`, silent.check);
  for (const r of suites.apply?.runs ?? []) {
    const what = `apply ${r.objects} creates ${r.latencyMs} ms from ${r.from}`;
    line(`${what}: whole process`, `${fmt(r.wallMs)} ms`, r.check);
    line(`${what}: apply phase`, `${fmt(r.applyMs)} ms`, r.applyCheck);
  }
  const quiet = suites.apply?.silent;
  if (quiet) {
    const what = `apply ${quiet.objects} creates from ${quiet.from}, server advertising no limit`;
    line(`${what}: whole process`, `${fmt(quiet.wallMs)} ms`, quiet.check);
  }
  for (const r of suites.startup?.rows ?? []) {
    line(`startup ${r.command} from ${r.from} (median)`, `${r.medianMs} ms`, r.check);
  }
  const p = suites.policies;
  if (p) {
    line(
      `policies: ${p.policies} over validate of ${p.objects} objects, ${p.judged}`,
      `${signed(p.overheadPct)} %`,
      p.check,
    );
  }
  for (const r of suites.memory?.rows ?? []) line(`memory ${r.command} from ${r.from}`, `${r.peakRssMB} MB`, r.check);
  const registry = suites.registry;
  for (const p of registry?.publish ?? []) {
    if (p.check) line(`registry publish ${p.versions} versions ${p.latencyMs} ms: vs ideal`, `${p.vsIdeal} x`, p.check);
  }
  if (registry) {
    const { pack } = registry;
    line(
      `registry pack ${pack.files} files ${fmt(pack.inputBytes / 2 ** 20, 1)} MB (median)`,
      `${fmt(pack.packMs.median)} ms`,
      pack.check,
    );
  }
  for (const r of suites.emulator?.rows ?? []) {
    if (r.check) line(`emulator ${r.request}`, `${fmt(r.requestsPerSecond)}/s`, r.check);
  }
  return lines;
}
