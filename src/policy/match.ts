/** Whether a policy applies to an object: its kind, its scope (a glob, as `--target`'s) and its labels. */
import { matchesGlob } from 'node:path';
import type { Policy } from './policy.ts';

export interface MatchTarget {
  kind: string;
  scope?: string | undefined;
  labels?: Readonly<Record<string, string>> | undefined;
}

export function policyMatches(policy: Policy, target: MatchTarget): boolean {
  const { kinds, scopes, labels } = policy.match;
  if (!kinds.includes('*') && !kinds.includes(target.kind)) return false;
  if (scopes) {
    const scope = target.scope;
    if (scope === undefined || !scopes.some((s) => s === scope || matchesGlob(scope, s))) return false;
  }
  if (labels) {
    for (const [key, value] of Object.entries(labels)) if (target.labels?.[key] !== value) return false;
  }
  return true;
}
