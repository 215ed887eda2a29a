import type { Metadata } from '../reconcile/types.ts';

/**
 * What the manifest loader needs to know about kinds. The provider registry
 * implements it; the loader never imports providers, so it stays testable
 * with a small fake.
 */
export interface KindCatalog {
  readonly kinds: readonly string[];
  /** Identity inside the kind, from validated metadata (defaults applied); '' for singletons. */
  identity(kind: string, metadata: Metadata): string;
  singleton(kind: string): boolean;
}
