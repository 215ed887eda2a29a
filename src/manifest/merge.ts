/**
 * One patch over one value (docs/environments.md, "Overlays"): maps merge key by key, `null`
 * removes a key (as a JSON merge patch, RFC 7386), lists and scalars replace, except a list the
 * kind keys (a module's `versions`, by `version`): its items merge by key, and an item with a new
 * key is added at its end. Pure; says where each part of the result came from, so that a position
 * of the result can be found in the file that set it.
 */
import { isPlainObject } from '../reconcile/equal.ts';
import type { Json } from '../reconcile/types.ts';
import { joinPath } from './paths.ts';

/** Positions under `from` in the base's or the patch's record belong under `to` in the result's. */
export interface Origin {
  to: string;
  side: 'base' | 'patch';
  from: string;
  /** Only the value at `from` itself: what is under it came from elsewhere (a merged map). */
  self?: boolean;
}

/**
 * Where a merge is, in the result (`path`), the base and the patch (document paths: `spec.ttl`);
 * `specPath` is the same place without list indexes, for listKey.
 */
interface Place {
  path: string;
  basePath: string;
  patchPath: string;
  specPath: string;
}

export interface MergeContext {
  /** The key field of the keyed list at a spec path (`versions` -> `version`), if it is keyed. */
  listKey(path: string): string | undefined;
  origins: Origin[];
}

/** `base` and `patch` at their places in `at`. Undefined: the patch removed the value. */
export function mergeValue(base: Json | undefined, patch: Json, at: Place, ctx: MergeContext): Json | undefined {
  if (patch === null) return undefined;
  if (isPlainObject(patch)) {
    const out: { [key: string]: Json } = {};
    const from = isPlainObject(base) ? base : {};
    for (const [key, value] of Object.entries(from)) {
      if (Object.hasOwn(patch, key)) continue;
      out[key] = value;
      ctx.origins.push({ to: joinPath(at.path, key), side: 'base', from: joinPath(at.basePath, key) });
    }
    for (const [key, value] of Object.entries(patch)) {
      const merged = mergeValue(Object.hasOwn(from, key) ? from[key] : undefined, value, child(at, key), ctx);
      if (merged !== undefined) out[key] = merged;
    }
    ctx.origins.push({ to: at.path, side: 'patch', from: at.patchPath, self: true });
    return out;
  }
  const key = Array.isArray(patch) && Array.isArray(base) ? ctx.listKey(at.specPath) : undefined;
  if (key !== undefined && Array.isArray(patch) && Array.isArray(base)) return mergeKeyed(base, patch, key, at, ctx);
  ctx.origins.push({ to: at.path, side: 'patch', from: at.patchPath });
  return patch;
}

/** Items merge by their key; the base's order, then the patch's new items. */
function mergeKeyed(base: Json[], patch: Json[], key: string, at: Place, ctx: MergeContext): Json[] {
  const keyOf = (item: Json): string | undefined =>
    isPlainObject(item) && item[key] !== undefined ? String(item[key]) : undefined;
  const patchIndex = new Map<string, number>();
  patch.forEach((item, j) => {
    const k = keyOf(item);
    if (k !== undefined && !patchIndex.has(k)) patchIndex.set(k, j);
  });
  const out: Json[] = [];
  const used = new Set<number>();
  base.forEach((item, i) => {
    const k = keyOf(item);
    const j = k === undefined ? undefined : patchIndex.get(k);
    const to = joinPath(at.path, out.length);
    if (j === undefined) {
      ctx.origins.push({ to, side: 'base', from: joinPath(at.basePath, i) });
      out.push(item);
      return;
    }
    used.add(j);
    const where = {
      path: to,
      basePath: joinPath(at.basePath, i),
      patchPath: joinPath(at.patchPath, j),
      specPath: at.specPath,
    };
    const merged = mergeValue(item, patch[j] as Json, where, ctx);
    if (merged !== undefined) out.push(merged);
  });
  patch.forEach((item, j) => {
    if (used.has(j)) return;
    ctx.origins.push({ to: joinPath(at.path, out.length), side: 'patch', from: joinPath(at.patchPath, j) });
    out.push(item);
  });
  ctx.origins.push({ to: at.path, side: 'patch', from: at.patchPath, self: true });
  return out;
}

function child(at: Place, key: string) {
  return {
    path: joinPath(at.path, key),
    basePath: joinPath(at.basePath, key),
    patchPath: joinPath(at.patchPath, key),
    specPath: at.specPath === '' ? key : `${at.specPath}.${key}`,
  };
}

/**
 * The result's positions from the origins: each takes the positions at (and, unless `self`,
 * under) its source path. Later origins are more specific or the same, so they win.
 */
export function mergedPositions<V>(
  origins: readonly Origin[],
  base: Record<string, V>,
  patch: Record<string, V>,
): Record<string, V> {
  const out: Record<string, V> = {};
  for (const origin of origins) {
    const record = origin.side === 'base' ? base : patch;
    if (Object.hasOwn(record, origin.from)) out[origin.to] = record[origin.from] as V;
    if (origin.self) continue;
    const prefix = `${origin.from}.`;
    for (const [path, position] of Object.entries(record)) {
      if (path.startsWith(prefix)) out[origin.to + path.slice(origin.from.length)] = position;
    }
  }
  return out;
}
