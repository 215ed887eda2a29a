/**
 * The private registry: publishing many versions of one module through the
 * CLI's engine at 20 ms injected latency, and packing a large module.
 *
 * Publishing: one live module without versions and a manifest declaring 50
 * versions of a realistic module directory (examples/modules/network),
 * planned and applied on a fresh emulator per run. Each version is three
 * requests that must follow each other (POST the version, PUT its archive to
 * `links.upload`, GET the module until the version is `ok`: one GET, the
 * emulator ingests before it answers the PUT); the versions do not depend on
 * each other. The ideal is the speed suite's: requests x latency / 10 (the
 * default `--parallelism` the adaptive window starts from), never less than
 * the chain of one version (3 x latency). Target: apply within 1.5 x.
 *
 * The emulator reads each upload (hcl2json's WebAssembly) in its worker
 * threads before it answers the PUT (src/emulator/registry/ingest-pool.ts),
 * so it is warmed first (a registry that has been up a while has loaded and
 * compiled that code in every worker), and the same run with a one-file
 * module, which it reads in well under a millisecond, shows what is left of
 * the time without that (no target: a control).
 *
 * Packing: `packModule` (src/registry/pack.ts) of a generated module of 5 MB
 * in a few hundred files, as a plan (the digest of each declared directory) and an
 * apply (the upload) do it. Target: under 1 s.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { HttpClient } from '../../src/api/types.ts';
import { ingestModule } from '../../src/emulator/registry/ingest/index.ts';
import { IngestPool, ingestPoolSize, workerFile } from '../../src/emulator/registry/ingest-pool.ts';
import { contentDigest, packModule } from '../../src/registry/pack.ts';
import { createModule, providersFor, publishVersion, REQUESTS_PER_VERSION, versionDocument } from '../kinds.ts';
import { type EmulatorProcess, UNLIMITED, withEmulator } from '../lib/emulator.ts';
import { ADAPTIVE, desiredFrom, fixed, type Mode, timedApply, timedPlan } from '../lib/engine.ts';
import { writeManifests } from '../lib/manifests.ts';
import { ROOT, tempDir } from '../lib/paths.ts';
import { type Checked, fmt, mark, median, quantile, ratio, round, type SuiteOptions } from '../lib/report.ts';
import { warmUp } from '../lib/warm-up.ts';

export interface PublishRun {
  module: string;
  mode: string;
  phase: 'plan' | 'apply';
  versions: number;
  latencyMs: number;
  /** Requests the emulator counted. */
  requests: number;
  /** The fewest the phase can make: the module list; 3 per version. */
  lowerBound: number;
  wallMs: number;
  peakWindow: number;
  meanWindow: number;
  /** From the start of the phase to its first request (a plan packs the declared directories first). */
  firstRequestMs: number;
  /** CPU time of the client (this process) during the phase. */
  clientCpuMs: number;
  /** CPU time of the emulator process during the phase; null where the OS does not tell. */
  emulatorCpuMs: number | null;
}

export interface PublishResult {
  /** The module every version is packed from. */
  module: string;
  versions: number;
  latencyMs: number;
  /** Median wall of the adaptive applies. */
  applyMs: number;
  /** Median wall of the adaptive plans (one request; the declared directory is packed once for every version's digest). */
  planMs: number;
  /** Apply requests x latency / 10, never less than one version's chain (3 x latency). */
  idealMs: number;
  /** The same at the window's ceiling (64): what no window that has to open can reach; informative. */
  ceilingMs: number;
  vsIdeal: number;
  vsCeiling: number;
  /**
   * CPU the emulator spends reading one upload (`ingestModule`, measured in
   * this process, median). Its `ingestWorkers` threads read them in parallel,
   * each before the PUT is answered, so `versions` of them spread over the
   * workers are a floor of the apply that no client can go under (with
   * as many free cores).
   */
  ingestMs: number;
  ingestWorkers: number;
  ingestFloorMs: number;
  /**
   * Wall time to read `versions` uploads handed over at once (median of 5,
   * in this process): through a pool of `ingestWorkers` workers as the
   * emulator reads them, and on the event loop as it did before, when it
   * answered nothing else meanwhile.
   */
  readAllMs: { workers: number; eventLoop: number };
  /** For the realistic module: apply within 1.5 x the ideal. */
  check?: Checked;
}

