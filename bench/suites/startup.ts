/**
 * Start-up: `converge --version` and `converge validate` of 2,000 objects as
 * whole processes, from source (`node src/cli/main.ts`, type stripping) and
 * from the build (`dist/cli/main.js`, after `npm run build`). Median and p90
 * of repeated runs; targets on the median.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { mixedSet } from '../kinds.ts';
import { writeManifests } from '../lib/manifests.ts';
import { BUILT_MAIN, MAIN, ROOT, tempDir } from '../lib/paths.ts';
import { atMost, type Checked, mark, median, quantile, round, type SuiteOptions } from '../lib/report.ts';

export interface StartupRow {
  command: string;
  from: 'source' | 'build';
  runs: number;
  medianMs: number;
  p90Ms: number;
  minMs: number;
  check: Checked;
}

export interface StartupResult {
  rows: StartupRow[];
  /** Why the build was not measured, or that it is older than the sources. */
  notes: string[];
}

const VERSION_TARGET_MS = 150;
const VALIDATE_TARGET_MS = 1000;

export async function startup(options: SuiteOptions): Promise<StartupResult> {
  const objects = options.quick ? 200 : 2000;
  const versionRuns = options.quick ? 3 : 20;
  const validateRuns = options.quick ? 2 : 10;
  const dir = await tempDir('startup');
  const { docs } = mixedSet(objects);
  const manifests = await writeManifests(join(dir, 'manifests'), docs);
  const notes: string[] = [];
  const entries: Array<{ from: StartupRow['from']; main: string }> = [{ from: 'source', main: MAIN }];
  if (existsSync(BUILT_MAIN)) {
    entries.push({ from: 'build', main: BUILT_MAIN });
    const built = statSync(BUILT_MAIN).mtimeMs;
    if (newestSource(join(ROOT, 'src')) > built) notes.push('dist/ is older than src/: run `npm run build` first');
  } else notes.push('dist/cli/main.js is missing: run `npm run build` to measure the build');
  for (const note of notes) options.log(`startup: ${note}`);

  const rows: StartupRow[] = [];
  for (const { from, main } of entries) {
    const commands = [
      { command: 'converge --version', args: ['--version'], runs: versionRuns, target: VERSION_TARGET_MS },
      {
        command: `converge validate (${objects} objects)`,
        args: ['validate', manifests],
        runs: validateRuns,
        target: VALIDATE_TARGET_MS,
      },
    ];
    for (const { command, args, runs, target } of commands) {
      let times: number[];
      try {
        times = timeProcess(main, args, runs, dir);
      } catch (error) {
        // a broken build is reported, not fatal: the sources are what most runs measure
        if (from === 'source') throw error;
        notes.push(`${command} from the build failed: ${(error as Error).message.split('\n')[0]}`);
        options.log(`startup: ${notes[notes.length - 1]}`);
        break;
      }
      const row: StartupRow = {
        command,
        from,
        runs,
        medianMs: round(median(times)),
        p90Ms: round(quantile(times, 0.9)),
        minMs: round(Math.min(...times)),
        check: atMost(round(median(times)), target, ' ms'),
      };
      rows.push(row);
      options.log(
        `startup ${command} from ${from}: median ${row.medianMs} ms, p90 ${row.p90Ms} ms ` +
          `(${mark(row.check)} ${row.check.target})`,
      );
    }
  }
  return { rows, notes };
}

/** Wall times of `runs` runs (after one unmeasured warm-up that fills the file cache). */
function timeProcess(main: string, args: readonly string[], runs: number, cwd: string): number[] {
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', CI: 'true' };
  const once = () => {
    const started = performance.now();
    const result = spawnSync(process.execPath, [main, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const ms = performance.now() - started;
    if (result.status !== 0) {
      throw new Error(`${main} ${args.join(' ')} exited ${result.status}: ${result.stderr.toString().slice(0, 2000)}`);
    }
    return ms;
  };
  once();
  return Array.from({ length: runs }, once);
}

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
  }
  return newest;
}
