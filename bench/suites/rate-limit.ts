/**
 * Rate limits, as whole `converge plan` processes (from source; in a smoke
 * run, from the build where there is one) against the emulator, which
 * enforces the platform's `api-rate-limit` per token in one-second windows
 * (30 by default) and advertises it in `X-RateLimit-*` headers.
 *
 * - Sustained: a plan that needs about 10 s of requests at the limit, at 30
 *   and at 60 (raised on the server only: the client learns it from the
 *   headers). The 429s (target: at most the first) and the throughput of
 *   the read phase (target: at least 0.95 x the limit).
 * - Burst: a plan of 2,500 live tool versions (25 list pages: the first,
 *   then the others together) fits in one window of 30, so it goes at once:
 *   its read phase at the default 30/s against a server advertising a high
 *   limit, median of runs (target: within 1.25 x), and the processes' wall
 *   clocks beside.
 * - Silent: the sustained plan of 30/s against a server that advertises
 *   nothing and never answers 429 (rate limiting off). The client assumes
 *   the platform's minimum of 30/s at first; it must not stay there (target:
 *   at least twice the assumed rate over the plan). And against a server
 *   that enforces 30/s but advertises nothing (the emulator behind a proxy
 *   that drops the headers): 429s (target: one wave) and throughput.
 */
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { KINDS, scaleKind } from '../kinds.ts';
import { cliMains, cliPlan } from '../lib/cli-plan.ts';
import { type EmulatorProcess, type PopulateClients, UNLIMITED, withEmulator } from '../lib/emulator.ts';
import { writeManifests } from '../lib/manifests.ts';
import { MAIN, tempDir } from '../lib/paths.ts';
import { atLeast, atMost, bySize, type Checked, mark, median, ratio, round, type SuiteOptions } from '../lib/report.ts';
import { silentProxy } from '../lib/silent-proxy.ts';

export interface RateLimitRun {
  /** The server's limit, requests per second per token. */
  limit: number;
  /** Whether the server sent X-RateLimit-* headers. */
  advertised: boolean;
  kind: string;
  objects: number;
  requests: number;
  /** 429s the emulator's rate limit answered. */
  rateLimited: number;
  /** Spawn to exit. */
  wallMs: number;
  /** The plan's read phase, as the process reports it. */
  readMs: number;
  /** Answered requests (not 429) per second of the read phase. */
  throughput: number;
  throughputVsLimit: number;
  tooManyRequests: Checked;
  rate: Checked;
}

export interface BurstRun {
  kind: string;
  objects: number;
  requests: number;
  /** Median wall clock (spawn to exit) at the platform's default limit, and each run. */
  atLimitMs: number;
  atLimitRunsMs: number[];
  /** Median wall clock against a server advertising a high limit. */
  highLimitMs: number;
  highLimitRunsMs: number[];
  /** Median read phase (the part the limit can slow) at the default limit, and against the high one. */
  atLimitReadMs: number;
  highLimitReadMs: number;
  rateLimited: number;
  /** Read phase at the default limit over read phase at the high one: the target. */
  vsHighLimit: number;
  wallVsHighLimit: number;
  check: Checked;
}

export interface SilentRun {
  kind: string;
  objects: number;
  requests: number;
  /** The rate converge assumes of the platform API until told (src/api/profiles.ts). */
  assumedRate: number;
  wallMs: number;
  readMs: number;
  throughput: number;
  vsAssumed: number;
  check: Checked;
}

export interface RateLimitResult {
  runs: RateLimitRun[];
  burst?: BurstRun;
  silent?: SilentRun;
}

const DEFAULT_LIMIT = 30;
const SUSTAINED_SHARE = 0.95;
const BURST_TARGET = 1.25;
/** A 429 wave: the requests in flight when the first 429 comes back. */
const ONE_WAVE = 5;