export interface PackResult {
  files: number;
  /** Bytes of the files packed. */
  inputBytes: number;
  /** Bytes of the gzip tarball. */
  archiveBytes: number;
  repetitions: number;
  /** `packModule`: the archive in memory, as an apply uploads it. */
  packMs: { median: number; p90: number; min: number };
  /** `contentDigest`: the same stream hashed and dropped, as the plan's "content changed" check. */
  digestMs: { median: number; p90: number; min: number };
  /** Input megabytes per second at the median. */
  mbPerSecond: number;
  check: Checked;
}

export interface RegistryResult {
  /** The realistic module (the target), then a one-file module (what is left without the emulator's ingestion). */
  publish: PublishResult[];
  runs: PublishRun[];
  pack: PackResult;
}

const VERSIONS = 50;
const LATENCY_MS = 20;
const IDEAL_TARGET = 1.5;
const PACK_TARGET_MS = 1000;
const PUBLISHED_MODULE = 'bench-publish';

export async function registry(options: SuiteOptions): Promise<RegistryResult> {
  const dir = await tempDir('registry');
  await warmUp();
  const minimal = join(dir, 'minimal-module');
  await mkdir(minimal, { recursive: true });
  await writeFile(join(minimal, 'main.tf'), 'variable "name" {\n  type = string\n}\n');
  const runs: PublishRun[] = [];
  const publish = [
    await publishing(
      dir,
      options,
      { label: 'examples/modules/network', source: join(ROOT, 'examples/modules/network'), target: true },
      runs,
    ),
    await publishing(dir, options, { label: 'one variable (main.tf)', source: minimal, target: false }, runs),
  ];
  const pack = await packing(dir, options);
  return { publish, runs, pack };
}

interface Published {
  label: string;
  source: string;
  /** The module the target is about; the other is the control. */
  target: boolean;
}

