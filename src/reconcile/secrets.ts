/**
 * Decides which write-only fields an action sends (docs/architecture.md, "Planning rules"). A write-only
 * field cannot be read back, so it is sent on create, and afterwards only when
 * the fingerprint store says its value changed since converge last sent it,
 * when the user asks with --resend-secrets, or, with no store to compare, when
 * the object is written anyway for other fields. Pure: the store is a lookup.
 */
import { getPath } from './field-paths.ts';
import type { Fields, Json } from './types.ts';

/** Why a write-only value is sent when the store says it changed (the planner tells such values apart). */
export const CHANGED = 'changed since last apply';

export type FingerprintVerdict = 'same' | 'changed' | 'unknown';

/** Compares a value with the fingerprint recorded for an object's field. */
export type FingerprintLookup = (objectKey: string, field: string, value: Json) => FingerprintVerdict;

export interface SecretPolicy {
  /** Undefined when no fingerprint store is configured. */
  lookup: FingerprintLookup | undefined;
  resend: boolean;
  /** Whether a readable field's value was a secret when converge last sent it (the fingerprint store knows). */
  wasSecret?: (objectKey: string, field: string) => boolean;
  /** How a plan explains a secret the store has no record of, when the store says why (an upgrade, a new token). */
  unknownNote?: string;
}

export interface SecretDecision {
  /** Fields to send, each with the reason shown in the plan. */
  send: Map<string, string>;
  /** Plan notes for fields that are not sent and not compared. */
  notes: string[];
}

/**
 * `create`: the object is new (or replaced). `update`: it exists. `rewrite`:
 * it exists and is being written anyway, for other fields.
 */
export type SecretOccasion = 'create' | 'update' | 'rewrite';

export function decideSecrets(
  objectKey: string,
  desired: Fields,
  writeOnly: readonly string[],
  occasion: SecretOccasion,
  policy: SecretPolicy,
  held: ReadonlyMap<string, string> = new Map(),
): SecretDecision {
  const send = new Map<string, string>();
  const notes: string[] = [];
  for (const field of writeOnly) {
    const value = getPath(desired, field);
    if (value === undefined) continue;
    const hold = held.get(field);
    if (occasion === 'create') {
      send.set(field, 'sent on create');
    } else if (hold !== undefined) {
      // the service changed this secret itself: only a value the user changed since converge sent one goes out
      if (policy.lookup?.(objectKey, field, value) === 'changed') send.set(field, CHANGED);
      else notes.push(`${field} is not sent: ${hold}`);
    } else if (policy.resend) {
      send.set(field, 'sent again (--resend-secrets)');
    } else if (!policy.lookup && occasion === 'rewrite') {
      // without a store nothing says whether the server holds this value; an object written
      // anyway gets its secrets with it, so a first apply of a setting is complete (an
      // enabled SMTP setting needs its password) and no secret alone causes a perpetual diff
      send.set(field, 'sent with the other changes (no fingerprint store to compare)');
    } else if (!policy.lookup) {
      notes.push(`${field} is write-only and not compared: no fingerprint store (--resend-secrets sends it)`);
    } else {
      const verdict = policy.lookup(objectKey, field, value);
      if (verdict === 'changed') send.set(field, CHANGED);
      else if (verdict === 'unknown') send.set(field, policy.unknownNote ?? 'never sent by converge');
    }
  }
  return { send, notes };
}
