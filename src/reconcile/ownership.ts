/**
 * Ownership scopes (docs/architecture.md, "Planning rules"): the only places
 * where --prune may delete. A rule names a kind, optionally a scope
 * (organization, mount: matched against the address's scope) and a glob over
 * the address's name only (`1.*`, `team-*`, `apps/*`).
 */
import type { Address } from './address.ts';
import { matchesNameGlob } from './name-glob.ts';

export interface OwnershipRule {
  kind: string;
  /** Organization or mount; omitted = every scope of the kind. */
  scope?: string;
  /** Glob over the name inside the scope; omitted = every object. */
  name?: string;
}

/** The configuration's `ignore` entry: the fields it names, for the objects it selects as an ownership rule does. */
export interface IgnoreRule extends OwnershipRule {
  fields: string[];
}

export function isOwned(rules: readonly OwnershipRule[], address: Address): boolean {
  return rules.some(
    (rule) =>
      rule.kind === address.kind &&
      (rule.scope === undefined || rule.scope === address.scope) &&
      (rule.name === undefined || matchesNameGlob(address.name, rule.name)),
  );
}
