import type { Address, DesiredObject, Metadata } from '../reconcile/types.ts';

/** A rule the schema cannot say, broken at a spec path (`spec.ttl`). */
export interface SpecProblem {
  path: string;
  message: string;
  /** A place outside the manifest (a line of the template file a value was read from). */
  at?: { file: string; line: number; col: number };
}

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
  /** The rows of a kind's field table by dotted path, which `ignore` patterns must name. */
  fieldPaths?(kind: string): readonly string[] | undefined;
  /**
   * Rules beyond the schema, over one declared object and every other one
   * (`ttl` within `max_ttl`; a role's signer against its mount's CA key).
   */
  check?(object: DesiredObject, all: readonly DesiredObject[]): SpecProblem[];
  /**
   * The kind's keyed lists, by spec path: the field each item is known by (a registry module's
   * `versions`, by `version`). A patch merges such a list item by item; any other list it
   * replaces whole (docs/environments.md, "Overlays").
   */
  listKeys?(kind: string): Readonly<Record<string, string>> | undefined;
}
