/**
 * The engine in-process against a running emulator: manifests -> plan ->
 * apply, the same path the CLI takes, without a child process per step.
 */

import { fileURLToPath } from 'node:url';
import { createHttpClient } from '../../src/api/client.ts';
import type { ApiClients, HttpClient } from '../../src/api/types.ts';
import { defaultRoots, loadManifests } from '../../src/manifest/load.ts';
import { catalog, providerMap } from '../../src/providers/index.ts';
import { applyPlan } from '../../src/reconcile/apply.ts';
import { planRun } from '../../src/reconcile/engine.ts';
import { EventStream, type ReconcileEvent } from '../../src/reconcile/events.ts';
import type { FingerprintStore } from '../../src/reconcile/fingerprint-store.ts';
import type { OwnershipRule } from '../../src/reconcile/ownership.ts';
import type { FingerprintLookup } from '../../src/reconcile/secrets.ts';
import type { DesiredObject, PlannedAction } from '../../src/reconcile/types.ts';

export { providerMap };

export interface Target {
  url: string;
  /** The platform API's token (an administrator's). */
  token: string;
  /** The secrets API's token, when the secrets API is in play (the emulator serves both on one URL). */
  secretsToken?: string;
}

export interface RunOptions {
  env?: Record<string, string | undefined>;
  prune?: boolean;
  ownership?: OwnershipRule[];
  lookup?: FingerprintLookup;
  /** A fingerprint store: plans compare write-only fields with it (unless `lookup` is given), applies record them. */
  fingerprints?: FingerprintStore;
  parallelism?: number;
  /** Client settings for fault tests: a short per-attempt timeout, fewer retries. */
  client?: ClientOptions;
  /** Send write-only fields again whatever the store says (--resend-secrets). */
  resend?: boolean;
}

export interface ClientOptions {
  requestTimeoutMs?: number;
  maxRetries?: number;
  /** Requests per second assumed until the server advertises a limit (default: the client's, 30). 0: none. */
  assumedRateLimit?: number;
  /** Wraps the client: to record the requests providers make, or to lose chosen answers. */
  wrap?: (client: HttpClient) => HttpClient;
}

/**
 * The manifests at `paths`. Module versions may name the example modules wherever the manifests
 * are (a temporary directory): as a configuration's `interpolation.fileRoots` would allow them.
 */
export async function desiredFrom(paths: string[], env: Record<string, string | undefined> = {}) {
  const cwd = process.cwd();
  const roots = [...defaultRoots(paths, cwd), EXAMPLE_MODULES];
  return loadManifests(paths, catalog, { env, cwd, files: { roots } });
}

const EXAMPLE_MODULES = fileURLToPath(new URL('../../examples/modules/', import.meta.url));

export function clientsFor(target: Target, parallelism = 10, options: ClientOptions = {}): ApiClients {
  const make = (api: 'platform' | 'secrets', token: string) => {
    const client = createHttpClient({
      baseUrl: target.url,
      auth: { api, token },
      retryBaseMs: 5,
      retryMaxMs: 50,
      concurrency: { initial: parallelism, max: parallelism },
      ...(options.requestTimeoutMs !== undefined && { requestTimeoutMs: options.requestTimeoutMs }),
      ...(options.maxRetries !== undefined && { maxRetries: options.maxRetries }),
      ...(options.assumedRateLimit !== undefined && { assumedRateLimit: options.assumedRateLimit }),
    });
    return options.wrap ? options.wrap(client) : client;
  };
  return {
    platform: make('platform', target.token),
    ...(target.secretsToken !== undefined && { secrets: make('secrets', target.secretsToken) }),
  };
}

/** Closes every client of a run. */
export async function closeAll(api: ApiClients): Promise<void> {
  await Promise.all([api.platform?.close(), api.secrets?.close()]);
}

export async function plan(target: Target, desired: DesiredObject[], options: RunOptions = {}) {
  const api = clientsFor(target, options.parallelism, options.client);
  try {
    const run = await planRun({
      desired,
      providers: providerMap,
      clients: api,
      signal: new AbortController().signal,
      parallelism: options.parallelism ?? 10,
      events: new EventStream(),
      prune: options.prune ?? false,
      ownership: options.ownership ?? [],
      secrets: { lookup: options.lookup ?? options.fingerprints?.lookup, resend: options.resend ?? false },
      selection: { targets: [], selectors: {} },
    });
    return run;
  } finally {
    await closeAll(api);
  }
}

export async function apply(target: Target, desired: DesiredObject[], options: RunOptions = {}) {
  return applyPlanned(target, await plan(target, desired, options), options);
}

/** Applies a plan already made (`plan` above), as `converge apply` does a saved plan: without reading again. */
export async function applyPlanned(target: Target, run: Awaited<ReturnType<typeof plan>>, options: RunOptions = {}) {
  if (run.problems.length > 0) throw new Error(run.problems.map((p) => p.message).join('\n'));
  const api = clientsFor(target, options.parallelism, options.client);
  const events: ReconcileEvent[] = [];
  const stream = new EventStream();
  stream.on((e) => events.push(e));
  try {
    const summary = await applyPlan(run.plan, {
      providers: providerMap,
      desired: run.desiredByKey,
      live: run.liveByKey,
      clients: api,
      signal: new AbortController().signal,
      parallelism: options.parallelism ?? 10,
      events: stream,
      interrupt: new AbortController().signal,
      ...(options.fingerprints && { fingerprints: options.fingerprints }),
    });
    return { plan: run.plan, summary, events };
  } finally {
    await closeAll(api);
  }
}

/** The actions that change something. */
export function changes(actions: readonly PlannedAction[]): PlannedAction[] {
  return actions.filter((a) => a.action !== 'noop');
}

/** A JSON:API request to the emulator, as someone working behind converge's back would send it. */
export async function api(target: Target, method: string, path: string, body?: unknown) {
  const response = await fetch(`${target.url}/api/v2${path}`, {
    method,
    headers: {
      authorization: `Bearer ${target.token}`,
      'content-type': 'application/vnd.api+json',
    },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : undefined };
}

/** A secrets-API request to the emulator (`/v1` + path), as someone working behind converge's back would send it. */
export async function secrets(target: Target, method: string, path: string, body?: unknown) {
  const response = await fetch(`${target.url}/v1${path}`, {
    method,
    headers: { 'x-service-token': target.secretsToken ?? '', 'content-type': 'application/json' },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : undefined };
}
