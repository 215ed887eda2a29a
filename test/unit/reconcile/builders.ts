/** Tiny builders for engine tests: plain data, no network. */
import type { Provider, ProviderContext } from '../../../src/reconcile/provider.ts';
import type { DesiredObject, Fields, LiveObject } from '../../../src/reconcile/types.ts';

export function desired(kind: string, id: string, spec: Fields, extra: Partial<DesiredObject> = {}): DesiredObject {
  return {
    kind,
    address: { kind, name: id },
    metadata: id ? { name: id } : {},
    ensure: 'present',
    spec,
    secretFields: [],
    source: { file: 'm.yaml', line: 1, col: 1 },
    positions: {},
    ...extra,
  };
}

export function live(kind: string, id: string, fields: Fields, ref = `ref-${id}`): LiveObject {
  return { kind, address: { kind, name: id }, ref, fields };
}

/**
 * An in-memory provider: objects live in a Map, so executor tests can check
 * what was created, changed and deleted, and inject failures per id.
 */
export type MemoryProvider = Provider &
  Required<Pick<Provider, 'create' | 'update' | 'delete'>> & {
    objects: Map<string, Fields>;
    calls: string[];
    failOn: Map<string, Error>;
  };

export function memoryProvider(kind: string, overrides: Partial<Provider> = {}): MemoryProvider {
  const objects = new Map<string, Fields>();
  const calls: string[] = [];
  const failOn = new Map<string, Error>();
  const maybeFail = (op: string, id: string) => {
    const error = failOn.get(`${op}:${id}`);
    if (error) {
      failOn.delete(`${op}:${id}`);
      throw error;
    }
  };
  const provider: MemoryProvider = {
    kind,
    api: 'platform',
    cardinality: 'many',
    scoped: false,
    updateStyle: 'patch',
    dependsOn: [],
    immutable: [],
    createOnly: [],
    writeOnly: () => [],
    exportedWriteOnly: () => [],
    objects,
    calls,
    failOn,
    address: (m) => ({ kind, name: m.name ?? '' }),
    canonicalDesired: (spec) => ({ enabled: true, ...spec }),
    canonicalLive: (fields) => ({ ...fields }),
    async list(_ctx: ProviderContext) {
      calls.push('list');
      return [...objects].map(([id, fields]) => live(kind, id, fields));
    },
    async create(_ctx, d, fields) {
      const id = d.address.name;
      calls.push(`create:${id}`);
      maybeFail('create', id);
      objects.set(id, { ...fields });
      return live(kind, id, fields);
    },
    async update(_ctx, d, _l, fields) {
      const id = d.address.name;
      calls.push(`update:${id}:${Object.keys(fields).sort().join(',')}`);
      maybeFail('update', id);
      objects.set(id, { ...objects.get(id), ...fields });
    },
    async delete(_ctx, l) {
      const id = l.address.name;
      calls.push(`delete:${id}`);
      maybeFail('delete', id);
      objects.delete(id);
    },
    toManifest: (l) => ({ kind, metadata: { name: l.address.name }, spec: l.fields ?? {} }),
    ...overrides,
  };
  return provider;
}