export async function rateLimit(options: SuiteOptions): Promise<RateLimitResult> {
  // a smoke run: still more requests than one window of 30 holds, from the build where there is one
  const seconds = bySize(options, 10, 1.5, 1.2);
  const main = options.smoke ? (cliMains(true)[0]?.main ?? MAIN) : MAIN;
  const dir = await tempDir('rate-limit');
  const runs: RateLimitRun[] = [];
  // a platform kind, one request per module: the platform API advertises its limit, the secrets API has none
  const kind = KINDS.find((k) => k.name === 'ModuleTestVariable') ?? scaleKind();
  const perObject = kind.planBound(1000) / 1000;
  const objectsFor = (limit: number) => Math.round((limit * seconds) / perObject);
  const manifestsFor = async (n: number) => writeManifests(join(dir, `${kind.name}-${n}`), kind.documents(n));
  const launch = (n: number, enforce: boolean) => ({
    dir,
    seed: kind.seed(n),
    rateLimit: enforce,
    inProcess: options.smoke,
    // live objects written through the API go in unlimited; the limit under test is set afterwards
    ...(kind.populate && {
      raiseLimitTo: UNLIMITED,
      populate: (clients: PopulateClients) => kind.populate!(clients, n),
    }),
  });

  const sustained = async (limit: number, advertised: boolean) => {
    const n = objectsFor(limit);
    const manifests = await manifestsFor(n);
    await withEmulator(launch(n, true), async (emulator) => {
      if (limit !== DEFAULT_LIMIT || kind.populate) await emulator.setRateLimit(limit);
      const proxy = advertised ? undefined : await silentProxy(emulator.url);
      try {
        // a fresh one-second window, and no count of the set-up
        await delay(1100);
        const target: EmulatorProcess = proxy ? { ...emulator, url: proxy.url } : emulator;
        const plan = await cliPlan(target, main, manifests, dir);
        const readMs = plan.readMs ?? plan.wallMs;
        const throughput = (plan.requests - plan.rateLimited) / (readMs / 1000);
        const run: RateLimitRun = {
          limit,
          advertised,
          kind: kind.name,
          objects: n,
          requests: plan.requests,
          rateLimited: plan.rateLimited,
          wallMs: plan.wallMs,
          readMs,
          throughput: round(throughput),
          throughputVsLimit: ratio(throughput, limit),
          tooManyRequests: advertised
            ? atMost(plan.rateLimited, 1, ' (429s)')
            : atMost(plan.rateLimited, ONE_WAVE, ' (429s: one wave)'),
          rate: atLeast(round(throughput), round(SUSTAINED_SHARE * limit), ' requests/s'),
        };
        runs.push(run);
        options.log(
          `rate limit ${limit}/s${advertised ? '' : ' (not advertised)'}: ${run.requests} requests, read in ${readMs} ms ` +
            `= ${run.throughput}/s (${mark(run.rate)} ${run.rate.target}), ${run.rateLimited} x 429 ` +
            `(${mark(run.tooManyRequests)}), process ${run.wallMs} ms`,
        );
      } finally {
        await proxy?.close();
      }
    });
  };

  for (const limit of options.quick ? [DEFAULT_LIMIT] : [DEFAULT_LIMIT, 60]) await sustained(limit, true);
  // a smoke run proves the harness's rate-limited run; the burst and the silent server are the same plan
  if (options.smoke) return { runs };
  const burst = await burstRun(dir, options);
  const silent = await silentRun(kind.name, objectsFor(DEFAULT_LIMIT), manifestsFor, launch, dir, options);
  if (!options.quick) await sustained(DEFAULT_LIMIT, false);
  return { runs, burst, silent };
}

