import type { Address, Metadata } from '../reconcile/types.ts';

/**
 * What the manifest loader needs to know about kinds. The provider registry
 * implements it; the loader never imports providers, so it stays testable
 * with a small fake.
 */
export interface KindCatalog {
  /** The kinds a manifest may declare. */
  readonly kinds: readonly string[];
  /** The address of an object, from validated metadata (defaults applied). */
  address(kind: string, metadata: Metadata): Address;
}
