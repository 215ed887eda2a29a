/**
 * Rate limits: the emulator enforces the platform's `api-rate-limit` per
 * token in one-second windows (30 by default). A plan that needs many reads
 * runs against it; we count the 429s (target: at most the first one) and the
 * throughput (target: at least 0.9 x the limit). The second run raises the
 * limit to 60 on the server only: the client must learn it from the
 * `X-RateLimit-Limit` header.
 */
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { KINDS, providersFor, scaleKind } from '../kinds.ts';
import { type PopulateClients, UNLIMITED, withEmulator } from '../lib/emulator.ts';
import { ADAPTIVE, desiredFrom, timedPlan } from '../lib/engine.ts';
import { writeManifests } from '../lib/manifests.ts';
import { tempDir } from '../lib/paths.ts';
import { atLeast, atMost, type Checked, mark, round, type SuiteOptions } from '../lib/report.ts';

export interface RateLimitRun {
  /** The server's limit, requests per second per token. */
  limit: number;
  kind: string;
  objects: number;
  requests: number;
  /** 429s the emulator's rate limit answered. */
  rateLimited: number;
  wallMs: number;
  /** Answered requests (not 429) per second of wall time. */
  throughput: number;
  throughputVsLimit: number;
  tooManyRequests: Checked;
  rate: Checked;
}

export interface RateLimitResult {
  runs: RateLimitRun[];
}

export async function rateLimit(options: SuiteOptions): Promise<RateLimitResult> {
  const seconds = options.quick ? 1.5 : 10;
  const dir = await tempDir('rate-limit');
  // a platform kind: the platform API advertises its rate limit, the secrets API has none
  const kind = KINDS.find((k) => k.name === 'ModuleTestVariable') ?? scaleKind();
  const providers = providersFor([kind]);
  // how many plan requests one declared object costs, so that a run lasts about `seconds`
  const perObject = kind.planBound(1000) / 1000;
  const runs: RateLimitRun[] = [];
  for (const limit of options.quick ? [30] : [30, 60]) {
    // enough requests for `seconds` at the limit
    const n = Math.round((limit * seconds) / perObject);
    const desired = await desiredFrom(await writeManifests(join(dir, `${kind.name}-${n}`), kind.documents(n)));
    const launch = {
      dir,
      seed: kind.seed(n),
      // live objects written through the API go in unlimited; the limit under test is set afterwards
      ...(kind.populate && {
        raiseLimitTo: UNLIMITED,
        populate: (clients: PopulateClients) => kind.populate!(clients, n),
      }),
    };
    await withEmulator(launch, async (emulator) => {
      if (limit !== 30 || kind.populate) await emulator.setRateLimit(limit);
      // a fresh one-second window, and no count of the set-up
      await delay(1100);
      await emulator.resetStats();
      const plan = await timedPlan(emulator, desired, providers, ADAPTIVE);
      const stats = await emulator.stats();
      const answered = stats.total - stats.rateLimited;
      const throughput = answered / (plan.ms / 1000);
      const run: RateLimitRun = {
        limit,
        kind: kind.name,
        objects: n,
        requests: stats.total,
        rateLimited: stats.rateLimited,
        wallMs: round(plan.ms),
        throughput: round(throughput),
        throughputVsLimit: Math.round((throughput / limit) * 100) / 100,
        tooManyRequests: atMost(stats.rateLimited, 1, ' (429s)'),
        rate: atLeast(round(throughput), 0.9 * limit, ' requests/s'),
      };
      runs.push(run);
      options.log(
        `rate limit ${limit}/s: ${run.requests} requests in ${round(plan.ms)} ms = ${run.throughput}/s ` +
          `(${mark(run.rate)} ${run.rate.target}), ${run.rateLimited} x 429 (${mark(run.tooManyRequests)})`,
      );
    });
  }
  return { runs };
}
