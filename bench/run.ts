/**
 * `npm run bench [-- [--quick | --smoke] [--out FILE] [--no-save] [suite...]]`
 *
 * Runs the benchmark suites (all, or those named), prints progress and a
 * summary on stderr, and the results as JSON on stdout and in
 * bench/results/latest.json. Exits 0 whatever the figures: benchmarks
 * report, they do not fail CI on timing (a harness error still exits 1).
 * See docs/performance.md.
 */
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus, loadavg, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { ROOT, removeTempDirs, staleBuildSource } from './lib/paths.ts';
import type { SuiteOptions } from './lib/report.ts';
import { applyAtScale } from './suites/apply.ts';
import { efficiency } from './suites/efficiency.ts';
import { emulatorThroughput } from './suites/emulator.ts';
import { memory } from './suites/memory.ts';
import { policies } from './suites/policies.ts';
import { rateLimit } from './suites/rate-limit.ts';
import { registry } from './suites/registry.ts';
import { scale } from './suites/scale.ts';
import { speed } from './suites/speed.ts';
import { startup } from './suites/startup.ts';
import { type SuiteResults, summarize } from './summary.ts';

/** Every suite, in the order they run; the name is the key in the JSON and on the command line. */
export const SUITES = {
  efficiency,
  speed,
  scale,
  rateLimit,
  apply: applyAtScale,
  startup,
  memory,
  registry,
  emulator: emulatorThroughput,
  policies,
} satisfies Record<string, (options: SuiteOptions) => Promise<unknown>>;

export type SuiteName = keyof typeof SUITES;

interface Args {
  quick: boolean;
  smoke: boolean;
  save: boolean;
  out: string | undefined;
  suites: SuiteName[];
}

function parseArgs(argv: readonly string[]): Args {
  const args: Args = { quick: false, smoke: false, save: true, out: undefined, suites: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '--quick') args.quick = true;
    // the harness's own test: smaller than quick (bench/lib/report.ts, SuiteOptions.smoke)
    else if (arg === '--smoke') {
      args.quick = true;
      args.smoke = true;
    } else if (arg === '--no-save') args.save = false;
    else if (arg === '--out') args.out = argv[++i];
    else if (arg === '--help' || arg === '-h') {
      process.stderr.write(
        `usage: npm run bench -- [--quick | --smoke] [--out FILE] [--no-save] [${Object.keys(SUITES).join('|')}...]\n`,
      );
      process.exit(0);
    } else if (arg in SUITES) args.suites.push(arg as SuiteName);
    else {
      process.stderr.write(`unknown argument "${arg}"; suites: ${Object.keys(SUITES).join(', ')}\n`);
      process.exit(2);
    }
  }
  if (args.suites.length === 0) args.suites = Object.keys(SUITES) as SuiteName[];
  return args;
}

async function main(): Promise<boolean> {
  const args = parseArgs(process.argv.slice(2));
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
  const cpu = cpus();
  const suites: Record<string, unknown> = {};
  const errors: Record<string, string> = {};
  const started = Date.now();
  const load = loadavg();
  const stale = staleBuildSource();
  if (stale) log(`warning: ${stale} is newer than dist/: the build's figures are of older code (npm run build first)`);
  for (const name of args.suites) {
    log(`== ${name}${args.smoke ? ' (smoke)' : args.quick ? ' (quick)' : ''}`);
    const suiteStarted = Date.now();
    try {
      suites[name] = await SUITES[name]({ quick: args.quick, smoke: args.smoke, log });
    } catch (error) {
      // a broken suite is a harness error: the others still run, and the exit code says so
      errors[name] = (error as Error).stack ?? String(error);
      log(`== ${name} FAILED: ${errors[name]}`);
    } finally {
      await removeTempDirs();
    }
    log(`== ${name} done in ${((Date.now() - suiteStarted) / 1000).toFixed(1)} s`);
  }
  const results = {
    converge: pkg.version,
    node: process.version,
    cpu: { model: cpu[0]?.model ?? 'unknown', cores: cpu.length },
    memoryMB: Math.round(totalmem() / 2 ** 20),
    platform: `${process.platform} ${process.arch}`,
    /** 1, 5 and 15 minute load averages when the run started: other work on the machine skews timings. */
    loadAverage: load.map((l) => Math.round(l * 100) / 100),
    /** A source file newer than dist/ when the run started: the build's rows then time older code. */
    ...(stale && { staleBuild: stale }),
    date: new Date().toISOString(),
    quick: args.quick,
    smoke: args.smoke,
    durationS: Math.round((Date.now() - started) / 1000),
    suites,
    ...(Object.keys(errors).length > 0 && { errors }),
  };
  log('');
  for (const line of summarize(results.suites as SuiteResults)) log(line);
  const json = `${JSON.stringify(results, null, 2)}\n`;
  process.stdout.write(json);
  const files = [...(args.save ? [join(ROOT, 'bench/results/latest.json')] : []), ...(args.out ? [args.out] : [])];
  for (const file of files) {
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, json);
    log(`results written to ${file}`);
  }
  return Object.keys(errors).length === 0;
}

const ok = await main();
// figures never fail the run, a harness error does; emulators are stopped by now, stray handles are not waited for
process.exit(ok ? 0 : 1);
