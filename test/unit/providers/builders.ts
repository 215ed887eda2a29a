/** Tiny builders for provider tests: plain data, no network. */
import type { DesiredObject, Fields, LiveObject } from '../../../src/reconcile/types.ts';

export function desired(kind: string, name: string, spec: Fields): DesiredObject {
  return {
    kind,
    id: name,
    metadata: name ? { name } : {},
    ensure: 'present',
    spec,
    secretFields: [],
    source: { file: 'm.yaml', line: 1, col: 1 },
    positions: {},
  };
}

export function live(kind: string, id: string, ref: string, fields: Fields): LiveObject {
  return { kind, id, ref, fields };
}