async function publishing(
  dir: string,
  options: SuiteOptions,
  module: Published,
  all: PublishRun[],
): Promise<PublishResult> {
  const versions = Array.from({ length: VERSIONS }, (_, i) => `1.${Math.floor(i / 10)}.${i % 10}`);
  const manifests = await writeManifests(join(dir, `publish-${all.length}`), [
    versionDocument(PUBLISHED_MODULE, versions, module.source),
  ]);
  // the minimal module is made beside the manifests' directory
  const desired = await desiredFrom(manifests, [dir]);
  const providers = providersFor([]);
  // adaptive is the default and the target; --parallelism 10 is the ideal's window, 1 the serial time
  const modes: Array<{ mode: Mode; repetitions: number }> = options.quick
    ? [{ mode: ADAPTIVE, repetitions: 1 }]
    : [
        { mode: ADAPTIVE, repetitions: 5 },
        ...(module.target
          ? [
              { mode: fixed(10), repetitions: 3 },
              { mode: fixed(1), repetitions: 1 },
            ]
          : []),
      ];
  const { bytes } = await packModule(module.source);
  const runs: PublishRun[] = [];
  for (const { mode, repetitions } of modes) {
    for (let r = 0; r < repetitions; r++) {
      const result = await withEmulator(
        {
          dir,
          latencyMs: LATENCY_MS,
          raiseLimitTo: UNLIMITED,
          populate: async ({ platform }) => {
            // the module exists, without versions: the run publishes them, nothing else
            await createModule(platform, PUBLISHED_MODULE);
            await warmIngestion(platform, bytes);
          },
        },
        (emulator) => publishOnce(emulator, desired, providers, mode, module.label),
      );
      runs.push(...result);
      for (const run of result) {
        options.log(
          `registry publish ${VERSIONS} versions of ${module.label} ${LATENCY_MS} ms ${mode.name} ${run.phase}: ` +
            `${fmt(run.wallMs)} ms, ${run.requests} requests (bound ${run.lowerBound}), ` +
            `first after ${fmt(run.firstRequestMs)} ms, window up to ${run.peakWindow} (mean ${run.meanWindow}), ` +
            `CPU client ${fmt(run.clientCpuMs)} ms emulator ${run.emulatorCpuMs === null ? '-' : fmt(run.emulatorCpuMs)} ms`,
        );
      }
    }
  }
  all.push(...runs);
  const adaptive = (phase: 'plan' | 'apply') =>
    runs.filter((r) => r.mode === ADAPTIVE.name && r.phase === phase).map((r) => r.wallMs);
  const applyMs = median(adaptive('apply'));
  const requests = REQUESTS_PER_VERSION * VERSIONS;
  const chainMs = REQUESTS_PER_VERSION * LATENCY_MS;
  const idealMs = Math.max((requests * LATENCY_MS) / ADAPTIVE.concurrency.initial, chainMs);
  const ceilingMs = Math.max((requests * LATENCY_MS) / ADAPTIVE.concurrency.max, chainMs);
  const vsIdeal = ratio(applyMs, idealMs);
  const ingestMs = await ingestion(module.source);
  const workers = ingestPoolSize();
  const readAllMs = await readingAll(module.source, workers);
  const check = module.target ? { target: `<= ${IDEAL_TARGET} x ideal`, met: vsIdeal <= IDEAL_TARGET } : undefined;
  options.log(
    `registry publish ${VERSIONS} versions of ${module.label}: apply ${fmt(applyMs)} ms, ` +
      `${vsIdeal} x the ideal of ${fmt(idealMs)} ms${check ? ` (${mark(check)})` : ''}, ` +
      `${ratio(applyMs, ceilingMs)} x the ceiling's ${fmt(ceilingMs)} ms; ` +
      `the emulator reads an upload in ${fmt(ingestMs, 1)} ms (${fmt((ingestMs * VERSIONS) / workers)} ms for all ` +
      `on ${workers} workers); ${VERSIONS} at once take ${fmt(readAllMs.workers)} ms on the workers, ` +
      `${fmt(readAllMs.eventLoop)} ms on the event loop`,
  );
  return {
    module: module.label,
    versions: VERSIONS,
    latencyMs: LATENCY_MS,
    applyMs: round(applyMs),
    planMs: round(median(adaptive('plan'))),
    idealMs: round(idealMs),
    ceilingMs: round(ceilingMs),
    vsIdeal,
    vsCeiling: ratio(applyMs, ceilingMs),
    ingestMs: round(ingestMs),
    ingestWorkers: workers,
    ingestFloorMs: round((ingestMs * VERSIONS) / workers),
    readAllMs,
    ...(check && { check }),
  };
}

/**
 * Uploads the emulator reads before anything is measured: each worker of a
 * fresh emulator process loads hcl2json's WebAssembly on its first upload
 * (about 0.25 s of CPU) and compiles its code over the next few dozen; a
 * registry that has been up for a while has done both. Versions of another
 * module, outside the stats and without latency (bench/lib/emulator.ts
 * `populate`), one after another: idle workers take turns, so each is warmed.
 */
const WARM_UPLOADS = 50;
const WARM_MODULE = 'bench-warm-up';

async function warmIngestion(platform: HttpClient, bytes: Buffer): Promise<void> {
  await createModule(platform, WARM_MODULE);
  for (let i = 0; i < WARM_UPLOADS; i++) await publishVersion(platform, WARM_MODULE, `0.0.${i}`, bytes);
}

