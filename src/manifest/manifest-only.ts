/**
 * Documents that are part of the manifests but are not objects of any API
 * (docs/policies.md): they are read, positioned and checked against their
 * schema like every document, then handed to the part of converge that uses
 * them, never to a provider. A new such kind is one name here and its schema
 * under schemas/.
 */
import type { Position } from '../reconcile/types.ts';

export const MANIFEST_ONLY_KINDS: readonly string[] = ['Policy', 'Variable'];

export function isManifestOnly(kind: string): boolean {
  return MANIFEST_ONLY_KINDS.includes(kind);
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
