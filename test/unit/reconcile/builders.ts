/** Tiny builders for engine tests: plain data, no network. */
import type { Provider, ProviderContext } from '../../../src/reconcile/provider.ts';
import type { DesiredObject, Fields, LiveObject } from '../../../src/reconcile/types.ts';

export function desired(kind: string, id: string, spec: Fields, extra: Partial<DesiredObject> = {}): DesiredObject {
  return {
    kind,
    id,
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
  return { kind, id, ref, fields };
}

/**
 * An in-memory provider: objects live in a Map, so executor tests can check
 * what was created, changed and deleted, and inject failures per id.
 */
export interface MemoryProvider extends Provider {
  objects: Map<string, Fields>;
  calls: string[];
  failOn: Map<string, Error>;
}

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
    singleton: false,
    creatable: true,
    deletePolicy: 'prunable',
    dependsOn: [],
    writeOnly: [],
    immutable: [],
    objects,
    calls,
    failOn,
    identity: (m) => m.name ?? '',
    scope: () => '',
    canonicalDesired: (spec) => ({ enabled: true, ...spec }),
    canonicalLive: (fields) => ({ ...fields }),
    async list(_ctx: ProviderContext) {
      calls.push('list');
      return [...objects].map(([id, fields]) => live(kind, id, fields));
    },
    async create(_ctx, d, fields) {
      calls.push(`create:${d.id}`);
      maybeFail('create', d.id);
      objects.set(d.id, { ...fields });
      return live(kind, d.id, fields);
    },
    async update(_ctx, d, _l, fields) {
      calls.push(`update:${d.id}:${Object.keys(fields).sort().join(',')}`);
      maybeFail('update', d.id);
      objects.set(d.id, { ...objects.get(d.id), ...fields });
    },
    async delete(_ctx, l) {
      calls.push(`delete:${l.id}`);
      maybeFail('delete', l.id);
      objects.delete(l.id);
    },
    toManifest: (l) => ({ kind, metadata: { name: l.id }, spec: l.fields ?? {} }),
    ...overrides,
  };
  return provider;
}
