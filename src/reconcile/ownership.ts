/**
 * Ownership scopes (DESIGN §3): the only places where --prune may delete.
 * A rule names a kind, optionally a scope (organization, mount) and a glob
 * on the object's identity.
 */
import { matchesGlob } from 'node:path';

export interface OwnershipRule {
  kind: string;
  /** Organization or mount; omitted = every scope of the kind. */
  scope?: string;
  /** Glob over the identity (`1.*`, `team-*`); omitted = every object. */
  name?: string;
}

export function isOwned(rules: readonly OwnershipRule[], kind: string, scope: string, id: string): boolean {
  return rules.some(
    (rule) =>
      rule.kind === kind &&
      (rule.scope === undefined || rule.scope === scope) &&
      (rule.name === undefined || matchesGlob(id, rule.name)),
  );
}
