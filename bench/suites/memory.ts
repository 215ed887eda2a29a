/**
 * Peak memory: `converge plan` over 10,000 mixed objects as a whole process
 * against the emulator (in its own process), peak RSS from /usr/bin/time
 * when there is one, else from the process itself (bench/lib/max-rss.ts).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { mixedSet } from '../kinds.ts';
import { UNLIMITED, withEmulator } from '../lib/emulator.ts';
import { writeManifests } from '../lib/manifests.ts';
import { BUILT_MAIN, MAIN, tempDir } from '../lib/paths.ts';
import { atMost, type Checked, mark, round, type SuiteOptions } from '../lib/report.ts';

export interface MemoryRow {
  command: string;
  from: 'source' | 'build';
  objects: number;
  peakRssMB: number;
  wallMs: number;
  /** How the peak was measured. */
  via: '/usr/bin/time' | 'process.resourceUsage';
  check: Checked;
}

export interface MemoryResult {
  rows: MemoryRow[];
}

const TARGET_MB = 300;
const TIME = '/usr/bin/time';

export async function memory(options: SuiteOptions): Promise<MemoryResult> {
  const objects = options.quick ? 500 : 10_000;
  const dir = await tempDir('memory');
  const { docs, seed } = mixedSet(objects);
  const manifests = await writeManifests(join(dir, 'manifests'), docs);
  const rows: MemoryRow[] = [];
  const entries: Array<{ from: MemoryRow['from']; main: string }> = [{ from: 'source', main: MAIN }];
  if (existsSync(BUILT_MAIN)) entries.push({ from: 'build', main: BUILT_MAIN });
  for (const { from, main } of entries) {
    await withEmulator({ dir, seed, raiseLimitTo: UNLIMITED }, async (emulator) => {
      const env = {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        NO_COLOR: '1',
        CI: 'true',
        CONVERGE_PLATFORM_URL: emulator.url,
        CONVERGE_PLATFORM_TOKEN: emulator.token,
        CONVERGE_FINGERPRINTS: 'off',
      };
      const measured = await peakRss(main, ['plan', manifests], env, dir);
      const peakRssMB = round(measured.kib / 1024);
      const row: MemoryRow = {
        command: `converge plan (${objects} objects)`,
        from,
        objects,
        peakRssMB,
        wallMs: round(measured.ms),
        via: measured.via,
        check: atMost(peakRssMB, TARGET_MB, ' MB'),
      };
      rows.push(row);
      options.log(
        `memory ${row.command} from ${from}: peak RSS ${peakRssMB} MB in ${row.wallMs} ms ` +
          `(${mark(row.check)} ${row.check.target})`,
      );
    });
  }
  return { rows };
}

async function peakRss(
  main: string,
  args: readonly string[],
  env: Record<string, string | undefined>,
  cwd: string,
): Promise<{ kib: number; ms: number; via: MemoryRow['via'] }> {
  const useTime = existsSync(TIME);
  const rssFile = join(cwd, `max-rss-${Date.now()}.txt`);
  const command = useTime
    ? { file: TIME, args: ['-f', 'MAXRSS %M', process.execPath, main, ...args] }
    : {
        file: process.execPath,
        args: ['--import', new URL('../lib/max-rss.ts', import.meta.url).href, main, ...args],
      };
  const started = performance.now();
  const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
    const child = spawn(command.file, command.args, {
      cwd,
      env: { ...env, ...(!useTime && { BENCH_MAX_RSS_FILE: rssFile }) },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (chunk: Buffer) => {
      err = (err + chunk.toString()).slice(-8000);
    });
    child.on('error', reject);
    child.on('close', (exit) => resolve({ code: exit, stderr: err }));
  });
  const ms = performance.now() - started;
  if (code !== 0) throw new Error(`converge ${args.join(' ')} exited ${code}: ${stderr}`);
  if (useTime) {
    const match = /MAXRSS (\d+)/.exec(stderr);
    if (!match) throw new Error(`no peak RSS in /usr/bin/time output: ${stderr}`);
    return { kib: Number(match[1]), ms, via: TIME };
  }
  return { kib: Number(await readFile(rssFile, 'utf8')), ms, via: 'process.resourceUsage' };
}
