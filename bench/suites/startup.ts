/**
 * Start-up and validation: whole processes, from the build (`dist/cli/main.js`, what the
 * `converge` bin runs, after `npm run build`) and from source (`node src/cli/main.ts`, type
 * stripping), against `node -e 0` measured in the same run:
 *
 * - `converge --version`: within 2 x `node -e 0`;
 * - `converge validate` of the examples, as the demo runs it (the staging environment, its
 *   configuration, the secrets it reads from the environment): within 3 x `node -e 0`;
 * - `converge validate` of N mixed objects (2,000; 200 in quick mode): under 250 ms.
 *
 * The commands take turns, one run of each per round, so that a change in the machine's load
 * weighs on all of them alike and the ratios stay fair. Median and p90; targets on the median.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { mixedSet } from '../kinds.ts';
import { writeManifests } from '../lib/manifests.ts';
import { BUILT_MAIN, MAIN, ROOT, tempDir, unbuiltNote } from '../lib/paths.ts';
import { atMost, bySize, type Checked, mark, median, quantile, round, type SuiteOptions } from '../lib/report.ts';

export interface StartupRow {
  command: string;
  /** `node` is the baseline: `node -e 0`, the same Node doing nothing. */
  from: 'source' | 'build' | 'node';
  runs: number;
  medianMs: number;
  p90Ms: number;
  minMs: number;
  /** Median over the median of `node -e 0` in the same run. */
  vsNode: number;
  check: Checked;
}

export interface StartupResult {
  rows: StartupRow[];
  /** Why the build was not measured, or that it is older than the sources. */
  notes: string[];
}

const VERSION_VS_NODE = 2;
const EXAMPLES_VS_NODE = 3;
const VALIDATE_TARGET_MS = 250;

/** What `converge demo` sets for its steps (src/cli/run/demo.ts), so that the examples validate. */
const EXAMPLES_ENV = {
  SMTP_PASSWORD: 'demo-only-smtp-password',
  LDAP_URL: 'ldap://ldap.emulator.test',
  LDAP_BINDPASS: 'demo-only-bindpass',
};
const EXAMPLES = join(ROOT, 'examples');
const EXAMPLES_ARGS = ['base', 'environments/staging', '-c', 'environments/staging/converge.config.yaml'];

interface Command {
  name: string;
  from: StartupRow['from'];
  argv: string[];
  cwd: string;
  env?: Record<string, string>;
  /** The target, given the median of `node -e 0`. */
  target: (nodeMs: number) => number;
  times: number[];
}

export async function startup(options: SuiteOptions): Promise<StartupResult> {
  // a smoke run: each command once, from source only (the build runs the same commands): 4 processes, not 28
  const objects = bySize(options, 2000, 200, 20);
  const rounds = bySize(options, 20, 3, 1);
  const dir = await tempDir('startup');
  const { docs, files } = mixedSet(objects);
  const manifests = await writeManifests(join(dir, 'manifests'), docs, files);
  const notes: string[] = [];
  const entries: Array<{ from: 'source' | 'build'; main: string }> = [{ from: 'source', main: MAIN }];
  const unbuilt = unbuiltNote(options.smoke);
  if (unbuilt) notes.push(unbuilt);
  else {
    entries.push({ from: 'build', main: BUILT_MAIN });
    const built = statSync(BUILT_MAIN).mtimeMs;
    if (newestSource(join(ROOT, 'src')) > built) notes.push('dist/ is older than src/: run `npm run build` first');
  }

  const commands: Command[] = [
    { name: 'node -e 0', from: 'node', argv: ['-e', '0'], cwd: dir, target: () => Number.NaN, times: [] },
  ];
  for (const { from, main } of entries) {
    const command = (
      name: string,
      args: string[],
      target: Command['target'],
      cwd = dir,
      env?: Record<string, string>,
    ) => ({ name, from, argv: [main, ...args], cwd, env, target, times: [] }) satisfies Command;
    commands.push(
      command('converge --version', ['--version'], (node) => VERSION_VS_NODE * node),
      command(
        'converge validate (examples)',
        ['validate', ...EXAMPLES_ARGS],
        (node) => EXAMPLES_VS_NODE * node,
        EXAMPLES,
        EXAMPLES_ENV,
      ),
      command(`converge validate (${objects} objects)`, ['validate', manifests], () => VALIDATE_TARGET_MS),
    );
  }

  // a broken build is reported, not fatal: the sources are what most runs measure
  const broken = new Set<Command>();
  const attempt = (command: Command): number | undefined => {
    if (broken.has(command)) return undefined;
    try {
      return once(command);
    } catch (error) {
      if (command.from !== 'build') throw error;
      broken.add(command);
      notes.push(`${command.name} from the build failed: ${(error as Error).message.split('\n')[0]}`);
      options.log(`startup: ${notes[notes.length - 1]}`);
      return undefined;
    }
  };
  for (const note of notes) options.log(`startup: ${note}`);
  // one unmeasured run each: fills the file cache and Node's compile cache (a smoke run's figures mean nothing)
  if (!options.smoke) for (const command of commands) attempt(command);
  for (let round = 0; round < rounds; round++) {
    for (const command of commands) {
      const ms = attempt(command);
      if (ms !== undefined) command.times.push(ms);
    }
  }
  const measured = commands.filter((c) => !broken.has(c));

  const nodeMs = median(measured[0]!.times);
  const rows = measured.map((command): StartupRow => {
    const medianMs = median(command.times);
    const target = command.target(nodeMs);
    const row: StartupRow = {
      command: command.name,
      from: command.from,
      runs: command.times.length,
      medianMs: round(medianMs),
      p90Ms: round(quantile(command.times, 0.9)),
      minMs: round(Math.min(...command.times)),
      vsNode: Math.round((medianMs / nodeMs) * 100) / 100,
      // the baseline is its own target
      check: Number.isNaN(target) ? { target: 'baseline', met: true } : atMost(round(medianMs), round(target), ' ms'),
    };
    const ratio = command.from === 'node' ? '' : ` = ${row.vsNode} x node -e 0`;
    options.log(
      `startup ${row.command} from ${row.from}: median ${row.medianMs} ms${ratio}, p90 ${row.p90Ms} ms ` +
        `(${mark(row.check)} ${row.check.target})`,
    );
    return row;
  });
  return { rows, notes };
}

/** One run's wall time; throws when the command fails. */
function once(command: Command): number {
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', CI: 'true', ...command.env };
  const started = performance.now();
  const result = spawnSync(process.execPath, command.argv, {
    cwd: command.cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const ms = performance.now() - started;
  if (result.status !== 0) {
    throw new Error(`${command.argv.join(' ')} exited ${result.status}: ${result.stderr.toString().slice(0, 2000)}`);
  }
  return ms;
}

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
  }
  return newest;
}