/** `VERSIONS` uploads of `source` read at once: by warmed workers, and on the event loop. */
async function readingAll(source: string, workers: number): Promise<{ workers: number; eventLoop: number }> {
  const { bytes } = await packModule(source);
  const pools = { workers: new IngestPool(workerFile(), workers), eventLoop: new IngestPool(undefined, 1) };
  const ms = { workers: [] as number[], eventLoop: [] as number[] };
  try {
    for (const pool of Object.values(pools)) for (let i = 0; i < WARM_UPLOADS; i++) await pool.ingest(bytes);
    for (let r = 0; r < 5; r++) {
      for (const name of ['workers', 'eventLoop'] as const) {
        const started = performance.now();
        await Promise.all(Array.from({ length: VERSIONS }, () => pools[name].ingest(bytes)));
        ms[name].push(performance.now() - started);
      }
    }
  } finally {
    await pools.workers.close();
  }
  return { workers: round(median(ms.workers)), eventLoop: round(median(ms.eventLoop)) };
}

/** The emulator's CPU to read one upload of `source` once warm (median of 20, after as many untimed as it is warmed with). */
async function ingestion(source: string): Promise<number> {
  const { bytes } = await packModule(source);
  for (let i = 0; i < WARM_UPLOADS; i++) await ingestModule(bytes);
  const ms: number[] = [];
  for (let i = 0; i < 20; i++) {
    const started = performance.now();
    await ingestModule(bytes);
    ms.push(performance.now() - started);
  }
  return median(ms);
}

async function publishOnce(
  emulator: EmulatorProcess,
  desired: Awaited<ReturnType<typeof desiredFrom>>,
  providers: ReturnType<typeof providersFor>,
  mode: Mode,
  module: string,
): Promise<PublishRun[]> {
  const cpu = () => ({ client: process.cpuUsage(), emulator: emulator.cpuMs() });
  const spent = (from: ReturnType<typeof cpu>) => {
    const client = process.cpuUsage(from.client);
    const now = emulator.cpuMs();
    return {
      clientCpuMs: round((client.user + client.system) / 1000),
      emulatorCpuMs: now !== undefined && from.emulator !== undefined ? round(now - from.emulator) : null,
    };
  };
  const beforePlan = cpu();
  const plan = await timedPlan(emulator, desired, providers, mode);
  const planCpu = spent(beforePlan);
  const planRequests = (await emulator.stats()).total;
  await emulator.resetStats();
  const beforeApply = cpu();
  const apply = await timedApply(emulator, plan.run, providers, mode);
  const applyCpu = spent(beforeApply);
  const applyRequests = (await emulator.stats()).total;
  if (apply.failed > 0) throw new Error(`registry publish: ${apply.failed} actions failed`);
  const common = { module, mode: mode.name, versions: VERSIONS, latencyMs: LATENCY_MS };
  return [
    {
      ...common,
      phase: 'plan',
      requests: planRequests,
      lowerBound: 1,
      wallMs: round(plan.ms),
      peakWindow: plan.peakWindow,
      meanWindow: plan.meanWindow,
      firstRequestMs: round(plan.firstRequestMs),
      ...planCpu,
    },
    {
      ...common,
      phase: 'apply',
      requests: applyRequests,
      lowerBound: REQUESTS_PER_VERSION * VERSIONS,
      wallMs: round(apply.ms),
      peakWindow: apply.peakWindow,
      meanWindow: apply.meanWindow,
      firstRequestMs: round(apply.firstRequestMs),
      ...applyCpu,
    },
  ];
}

/** The generated module: 5 MB in a few hundred files. */
const PACK_BYTES = 5 * 2 ** 20;
const PACK_FILES = 320;

