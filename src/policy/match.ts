/** Whether a policy applies to an object: its kind, its scope (a glob, as `--target`'s) and its labels. */
import { matchesNameGlob } from '../reconcile/name-glob.ts';
import type { Policy } from './policy.ts';

export interface MatchTarget {
  kind: string;
  scope?: string | undefined;
  labels?: Readonly<Record<string, string>> | undefined;
  /**
   * The object goes away (a prune, `ensure: absent`, a case's `change.action: delete`): only rules
   * over `change` or `live` judge it. A rule over `object` alone is about what is declared to
   * exist, as in `validate`, and would forbid removing the very object that breaks it.
   */
  removal?: boolean;
}

/** Whether a policy is for objects of this kind: named in its `kinds`, or `*`. */
export function matchesKind(policy: Policy, kind: string): boolean {
  const { kinds } = policy.match;
  return kinds.includes('*') || kinds.includes(kind);
}

/** Whether a policy selects beyond the kind (scopes, labels): then each object must be matched. */
export function selectsWithinKind(policy: Policy): boolean {
  return policy.match.scopes !== undefined || policy.match.labels !== undefined;
}

export function policyMatches(policy: Policy, target: MatchTarget): boolean {
  const { scopes, labels } = policy.match;
  if (target.removal && policy.phase === 'validate') return false;
  if (!matchesKind(policy, target.kind)) return false;
  if (scopes) {
    const scope = target.scope;
    if (scope === undefined || !scopes.some((s) => matchesNameGlob(scope, s))) return false;
  }
  if (labels) {
    for (const [key, value] of Object.entries(labels)) if (target.labels?.[key] !== value) return false;
  }
  return true;
}
