/**
 * Plan and apply in-process, through the same code the CLI runs
 * (src/cli/session.ts `connect`, src/reconcile/engine.ts `planRun`,
 * src/reconcile/apply.ts `applyPlan`), timed, with the widest concurrency
 * window the client reached.
 */
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { delegate } from '../../src/api/delegate.ts';
import type { ApiClients, HttpClient } from '../../src/api/types.ts';
import { connect } from '../../src/cli/clients.ts';
import {
  type ConvergeConfig,
  DEFAULT_MAX_DELETES,
  DEFAULT_MAX_PARALLELISM,
  DEFAULT_PARALLELISM,
} from '../../src/config/load.ts';
import { loadManifests } from '../../src/manifest/load.ts';
import { catalog } from '../../src/providers/index.ts';
import { applyPlan } from '../../src/reconcile/apply.ts';
import { type PlanRun, planRun } from '../../src/reconcile/engine.ts';
import { EventStream } from '../../src/reconcile/events.ts';
import type { Provider } from '../../src/reconcile/provider.ts';
import type { DesiredObject } from '../../src/reconcile/types.ts';
import type { EmulatorProcess } from './emulator.ts';
import { ROOT } from './paths.ts';

/** How many requests may fly: the CLI's default (adaptive) or `--parallelism N`. */
export interface Mode {
  name: string;
  concurrency: { initial: number; max: number };
}

export const ADAPTIVE: Mode = {
  name: 'adaptive',
  concurrency: { initial: DEFAULT_PARALLELISM, max: DEFAULT_MAX_PARALLELISM },
};
export const fixed = (n: number): Mode => ({ name: `fixed-${n}`, concurrency: { initial: n, max: n } });

export interface Timed {
  ms: number;
  /** Requests the client sent (retries included). */
  requests: number;
  retries: number;
  rateLimited: number;
  /** The widest the concurrency window got. */
  peakWindow: number;
  /** The window when each request started, averaged over the requests: below the peak when it was cut or ramping. */
  meanWindow: number;
  /** From the start of the phase to its first request: what the engine did before anything went on the wire. */
  firstRequestMs: number;
}

/** Where the time of a plan went: reading live state, then building the plan from it (CPU only). */
export interface PlanPhases {
  /** From the first read to the last answer (`read-start` to `read-done`). */
  readMs: number;
  /** From the last answer to the plan (`read-done` to `plan-ready`): canonical forms and diffs. */
  buildMs: number;
}

/**
 * The manifests in `dir`. Module versions may name the repository's example modules, and
 * directories in `roots`, as a configuration's `interpolation.fileRoots` would allow them.
 */
export async function desiredFrom(dir: string, roots: readonly string[] = []): Promise<DesiredObject[]> {
  const files = { roots: [dir, join(ROOT, 'examples/modules'), ...roots] };
  return loadManifests([dir], catalog, { env: {}, cwd: dir, files });
}

function configFor(emulator: EmulatorProcess): ConvergeConfig {
  const connection = (token: string) => ({
    url: emulator.url,
    token,
    tokenEnv: 'BENCH_TOKEN',
    rateLimit: undefined,
    requestTimeoutMs: undefined,
  });
  return {
    file: undefined,
    platform: connection(emulator.token),
    secrets: connection(emulator.tokens.secrets),
    parallelism: DEFAULT_PARALLELISM,
    maxParallelism: DEFAULT_MAX_PARALLELISM,
    ownership: [],
    ignore: [],
    maxDeletes: DEFAULT_MAX_DELETES,
    fingerprints: undefined,
    interpolation: { fileRoots: [], env: undefined, maxFileBytes: undefined },
  };
}