async function packing(dir: string, options: SuiteOptions): Promise<PackResult> {
  const moduleDir = join(dir, 'large-module');
  const { files, bytes } = await generateModule(moduleDir, PACK_FILES, PACK_BYTES);
  // the first pack is untimed: it pays for the file system's cache and for compiling the code
  const first = await packModule(moduleDir);
  const repetitions = options.quick ? 3 : 9;
  const timings = async (run: () => Promise<unknown>) => {
    const ms: number[] = [];
    for (let i = 0; i < repetitions; i++) {
      const started = performance.now();
      await run();
      ms.push(performance.now() - started);
    }
    return { median: round(median(ms)), p90: round(quantile(ms, 0.9)), min: round(Math.min(...ms)) };
  };
  const packMs = await timings(() => packModule(moduleDir));
  const digestMs = await timings(() => contentDigest(moduleDir));
  const check = { target: `< ${PACK_TARGET_MS} ms`, met: packMs.median < PACK_TARGET_MS };
  const result: PackResult = {
    files: first.files.length,
    inputBytes: bytes,
    archiveBytes: first.size,
    repetitions,
    packMs,
    digestMs,
    mbPerSecond: round(bytes / 2 ** 20 / (packMs.median / 1000)),
    check,
  };
  if (first.files.length !== files)
    throw new Error(`registry pack: ${first.files.length} files packed, ${files} written`);
  options.log(
    `registry pack ${files} files ${fmt(bytes / 2 ** 20, 1)} MB -> ${fmt(first.size / 2 ** 20, 2)} MB: ` +
      `median ${fmt(packMs.median)} ms (p90 ${fmt(packMs.p90)}), digest ${fmt(digestMs.median)} ms (${mark(check)})`,
  );
  return result;
}

/** A seeded generator: the same module on every run. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

/**
 * A module as large ones are: a root module, nested modules, examples and
 * tests, mostly HCL whose blocks differ in names, counts and values (so that
 * it compresses as real configuration does, not as repeated text), written
 * into `dir`. Returns how many files and bytes.
 */
async function generateModule(dir: string, count: number, total: number): Promise<{ files: number; bytes: number }> {
  const next = random(42);
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)] as T;
  const word = () =>
    pick(['network', 'subnet', 'bucket', 'policy', 'role', 'record', 'zone', 'queue', 'table', 'cluster', 'node']);
  const hex = (length: number) => Array.from({ length }, () => Math.floor(next() * 16).toString(16)).join('');
  const block = (i: number) => {
    const name = `${word()}_${word()}_${i}`;
    const lines = [
      `resource "aws_${word()}_${word()}" "${name}" {`,
      `  name        = "\${var.prefix}-${name}"`,
      `  description = "Managed ${word()} ${word()} for the ${word()} tier (${hex(8)})"`,
      `  count       = var.enable_${word()} ? ${1 + Math.floor(next() * 5)} : 0`,
      '  tags = merge(var.tags, {',
      `    Component = "${word()}"`,
      `    Revision  = "${hex(12)}"`,
      '  })',
    ];
    for (let j = 0, n = 2 + Math.floor(next() * 6); j < n; j++) {
      lines.push(
        `  ${word()}_${word()} = ${pick([`"${hex(16)}"`, String(Math.floor(next() * 65_536)), 'true', `var.${word()}_${word()}`])}`,
      );
    }
    lines.push('}', '');
    return lines.join('\n');
  };
  const paths = [
    'main.tf',
    'variables.tf',
    'outputs.tf',
    'versions.tf',
    'README.md',
    ...Array.from({ length: count - 5 }, (_, i) => {
      const area = ['modules', 'examples', 'tests'][i % 3] as string;
      return area === 'tests'
        ? `tests/${word()}_${i}.tftest.hcl`
        : `${area}/${word()}-${Math.floor(i / 12)}/${['main', 'variables', 'outputs', 'data'][i % 4]}_${i}.tf`;
    }),
  ];
  const per = Math.floor(total / paths.length);
  let bytes = 0;
  for (const [i, path] of paths.entries()) {
    const parts: string[] = [];
    let size = 0;
    for (let b = 0; size < per; b++) {
      const text = path.endsWith('.md')
        ? `## ${word()} ${word()}\n\nSee \`${word()}_${hex(6)}\`.\n\n`
        : block(i * 1000 + b);
      parts.push(text);
      size += Buffer.byteLength(text);
    }
    const file = join(dir, path);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, parts.join(''));
    bytes += size;
  }
  return { files: paths.length, bytes };
}
