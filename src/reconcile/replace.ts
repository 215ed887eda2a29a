/**
 * Replacements that cannot lose an object (docs/architecture.md, "Executing"
 * and "Planning rules"): how the plan decides to run one, pure and without
 * the HTTP layer (src/reconcile/replace-run.ts runs it). A replacement whose
 * create fails must not leave the address empty without saying so:
 * - `create-first`: the API lets the new object exist beside the old one, so
 *   the new one is created before the old one is deleted;
 * - `restore`: same address, so the old one is deleted first; when the create
 *   fails, the previous object is created again from what was read;
 * - `delete-first`: neither is possible (a write-only field was never read
 *   back): the plan says so, and apply needs --allow-replace.
 */
import { capabilities, type Provider } from './provider.ts';
import type { LiveObject, PlannedAction } from './types.ts';

export type ReplaceSafety = { mode: 'create-first' } | { mode: 'restore' } | { mode: 'delete-first'; why: string };

/** What is live at the address after a replacement failed. */
export type LiveAfterFailure = 'previous' | 'restored' | 'absent' | 'unknown' | 'both';

/** `live` is one the plan read: an object listed but not read is a plan problem, never a replacement. */
export function replaceSafety(provider: Provider, live: LiveObject): ReplaceSafety {
  if (provider.createsBeside) return { mode: 'create-first' };
  const why =
    provider.unrestorable?.(live) ??
    // toManifest (the export capability) is how what was read becomes something to create
    (capabilities(provider).export ? undefined : 'converge cannot write it from what it read');
  return why === undefined ? { mode: 'restore' } : { mode: 'delete-first', why };
}

/** The risk of a replacement that deletes first and cannot restore, as the plan and the consent name it. */
export function replaceRisk(why: string): string {
  return `the object is deleted before the new one is created and cannot be put back if the create fails (${why})`;
}

/**
 * What a replacement destroys beyond the change, as the plan and the consent name it: more than
 * the object (the kind's replaceConsent), or the object itself when it cannot be put back.
 */
export function replaceRisks(provider: Provider | undefined, action: Pick<PlannedAction, 'unrestorable'>): string[] {
  return [
    ...(provider?.replaceConsent !== undefined ? [provider.replaceConsent] : []),
    ...(action.unrestorable !== undefined ? [replaceRisk(action.unrestorable)] : []),
  ];
}