/** 2,500 live tool versions, planned at the default limit and at a high one, runs interleaved. */
async function burstRun(dir: string, options: SuiteOptions): Promise<BurstRun> {
  const live = options.quick ? 1000 : 2500;
  const repeats = options.quick ? 1 : 3;
  const kind = KINDS.find((k) => k.name === 'ToolVersion');
  if (!kind) throw new Error('no ToolVersion bench kind');
  // the first half of 2N documents is the live half: N updates
  const manifests = await writeManifests(join(dir, `burst-${live}`), kind.documents(2 * live).slice(0, live));
  const atLimit: number[] = [];
  const high: number[] = [];
  const atLimitRead: number[] = [];
  const highRead: number[] = [];
  let requests = 0;
  let rateLimited = 0;
  await withEmulator({ dir, seed: kind.seed(2 * live) }, async (limited) => {
    await withEmulator({ dir, seed: kind.seed(2 * live), raiseLimitTo: 5000 }, async (fast) => {
      for (let i = 0; i < repeats; i++) {
        for (const [emulator, walls, reads] of [
          [limited, atLimit, atLimitRead],
          [fast, high, highRead],
        ] as const) {
          // a fresh one-second window for the token
          await delay(1100);
          const plan = await cliPlan(emulator, MAIN, manifests, dir);
          walls.push(plan.wallMs);
          reads.push(plan.readMs ?? plan.wallMs);
          if (emulator === limited) {
            requests = plan.requests;
            rateLimited += plan.rateLimited;
          }
        }
      }
    });
  });
  const atLimitMs = round(median(atLimit));
  const highLimitMs = round(median(high));
  const atLimitReadMs = round(median(atLimitRead));
  const highLimitReadMs = round(median(highRead));
  // the read phase, not the wall clock: start-up varies more between runs than the reads do
  const vsHighLimit = ratio(atLimitReadMs, highLimitReadMs);
  const run: BurstRun = {
    kind: kind.name,
    objects: live,
    requests,
    atLimitMs,
    atLimitRunsMs: atLimit,
    highLimitMs,
    highLimitRunsMs: high,
    atLimitReadMs,
    highLimitReadMs,
    rateLimited,
    vsHighLimit,
    wallVsHighLimit: ratio(atLimitMs, highLimitMs),
    check: atMost(vsHighLimit, BURST_TARGET, ' x'),
  };
  options.log(
    `rate limit burst: ${live} live tool versions, ${requests} requests: read ${atLimitReadMs} ms at ` +
      `${DEFAULT_LIMIT}/s vs ${highLimitReadMs} ms at 5,000/s = ${vsHighLimit} x (${mark(run.check)} ` +
      `${run.check.target}); process ${atLimitMs} ms (${atLimit.join(', ')}) vs ${highLimitMs} ms ` +
      `(${high.join(', ')}); ${rateLimited} x 429`,
  );
  return run;
}

/** The 30/s sustained plan against a server with rate limiting off: no headers, no 429. */
async function silentRun(
  kindName: string,
  n: number,
  manifestsFor: (n: number) => Promise<string>,
  launch: (n: number, enforce: boolean) => Parameters<typeof withEmulator>[0],
  dir: string,
  options: SuiteOptions,
): Promise<SilentRun> {
  const manifests = await manifestsFor(n);
  return withEmulator(launch(n, false), async (emulator) => {
    const plan = await cliPlan(emulator, MAIN, manifests, dir);
    const readMs = plan.readMs ?? plan.wallMs;
    const throughput = plan.requests / (readMs / 1000);
    const vsAssumed = ratio(throughput, DEFAULT_LIMIT);
    const run: SilentRun = {
      kind: kindName,
      objects: n,
      requests: plan.requests,
      assumedRate: DEFAULT_LIMIT,
      wallMs: plan.wallMs,
      readMs,
      throughput: round(throughput),
      vsAssumed,
      check: atLeast(vsAssumed, 2, ' x the assumed rate'),
    };
    options.log(
      `rate limit silent server: ${run.requests} requests read in ${readMs} ms = ${run.throughput}/s, ` +
        `${vsAssumed} x the assumed ${DEFAULT_LIMIT}/s (${mark(run.check)} ${run.check.target}), process ${run.wallMs} ms`,
    );
    return run;
  });
}
