/**
 * The clients of a command that talks to the APIs (plan, apply, drift, export), kept apart from
 * the inputs (session.ts) so that `validate`, which sends nothing, loads no HTTP client, rate
 * limiter or fingerprint store (docs/performance.md, "Start-up";
 * test/e2e/startup-modules.test.ts).
 */
import { connectFamily } from '../api/connect.ts';
import { API_NAMES, type ApiName } from '../api/profiles.ts';
import type { ApiClients, HttpClient } from '../api/types.ts';
import type { ConvergeConfig } from '../config/load.ts';
import { providerMap } from '../providers/index.ts';
import { kindOfKey } from '../reconcile/address.ts';
import type { EventStream } from '../reconcile/events.ts';
import { FingerprintStore, type StoreNamespace, serverNamespace } from '../reconcile/fingerprint-store.ts';
import type { SecretPolicy } from '../reconcile/secrets.ts';
import type { CommonFlags } from './flags.ts';
import { watchYoungGeneration } from './young-generation.ts';

/**
 * Requests in flight per API: `--parallelism N` fixes it at N; otherwise an
 * adaptive window starts at the configured `parallelism` and grows while the
 * server answers well, up to `maxParallelism` (see src/api/concurrency.ts).
 */
export function concurrencyOf(config: ConvergeConfig, flags: Pick<CommonFlags, 'parallelism'>) {
  const fixed = flags.parallelism;
  return fixed !== undefined
    ? { initial: fixed, max: fixed }
    : { initial: config.parallelism, max: config.maxParallelism };
}

/** Clients for the APIs the given kinds use; a missing URL or token is a configuration error. */
export function connect(
  config: ConvergeConfig,
  kinds: Iterable<string>,
  events: EventStream,
  concurrency: { initial: number; max: number },
): ApiClients {
  // what the clients read grows the heap from here on
  watchYoungGeneration();
  const needed = new Set([...kinds].map((k) => providerMap.get(k)?.api).filter((a) => a !== undefined));
  const clients: ApiClients = {};
  for (const api of API_NAMES) {
    if (!needed.has(api)) continue;
    clients[api] = connectFamily(api, config[api], {
      concurrency,
      onRetry: (info) => events.emit({ type: 'retry', ...info }),
    });
  }
  return clients;
}

export async function closeClients(clients: ApiClients): Promise<void> {
  await Promise.all(Object.values(clients).map((c: HttpClient) => c.close()));
}

export async function secretPolicy(
  config: ConvergeConfig,
  resend: boolean,
): Promise<{
  policy: SecretPolicy;
  store: FingerprintStore | undefined;
}> {
  if (!config.fingerprints) return { policy: { lookup: undefined, resend }, store: undefined };
  const store = await openFingerprints(config.fingerprints, config);
  const policy: SecretPolicy = {
    lookup: store.lookup,
    resend,
    wasSecret: (key, field) => store.has(key, field),
    // read when a lookup said 'unknown': by then the store has checked that API's token
    get unknownNote() {
      const reason = store.unknownReason;
      return reason && `never sent by converge, as far as it can tell (${reason})`;
    },
  };
  return { policy, store };
}

/** The API connections a store of fingerprints is keyed by: each API's URL and token. */
export type FingerprintConnections = Partial<Record<ApiName, { url: string; token?: string | undefined } | undefined>>;

/**
 * The store of fingerprints at `path`, one namespace per API that has a token, named by its
 * server: an object's fingerprints are kept under the namespace of its kind's API.
 */
export function openFingerprints(path: string, connections: FingerprintConnections): Promise<FingerprintStore> {
  const namespaces = new Map<string, StoreNamespace>();
  for (const api of API_NAMES) {
    const conn = connections[api];
    if (conn?.token) namespaces.set(api, { name: serverNamespace(api, conn.url), token: conn.token });
  }
  return FingerprintStore.open(path, [...namespaces.values()], (objectKey) => {
    const api = providerMap.get(kindOfKey(objectKey))?.api;
    return api === undefined ? undefined : namespaces.get(api)?.name;
  });
}
