/**
 * Runs a replacement the way src/reconcile/replace.ts decided it for the
 * plan (docs/architecture.md, "Executing"): create first, or delete first and
 * restore the previous object when the create fails, or delete first at the
 * risk the plan named. Used by the executor only.
 */
import { isNotSent } from '../api/circuit-breaker.ts';
import { isUnknownOutcome } from '../api/errors.ts';
import { ConvergeError } from '../errors.ts';
import { addressKey } from './address.ts';
import type { Provider } from './provider.ts';
import { type LiveAfterFailure, replaceSafety } from './replace.ts';
import type { DesiredObject, LiveObject } from './types.ts';

/**
 * A replacement that did not complete; `live` says what is at the address now. When that is not
 * known (an answer lost, the read-back failed too), its outcome is unknown, as a create's or a
 * delete's would be (src/api/errors.ts, `isUnknownOutcome`): counted and shown as such, not as failed.
 */
export class ReplaceError extends ConvergeError {
  readonly live: LiveAfterFailure;
  readonly status: number | undefined;
  readonly outcome: 'unknown' | undefined;

  constructor(message: string, live: LiveAfterFailure, cause: unknown) {
    super('REPLACE_FAILED', message, { cause });
    this.name = 'ReplaceError';
    this.live = live;
    this.outcome = live === 'unknown' ? 'unknown' : undefined;
    const status = (cause as { status?: unknown } | undefined)?.status;
    this.status = typeof status === 'number' ? status : undefined;
  }
}

/** The executor's own steps, so that lost answers and fingerprints are handled as for any create or delete. */
export interface ReplaceSteps {
  /** Creates an object; true when a lost answer was recovered by reading back. */
  create(desired: DesiredObject): Promise<boolean>;
  /** Deletes the previous object (a 404 counts as deleted). */
  remove(live: LiveObject): Promise<void>;
  /** The previous object is gone: its fingerprints go with it. */
  forget(): void;
}

/** Runs one replacement; returns true when a lost answer was recovered. */
export async function replaceObject(
  provider: Provider,
  desired: DesiredObject,
  live: LiveObject,
  steps: ReplaceSteps,
): Promise<boolean> {
  const key = addressKey(live.address);
  const safety = replaceSafety(provider, live);
  if (safety.mode === 'create-first') {
    const recovered = await first(
      () => steps.create(desired),
      (error) => failed('create', error, `the previous ${key} is unchanged`, 'previous'),
    );
    try {
      await steps.remove(live);
    } catch (error) {
      throw failed('delete', error, `the new ${key} was created and the previous one is still live`, 'both');
    }
    return recovered;
  }
  await first(
    () => steps.remove(live),
    (error) =>
      isUnknownOutcome(error)
        ? failed(
            'delete',
            error,
            `the previous ${key} may have been deleted: plan again to see what is live`,
            'unknown',
          )
        : failed('delete', error, `the previous ${key} is unchanged`, 'previous'),
  );
  steps.forget();
  try {
    return await steps.create(desired);
  } catch (error) {
    if (isUnknownOutcome(error)) {
      throw failed('create', error, `${key} may be absent now: plan again to see what is live`, 'unknown');
    }
    if (safety.mode === 'delete-first') {
      throw failed(
        'create',
        error,
        `the previous ${key} could not be restored (${safety.why}): it is absent now`,
        'absent',
      );
    }
    try {
      await steps.create(restoration(provider, live, desired));
    } catch (restoreError) {
      const lost = isUnknownOutcome(restoreError);
      const now = lost ? 'it may be absent now: plan again to see what is live' : 'it is absent now';
      throw failed(
        'create',
        error,
        `the previous ${key} could not be restored (${messageOf(restoreError)}): ${now}`,
        lost ? 'unknown' : 'absent',
      );
    }
    throw failed('create', error, `the previous ${key} was restored from what was read`, 'restored');
  }
}

/** The previous object as a declared one, from what was read: what a restore creates. */
function restoration(provider: Provider, live: LiveObject, desired: DesiredObject): DesiredObject {
  // restore mode only, which replaceSafety grants a kind that can export
  const document = provider.toManifest!(live);
  return {
    kind: live.kind,
    address: live.address,
    metadata: document.metadata,
    ensure: 'present',
    spec: document.spec,
    secretFields: [],
    source: desired.source,
    positions: {},
  };
}

/**
 * Runs a replacement's first step, turning its failure into the
 * replacement's. A request never sent because the server is gone stays as it
 * is: the executor reports the action as not started, which it was.
 */
async function first<T>(run: () => Promise<T>, failure: (error: unknown) => ReplaceError): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (isNotSent(error)) throw error;
    throw failure(error);
  }
}

function failed(what: 'create' | 'delete', error: unknown, now: string, live: LiveAfterFailure): ReplaceError {
  const status = (error as { status?: unknown } | undefined)?.status;
  const how = isUnknownOutcome(error) ? "'s answer was lost" : typeof status === 'number' ? ' was refused' : ' failed';
  return new ReplaceError(`replace failed: the ${what}${how} (${messageOf(error)}); ${now}`, live, error);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
