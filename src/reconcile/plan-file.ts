/**
 * Saved plans (`plan --out FILE`, `apply FILE`). A plan file holds no secret
 * value: write-only fields are markers, the manifests are re-read at apply
 * time for their values, and a digest of the non-secret desired state plus a
 * fingerprint of every live object the plan touches let apply refuse a plan
 * that went stale.
 */
import type { Provider } from './provider.ts';
import { sha256, stableStringify } from './stable-json.ts';
import type { DesiredObject, Fields, LiveObject, Plan } from './types.ts';

export const PLAN_FORMAT = 'converge-plan';
export const PLAN_VERSION = 1;

export interface SavedPlanOptions {
  prune: boolean;
  targets: string[];
  selectors: Record<string, string>;
  resendSecrets: boolean;
}

export interface SavedPlan {
  format: typeof PLAN_FORMAT;
  version: typeof PLAN_VERSION;
  createdAt: string;
  converge: string;
  /** Absolute paths of the manifests the plan was made from. */
  manifests: string[];
  /** The configuration file used, if any. */
  config?: string;
  options: SavedPlanOptions;
  /** sha256 over the non-secret canonical desired state. */
  desiredDigest: string;
  /** sha256 of each touched live object's canonical fields; null where it did not exist. */
  live: Record<string, string | null>;
  plan: Plan;
}

export function desiredDigest(desired: Iterable<[string, DesiredObject]>, providers: ReadonlyMap<string, Provider>) {
  const entries = [...desired]
    .map(([key, d]) => {
      const provider = providers.get(d.kind);
      const hidden = new Set([...d.secretFields, ...(provider?.writeOnly ?? [])]);
      const fields = provider ? provider.canonicalDesired(d.spec) : d.spec;
      const visible = Object.fromEntries(Object.entries(fields).filter(([k]) => !hidden.has(k)));
      return [key, d.ensure, visible] as const;
    })
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return sha256(stableStringify(entries));
}

export function liveFingerprint(live: LiveObject | undefined, provider: Provider | undefined): string | null {
  if (!live) return null;
  const fields: Fields = live.fields && provider ? provider.canonicalLive(live.fields) : (live.fields ?? {});
  return sha256(stableStringify({ ref: live.ref, fields }));
}

/** Keys whose live object is no longer what the plan saw. */
export function staleObjects(
  saved: SavedPlan,
  liveByKey: ReadonlyMap<string, LiveObject>,
  providers: ReadonlyMap<string, Provider>,
): string[] {
  return Object.entries(saved.live)
    .filter(([key, fingerprint]) => {
      const live = liveByKey.get(key);
      return liveFingerprint(live, live ? providers.get(live.kind) : undefined) !== fingerprint;
    })
    .map(([key]) => key);
}
