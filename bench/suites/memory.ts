/**
 * Peak memory: `converge plan` as a whole process against the emulator (in
 * its own process, no latency), on both read paths: list-then-read (SSH
 * roles, every one live: a LIST, then one GET each), list pages (tool
 * versions, half live: pages of 100) and a LIST per level (LDAP static
 * roles, half live in four folders). 10,000 objects, and 50,000 in a full
 * run (not the LDAP roles). Peak RSS from /usr/bin/time when there is one, else from the process
 * itself (bench/lib/process-run.ts). The raw undici loop over the same
 * requests is timed beside each, for scale. A full run adds the 10,000
 * list-then-read plan from the build with V8's young generation sized from
 * the start (`--max-semi-space-size=16` in NODE_OPTIONS, which converge
 * leaves as given), beside converge's own cap of it, which stops its growth
 * at 32 MB once reached (src/cli/young-generation.ts; docs/performance.md,
 * "Memory").
 */
import { join } from 'node:path';
import { DEFAULT_MAX_PARALLELISM } from '../../src/config/load.ts';
import { cliMains, cliPlan, emulatorFor, levelReadPath, rawLoop, readPaths } from '../lib/cli-plan.ts';
import { withEmulator } from '../lib/emulator.ts';
import { writeManifests } from '../lib/manifests.ts';
import { tempDir } from '../lib/paths.ts';
import { atMost, bySize, type Checked, fmt, mark, type SuiteOptions } from '../lib/report.ts';

export interface MemoryRow {
  command: string;
  /** Flags given to node itself, if any. */
  nodeFlags?: string[];
  from: 'source' | 'build';
  kind: string;
  reads: string;
  objects: number;
  requests: number;
  peakRssMB: number;
  /** Spawn to exit. */
  wallMs: number;
  /** CPU time of the process (user + system), where /usr/bin/time tells. */
  cpuMs: number | null;
  /** The raw undici loop over the same requests, spawn to exit. */
  rawMs: number;
  /** How the peak was measured. */
  via: '/usr/bin/time' | 'process.resourceUsage';
  check: Checked;
}

export interface MemoryResult {
  rows: MemoryRow[];
}

/** Peak RSS targets by size: a bounded amount per object. */
const TARGET_MB: Readonly<Record<number, number>> = { 10000: 250, 50000: 1024 };
/** The young generation's cap of the extra row (MB per semi-space). */
const CAPPED = ['--max-semi-space-size=16'];
/** A quick run's size, held to the 10,000-object target: it proves the harness, not the figure. */
const QUICK = 500;
/**
 * A smoke run's sizes: the fewest objects that still give each read shape its several requests:
 * a LIST and GETs, or a LIST, four folders and GETs (20); two pages of live versions (202, half live).
 */
const SMOKE = 20;
const SMOKE_PAGES = 202;

export async function memory(options: SuiteOptions): Promise<MemoryResult> {
  const sizes = bySize(options, [10_000, 50_000], [QUICK], [SMOKE]);
  const dir = await tempDir('memory');
  const mains = cliMains(options.quick);
  const rows: MemoryRow[] = [];
  for (const size of sizes) {
    // the LDAP kinds' LIST per level at 10,000 only: writing 25,000 live roles (and their
    // directory accounts) through the API would take longer than the rest of the suite
    const paths = size > 10_000 ? readPaths() : [...readPaths(), levelReadPath()];
    for (const { kind, requests } of paths) {
      const objects = options.smoke && kind.reads === 'pages' ? SMOKE_PAGES : size;
      const manifests = await writeManifests(join(dir, `${kind.kind}-${objects}`), kind.documents(objects), kind.files);
      await withEmulator(emulatorFor(kind, objects, dir, 0, options.smoke), async (emulator) => {
        const raw = await rawLoop(emulator, requests(objects), DEFAULT_MAX_PARALLELISM, dir);
        // the 50,000-object runs take long from source too: the build only
        const runs: Array<{ from: MemoryRow['from']; main: string; nodeFlags: string[] }> = (
          objects > 10_000 ? mains.slice(0, 1) : mains
        ).map((m) => ({ ...m, nodeFlags: [] }));
        if (!options.quick && objects === 10_000 && kind.kind === 'SSHRole' && mains[0]?.from === 'build') {
          runs.push({ ...mains[0], nodeFlags: CAPPED });
        }
        for (const { from, main, nodeFlags } of runs) {
          const measured = await cliPlan(emulator, main, manifests, dir, nodeFlags);
          const flags = nodeFlags.length > 0 ? ` with node ${nodeFlags.join(' ')}` : '';
          const row: MemoryRow = {
            command: `converge plan (${fmt(objects)} ${kind.kind}, ${kind.reads})${flags}`,
            ...(nodeFlags.length > 0 && { nodeFlags }),
            from,
            kind: kind.kind,
            reads: kind.reads,
            objects,
            requests: measured.requests,
            peakRssMB: measured.peakRssMB,
            wallMs: measured.wallMs,
            cpuMs: measured.cpuMs,
            rawMs: raw.wallMs,
            via: measured.via,
            check: atMost(measured.peakRssMB, TARGET_MB[objects] ?? TARGET_MB[10_000] ?? 0, ' MB'),
          };
          rows.push(row);
          options.log(
            `memory ${row.command} from ${from}: peak RSS ${row.peakRssMB} MB, ${fmt(row.wallMs)} ms spawn to exit, ` +
              `CPU ${row.cpuMs === null ? '-' : fmt(row.cpuMs)} ms ` +
              `(raw loop ${fmt(raw.wallMs)} ms), ${row.requests} requests (${mark(row.check)} ${row.check.target})`,
          );
        }
      });
    }
  }
  return { rows };
}
