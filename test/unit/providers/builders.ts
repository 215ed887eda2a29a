/** Tiny builders for provider tests: plain data, no network. */
import type { DesiredObject, Fields, LiveObject } from '../../../src/reconcile/types.ts';

export function desired(kind: string, name: string, spec: Fields): DesiredObject {
  return {
    kind,
    address: { kind, name },
    metadata: name ? { name } : {},
    ensure: 'present',
    spec,
    secretFields: [],
    source: { file: 'm.yaml', line: 1, col: 1 },
    positions: {},
  };
}

export function live(kind: string, name: string, ref: string, fields: Fields): LiveObject {
  return { kind, address: { kind, name }, ref, fields };
}
