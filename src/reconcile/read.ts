/**
 * Reads live state: every (kind, scope) list concurrently, then a full read
 * only for listed objects that need one and whose list entry had no fields
 * (LIST-style APIs). Requests go through the shared queue so --parallelism
 * bounds the whole run.
 */
import type PQueue from 'p-queue';
import type { EventStream } from './events.ts';
import type { Provider, ProviderContext } from './provider.ts';
import type { LiveObject } from './types.ts';

export interface ReadRequest {
  provider: Provider;
  scopes: ReadonlySet<string>;
  /** Ids whose full fields are needed; 'all' for export and drift of unmanaged objects. */
  needFields: ReadonlySet<string> | 'all';
}

export type LiveState = Map<string, Map<string, LiveObject>>;

export async function readLive(
  requests: readonly ReadRequest[],
  ctx: ProviderContext,
  queue: PQueue,
  events: EventStream,
): Promise<LiveState> {
  const started = Date.now();
  events.emit({ type: 'read-start', kinds: requests.map((r) => r.provider.kind) });
  const state: LiveState = new Map();
  await Promise.all(
    requests.map(async ({ provider, scopes, needFields }) => {
      const byId = new Map<string, LiveObject>();
      state.set(provider.kind, byId);
      const lists = await Promise.all([...scopes].map((scope) => queue.add(() => provider.list(ctx, scope))));
      for (const list of lists) for (const live of list) byId.set(live.id, live);
      const toRead = [...byId.values()].filter(
        (live) => !live.fields && (needFields === 'all' || needFields.has(live.id)),
      );
      await Promise.all(toRead.map((live) => queue.add(() => readFull(provider, ctx, live, byId))));
      events.emit({ type: 'read-progress', kind: provider.kind, objects: byId.size });
    }),
  );
  const objects = [...state.values()].reduce((n, m) => n + m.size, 0);
  events.emit({ type: 'read-done', objects, elapsedMs: Date.now() - started });
  return state;
}

async function readFull(provider: Provider, ctx: ProviderContext, live: LiveObject, byId: Map<string, LiveObject>) {
  if (!provider.read) return;
  const full = await provider.read(ctx, live);
  // listed, then gone before the read: it no longer exists
  if (full) byId.set(live.id, full);
  else byId.delete(live.id);
}

/** Reads one object again (after an answer was lost); undefined when it does not exist. */
export async function readOne(
  provider: Provider,
  ctx: ProviderContext,
  scope: string,
  id: string,
): Promise<LiveObject | undefined> {
  const live = (await provider.list(ctx, scope)).find((l) => l.id === id);
  if (!live || live.fields || !provider.read) return live;
  return provider.read(ctx, live);
}
