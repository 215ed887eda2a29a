/**
 * A small in-memory scoped kind for engine tests: objects live per list unit
 * (`org/module` for a kind listed per module, the scope otherwise), every
 * call is recorded, and failures or lost answers can be injected per call.
 */
import { addressKey, unitKey } from '../../../src/reconcile/address.ts';
import { listUnitOf, type Provider } from '../../../src/reconcile/provider.ts';
import type { Address, DesiredObject, Fields, LiveObject } from '../../../src/reconcile/types.ts';

export interface ScopedMemory extends Provider {
  /** Live objects by address key. */
  objects: Map<string, { address: Address; fields: Fields }>;
  calls: string[];
  /** `op:key` -> error thrown once; with `applied: true` the call takes effect first (a lost answer). */
  inject: Map<string, { error: Error; applied?: boolean }>;
}

/** A run without clients: these kinds keep their objects in memory. */
export const run = { clients: {}, signal: new AbortController().signal };

export function lostAnswer(): Error {
  return Object.assign(new Error('connection reset after the request was sent'), { outcome: 'unknown' });
}

export function scopedMemory(kind: string, overrides: Partial<Provider> = {}): ScopedMemory {
  const objects = new Map<string, { address: Address; fields: Fields }>();
  const calls: string[] = [];
  const inject = new Map<string, { error: Error; applied?: boolean }>();
  const unitOf = (provider: Provider, address: Address) => unitKey(listUnitOf(provider, address));
  const effect = (op: string, key: string, change: () => void) => {
    calls.push(`${op}:${key}`);
    const injected = inject.get(`${op}:${key}`);
    if (!injected) return change();
    inject.delete(`${op}:${key}`);
    if (injected.applied) change();
    throw injected.error;
  };
  const toLive = (entry: { address: Address; fields: Fields }): LiveObject => ({
    kind,
    address: entry.address,
    ref: addressKey(entry.address),
    fields: { ...entry.fields },
  });
  const provider: ScopedMemory = {
    kind,
    api: 'secrets',
    cardinality: 'many',
    scoped: true,
    updateStyle: 'patch',
    dependsOn: [],
    immutable: [],
    createOnly: [],
    writeOnly: () => [],
    exportedWriteOnly: () => [],
    objects,
    calls,
    inject,
    address: (m) => ({ kind, scope: m.mount ?? 'default', name: m.name ?? '' }),
    canonicalDesired: (spec) => ({ ...spec }),
    canonicalLive: (fields) => ({ ...fields }),
    async list(_ctx, unit) {
      // a unit under a parent shows as `<scope>/<parent name>`
      calls.push(`list:${unit.parent ? `${unit.scope}/${unit.parent.name}` : unit.scope}`);
      return [...objects.values()].filter((o) => unitOf(provider, o.address) === unitKey(unit)).map(toLive);
    },
    async get(_ctx, address) {
      calls.push(`get:${addressKey(address)}`);
      const found = objects.get(addressKey(address));
      return found ? toLive(found) : undefined;
    },
    async create(_ctx, d: DesiredObject, fields) {
      const key = addressKey(d.address);
      effect('create', key, () => objects.set(key, { address: d.address, fields: { ...fields } }));
      return undefined;
    },
    async update(_ctx, d, _live, fields) {
      const key = addressKey(d.address);
      calls.push(`body:${key}:${Object.keys(fields).sort().join(',')}`);
      const replace = provider.updateStyle === 'replace';
      effect('update', key, () => {
        const before = objects.get(key)?.fields ?? {};
        objects.set(key, { address: d.address, fields: replace ? { ...fields } : { ...before, ...fields } });
      });
    },
    async delete(_ctx, live) {
      const key = addressKey(live.address);
      effect('delete', key, () => objects.delete(key));
    },
    toManifest: (l) => ({ kind, metadata: { name: l.address.name }, spec: l.fields ?? {} }),
    ...overrides,
  };
  return provider;
}

export function put(provider: ScopedMemory, address: Address, fields: Fields): void {
  provider.objects.set(addressKey(address), { address, fields });
}

export function declared(
  kind: string,
  address: Omit<Address, 'kind'>,
  spec: Fields,
  extra: Partial<DesiredObject> = {},
): DesiredObject {
  return {
    kind,
    address: { kind, ...address },
    metadata: { ...(address.scope !== undefined && { mount: address.scope }), name: address.name },
    ensure: 'present',
    spec,
    secretFields: [],
    source: { file: 'm.yaml', line: 1, col: 1 },
    positions: {},
    ...extra,
  };
}
