/**
 * Reads live state: every (kind, list unit) list concurrently, then a full
 * read only for listed objects that need one and whose list entry had no
 * fields (LIST-style APIs). The engine, not the provider, fans the lists out
 * per unit, so every request goes through the shared queue and
 * --parallelism bounds the whole run.
 */
import type PQueue from 'p-queue';
import { type Address, addressKey, type ListUnit, sameAddress, scopeUnit, unitKey } from './address.ts';
import type { EventStream } from './events.ts';
import { listUnitOf, type Provider, type ProviderContext } from './provider.ts';
import type { ContextOf } from './services.ts';
import type { LiveObject } from './types.ts';

export interface ReadRequest {
  provider: Provider;
  /** List units to read (`listUnitOf` of the declared objects), by `unitKey`. */
  units: ReadonlyMap<string, ListUnit>;
  /** Whole scopes to read, for unmanaged objects (--prune, export): each expands to its list units. */
  scopes?: ReadonlySet<string>;
  /** Keys whose full fields are needed; 'all' for export and drift of unmanaged objects. */
  needFields: ReadonlySet<string> | 'all';
}

/** Live objects by kind, then by address key. */
export type LiveState = Map<string, Map<string, LiveObject>>;

/**
 * Told about each object a full read brought back, as its answer arrives
 * (the planner uses it to compare the object while other reads are in flight).
 */
export type OnRead = (kind: string, key: string, live: LiveObject) => void;

export async function readLive(
  requests: readonly ReadRequest[],
  contextOf: ContextOf,
  queue: PQueue,
  events: EventStream,
  onRead?: OnRead,
): Promise<LiveState> {
  const started = Date.now();
  const sent = requestCounter(requests, contextOf);
  events.emit({ type: 'read-start', kinds: requests.map((r) => r.provider.kind) });
  const state: LiveState = new Map();
  await Promise.all(
    requests.map(async ({ provider, units, scopes, needFields }) => {
      const ctx = contextOf(provider);
      const byKey = new Map<string, LiveObject>();
      state.set(provider.kind, byKey);
      // a terminal shows a slow read moving (src/ui/ink/read-view.ts), not a blank screen
      const progress = (done = false) =>
        events.emit({ type: 'read-progress', kind: provider.kind, objects: byKey.size, requests: sent(), done });
      const all = new Map(units);
      const expanded = await Promise.all(
        [...(scopes ?? [])].map((scope) =>
          provider.listUnits ? queue.add(() => provider.listUnits!(ctx, scope)) : Promise.resolve([scopeUnit(scope)]),
        ),
      );
      for (const list of expanded) for (const unit of list ?? []) all.set(unitKey(unit), unit);
      await Promise.all(
        [...all.values()].map(async (unit) => {
          const list = await queue.add(() => provider.list(ctx, unit));
          for (const live of list ?? []) byKey.set(addressKey(live.address), live);
          progress();
        }),
      );
      const toRead = [...byKey].filter(([key, live]) => !live.fields && (needFields === 'all' || needFields.has(key)));
      await eachThroughQueue(queue, toRead, async ([key, live]) => {
        await queue.add(() => readFull(provider, ctx, key, live, byKey, onRead));
        progress();
      });
      progress(true);
    }),
  );
  const objects = [...state.values()].reduce((n, m) => n + m.size, 0);
  events.emit({ type: 'read-done', objects, requests: sent(), elapsedMs: Date.now() - started });
  return state;
}

/**
 * Runs `task` for every item, at most twice the queue's concurrency of them at a time: enough to
 * keep the queue full, never one waiting task per object. Queuing a read per object up front
 * (10,000 for 10,000 SSH roles) kept an async frame, its promises and the queue's entry alive for
 * each until its turn, long enough for the garbage collector to move them all to the old
 * generation, where they were garbage soon after; that grew the heap by megabytes per thousand
 * objects (docs/performance.md, "Memory"). Items start in order, as they did from the queue. The
 * first failure rejects at once, as Promise.all did; the other workers go on with the rest, as
 * the queued tasks did.
 */
async function eachThroughQueue<T>(queue: PQueue, items: readonly T[], task: (item: T) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await task(items[next++] as T);
  };
  const workers = Math.min(items.length, 2 * queue.concurrency);
  await Promise.all(Array.from({ length: workers }, worker));
}

/** Requests the clients of the kinds read have sent since this call; a family without a connection sent none. */
function requestCounter(requests: readonly ReadRequest[], contextOf: ContextOf): () => number {
  const clients = [...new Set(requests.map((r) => r.provider.api))].flatMap((api) => {
    try {
      return [contextOf({ api }).client];
    } catch {
      return []; // its kinds' reads fail with the set-up hint
    }
  });
  const count = () => clients.reduce((n, client) => n + client.stats.requests, 0);
  const before = count();
  return () => count() - before;
}

async function readFull(
  provider: Provider,
  ctx: ProviderContext,
  key: string,
  live: LiveObject,
  byKey: Map<string, LiveObject>,
  onRead: OnRead | undefined,
) {
  if (!provider.read) return;
  const full = await provider.read(ctx, live);
  // listed, then gone before the read: it no longer exists
  if (full) {
    byKey.set(key, full);
    onRead?.(provider.kind, key, full);
  } else byKey.delete(key);
}

/**
 * Reads one object again, with its fields (after an answer was lost);
 * undefined when it does not exist. By address when the provider can
 * (`get`: one request), else by listing its unit.
 */
export async function readBack(
  provider: Provider,
  ctx: ProviderContext,
  address: Address,
): Promise<LiveObject | undefined> {
  if (provider.get) return provider.get(ctx, address);
  const live = (await provider.list(ctx, listUnitOf(provider, address))).find((l) => sameAddress(l.address, address));
  if (!live || live.fields || !provider.read) return live;
  return provider.read(ctx, live);
}