/** The clients of a run, each watched for the widest window it opens. */
function clientsFor(
  emulator: EmulatorProcess,
  kinds: Iterable<string>,
  providers: ReadonlyMap<string, Provider>,
  mode: Mode,
) {
  const needed = new Set([...kinds].filter((k) => providers.has(k)));
  const raw = connect(configFor(emulator), needed, new EventStream(), mode.concurrency);
  let peak = 0;
  let windows = 0;
  let started = 0;
  let first: number | undefined;
  const watch = (client: HttpClient): HttpClient =>
    delegate(client, async (options) => {
      first ??= performance.now();
      peak = Math.max(peak, client.concurrency);
      windows += client.concurrency;
      started++;
      try {
        return await client.request(options);
      } finally {
        peak = Math.max(peak, client.concurrency);
      }
    });
  const clients: ApiClients = {};
  for (const [api, client] of Object.entries(raw) as Array<[keyof ApiClients, HttpClient]>)
    clients[api] = watch(client);
  const totals = (since: number) => {
    const all = Object.values(clients) as HttpClient[];
    return {
      firstRequestMs: first === undefined ? Number.NaN : first - since,
      requests: all.reduce((n, c) => n + c.stats.requests, 0),
      retries: all.reduce((n, c) => n + c.stats.retries, 0),
      rateLimited: all.reduce((n, c) => n + c.stats.rateLimited, 0),
      peakWindow: peak,
      meanWindow: started > 0 ? Math.round((windows / started) * 10) / 10 : 0,
    };
  };
  const close = () => Promise.all((Object.values(clients) as HttpClient[]).map((c) => c.close()));
  return { clients, totals, close };
}

export async function timedPlan(
  emulator: EmulatorProcess,
  desired: readonly DesiredObject[],
  providers: ReadonlyMap<string, Provider>,
  mode: Mode,
): Promise<Timed & { run: PlanRun; phases: PlanPhases }> {
  const started = performance.now();
  const events = new EventStream();
  const at: Partial<Record<'read-start' | 'read-done' | 'plan-ready', number>> = {};
  events.on((event) => {
    if (event.type === 'read-start' || event.type === 'read-done' || event.type === 'plan-ready')
      at[event.type] = performance.now();
  });
  const { clients, totals, close } = clientsFor(
    emulator,
    desired.map((d) => d.kind),
    providers,
    mode,
  );
  try {
    const run = await planRun({
      desired,
      providers,
      clients,
      signal: new AbortController().signal,
      // as the CLI: the clients' windows decide, the queue must not be the bottleneck
      parallelism: mode.concurrency.max,
      events,
      prune: false,
      ownership: [],
      secrets: { lookup: undefined, resend: false },
      selection: { targets: [], selectors: {} },
    });
    if (run.problems.length > 0) throw new Error(run.problems.map((p) => p.message).join('\n'));
    await close();
    const span = (from: number | undefined, to: number | undefined) =>
      from !== undefined && to !== undefined ? to - from : Number.NaN;
    const phases = {
      readMs: span(at['read-start'], at['read-done']),
      buildMs: span(at['read-done'], at['plan-ready']),
    };
    return { ms: performance.now() - started, ...totals(started), run, phases };
  } catch (error) {
    await close();
    throw error;
  }
}

export async function timedApply(
  emulator: EmulatorProcess,
  run: PlanRun,
  providers: ReadonlyMap<string, Provider>,
  mode: Mode,
): Promise<Timed & { failed: number; done: number }> {
  const started = performance.now();
  const { clients, totals, close } = clientsFor(
    emulator,
    run.plan.actions.map((a) => a.kind),
    providers,
    mode,
  );
  try {
    const summary = await applyPlan(run.plan, {
      providers,
      desired: run.desiredByKey,
      live: run.liveByKey,
      clients,
      signal: new AbortController().signal,
      parallelism: mode.concurrency.max,
      events: new EventStream(),
      interrupt: new AbortController().signal,
    });
    await close();
    const done = Object.values(summary.done).reduce((n, v) => n + (v ?? 0), 0);
    return { ms: performance.now() - started, ...totals(started), failed: summary.failed.length, done };
  } catch (error) {
    await close();
    throw error;
  }
}
