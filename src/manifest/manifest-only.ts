/**
 * Documents that are part of the manifests but are not objects of any API
 * (docs/policies.md): they are read, positioned and checked against their
 * schema like every document, then handed to the part of converge that uses
 * them, never to a provider. A new such kind is one name here and its schema
 * under schemas/.
 */
import type { DesiredObject, Position } from '../reconcile/types.ts';

export const MANIFEST_ONLY_KINDS: readonly string[] = ['Policy', 'Variable'];

export function isManifestOnly(kind: string): boolean {
  return MANIFEST_ONLY_KINDS.includes(kind);
}

/**
 * Manifest-only kinds a later path argument may patch or remove, by `metadata.name`, as it does
 * an API object (docs/environments.md, "Overlays"): they go through the same overlay pass as a
 * DesiredObject, whose address is the kind and the name. A Variable is not one: its value is
 * what an environment changes (`--var`, values files).
 */
const OVERLAID_KINDS: readonly string[] = ['Policy'];

export function isOverlaid(kind: string): boolean {
  return OVERLAID_KINDS.includes(kind);
}

/** A document as the overlay pass sees it: spec as written for a patch, with schema defaults otherwise. */
export function overlaidObject(document: ManifestOnlyDocument, spec: unknown): DesiredObject {
  const metadata = (document.data.metadata ?? {}) as DesiredObject['metadata'];
  return {
    kind: document.kind,
    address: { kind: document.kind, name: document.name },
    metadata,
    ensure: document.data.ensure === 'absent' ? 'absent' : 'present',
    spec: (spec ?? {}) as DesiredObject['spec'],
    secretFields: [],
    source: document.source,
    positions: document.positions,
  };
}

/** An object the overlay pass kept, a document again: `data` is what the schema validated (defaults filled). */
export function overlaidDocument(object: DesiredObject, data: Record<string, unknown>): ManifestOnlyDocument {
  return { kind: object.kind, name: object.address.name, data, source: object.source, positions: object.positions };
}

/** A manifest-only document, valid against its kind's schema (schema defaults filled in). */
export interface ManifestOnlyDocument {
  kind: string;
  /** `metadata.name` (every manifest-only kind has one). */
  name: string;
  data: Record<string, unknown>;
  /** Where the document starts. */
  source: Position;
  /** Positions of values by dotted path (`spec.rule`). */
  positions: Record<string, Position>;
}
