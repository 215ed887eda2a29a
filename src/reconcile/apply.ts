/**
 * The executor: runs a plan's actions concurrently in dependency order. A
 * failed action fails only the actions that depend on it; the rest go on.
 * An interrupt stops new work, lets requests in flight finish, and the
 * summary says what was and was not done.
 */
import PQueue from 'p-queue';
import { isCircuitOpen, isNotSent } from '../api/circuit-breaker.ts';
import { isUnknownOutcome } from '../api/errors.ts';
import type { ApiClients } from '../api/types.ts';
import { ConvergeError } from '../errors.ts';
import { type Address, addressKey } from './address.ts';
import { type Comparison, compare } from './comparison.ts';
import type { ActionFailure, ApplySummary, EventStream, SkipReason } from './events.ts';
import { getPath } from './field-paths.ts';
import type { FingerprintStore } from './fingerprint-store.ts';
import { capabilities, type Provider } from './provider.ts';
import { readBack } from './read.ts';
import { leftToService, rememberedField } from './remembered.ts';
import { ReplaceError, replaceObject } from './replace-run.ts';
import { type ContextOf, runContexts } from './services.ts';
import type { DesiredObject, FieldChange, Fields, LiveObject, Plan, PlannedAction } from './types.ts';

export interface ApplyContext {
  providers: ReadonlyMap<string, Provider>;
  desired: ReadonlyMap<string, DesiredObject>;
  live: ReadonlyMap<string, LiveObject>;
  /** The clients of the run, by API family: each provider's calls get the client of its own. */
  clients: ApiClients;
  signal: AbortSignal;
  parallelism: number;
  events: EventStream;
  /** Aborted on Ctrl-C: no new action starts. */
  interrupt: AbortSignal;
  fingerprints?: FingerprintStore;
}

type Outcome = 'done' | 'failed' | 'skipped';

/** The apply's context with the run's provider contexts (src/reconcile/services.ts). */
interface Run extends ApplyContext {
  contextOf: ContextOf;
}

export async function applyPlan(plan: Plan, applyContext: ApplyContext): Promise<ApplySummary> {
  const context: Run = { ...applyContext, contextOf: runContexts(applyContext) };
  const started = Date.now();
  const queue = new PQueue({ concurrency: context.parallelism });
  const summary: ApplySummary = { done: {}, failed: [], skipped: [], interrupted: false, elapsedMs: 0 };
  const outcomes = new Map<string, Promise<Outcome>>();
  const todo = plan.actions.filter((a) => a.action !== 'noop');
  context.events.emit({ type: 'apply-start', total: todo.length });
  const onInterrupt = () => {
    summary.interrupted = true;
    context.events.emit({ type: 'interrupt' });
  };
  context.interrupt.addEventListener('abort', onInterrupt, { once: true });

  /** Why each skipped action was: what its dependents are skipped for in turn. */
  const skippedFor = new Map<string, { reason: SkipReason; cause?: string }>();
  const run = async (action: PlannedAction): Promise<Outcome> => {
    const deps = await Promise.all(action.dependsOn.map((k) => outcomes.get(k) ?? Promise.resolve<Outcome>('done')));
    const blocking = action.dependsOn.find((_, i) => deps[i] !== 'done');
    if (blocking) {
      // a dependency interrupted or unreachable is why this one is not started either; a failure
      // is named where it happened, however many skipped dependencies lie between
      const why = skippedFor.get(blocking);
      return why ? skip(action, why.reason, why.cause) : skip(action, 'dependency-failed', blocking);
    }
    return queue.add(async () => {
      if (context.interrupt.aborted) return skip(action, 'interrupted');
      context.events.emit({ type: 'action-start', action });
      const t0 = Date.now();
      try {
        const recovered = await execute(action, context);
        summary.done[action.action] = (summary.done[action.action] ?? 0) + 1;
        context.events.emit({
          type: 'action-done',
          action,
          elapsedMs: Date.now() - t0,
          ...(recovered && { recovered }),
        });
        return 'done';
      } catch (error) {
        // the server is gone and nothing of this action was sent: not started, rather than failed
        if (isNotSent(error)) {
          return skip(action, 'unreachable', (error as Error).message);
        }
        const failure = toFailure(error);
        summary.failed.push({ key: action.key, action: action.action, error: failure });
        context.events.emit({ type: 'action-failed', action, error: failure });
        return 'failed';
      }
    }) as Promise<Outcome>;
  };

  const skip = (action: PlannedAction, reason: SkipReason, cause?: string): Outcome => {
    skippedFor.set(action.key, { reason, ...(cause && { cause }) });
    summary.skipped.push({ key: action.key, action: action.action, reason, ...(cause && { cause }) });
    context.events.emit({ type: 'action-skipped', action, reason, ...(cause && { cause }) });
    return 'skipped';
  };

  // actions are in dependency order, so every dependency's promise exists before it is awaited
  for (const action of todo) outcomes.set(action.key, run(action));
  await Promise.all(outcomes.values());
  context.interrupt.removeEventListener('abort', onInterrupt);
  if (context.fingerprints) recordUnchangedSecrets(plan, context, context.fingerprints);
  await context.fingerprints?.save();
  summary.elapsedMs = Date.now() - started;
  context.events.emit({ type: 'apply-done', summary });
  return summary;
}

/** Runs one action; returns true when a lost answer was recovered by reading back. */
async function execute(action: PlannedAction, context: Run): Promise<boolean> {
  const provider = context.providers.get(action.kind);
  if (!provider) throw new ConvergeError('PLAN_INVALID', `no provider for kind ${action.kind}`);
  const desired = context.desired.get(action.key);
  const live = context.live.get(action.key);
  switch (action.action) {
    case 'create':
      return create(provider, need(desired, action), action, context);
    case 'update':
      return update(provider, need(desired, action), need(live, action), action, context);
    case 'replace': {
      const previous = need(live, action);
      return replaceObject(provider, need(desired, action), previous, {
        create: (object) => create(provider, object, action, context),
        remove: (object) => remove(provider, object, context, false),
        forget: () => context.fingerprints?.forget(action.key),
      });
    }
    case 'delete':
      await remove(provider, need(live, action), context);
      return false;
    default:
      return false;
  }
}

async function create(provider: Provider, desired: DesiredObject, action: PlannedAction, context: Run) {
  const comparison = compare(provider, desired);
  const { fields } = comparison;
  let recovered = false;
  let made: LiveObject | undefined;
  try {
    made = await write(provider, 'create')(context.contextOf(provider), desired, fields);
  } catch (error) {
    if (!isUnknownOutcome(error)) throw error;
    // the answer was lost: the object may exist now; read back instead of creating it twice
    const found = await readAfterLoss(provider, context, desired.address, error);
    if (!found) await write(provider, 'create')(context.contextOf(provider), desired, fields);
    else if (found.fields && capabilities(provider).update) {
      // made, but maybe not whole (a create of several requests, such as a module and its test
      // configuration): what still differs is sent as an update
      await completeAfterLoss(provider, desired, comparison, { ...found, fields: found.fields }, context);
    }
    recovered = true;
  }
  recordSecrets(comparison, action.key, desired, action.changes, context, true);
  await rememberCreated(provider, desired, fields, made, context);
  return recovered;
}

/**
 * What the service set itself on create (a generated CA's public key), as
 * converge saw it: a later plan reports a different live value (src/reconcile/remembered.ts).
 */
async function rememberCreated(
  provider: Provider,
  desired: DesiredObject,
  fields: Fields,
  made: LiveObject | undefined,
  context: Run,
) {
  const store = context.fingerprints;
  const unset = leftToService(provider, fields);
  if (!store || unset.length === 0) return;
  const seen = made?.fields
    ? made
    : await readBack(provider, context.contextOf(provider), desired.address).catch(() => undefined);
  const values = seen?.fields ? provider.canonicalLive(seen.fields) : {};
  for (const field of unset) {
    const value = getPath(values, field);
    if (value !== undefined) store.record(addressKey(desired.address), rememberedField(field), value);
  }
}

/** Sends what still differs from a read-back object; a lost answer to that is read back once more. */
async function completeAfterLoss(
  provider: Provider,
  desired: DesiredObject,
  comparison: Comparison,
  found: LiveObject & { fields: Fields },
  context: Run,
): Promise<void> {
  const remaining = remainingChanges(provider, comparison, found.fields, []);
  if (remaining.length === 0) return;
  try {
    await write(provider, 'update')(
      context.contextOf(provider),
      comparison.updated,
      found,
      comparison.updateBody(remaining, provider.canonicalLive(found.fields)),
    );
  } catch (error) {
    if (!isUnknownOutcome(error)) throw error;
    const now = await readAfterLoss(provider, context, desired.address, error);
    const left = now?.fields ? remainingChanges(provider, comparison, now.fields, []) : remaining;
    if (left.length > 0) throw error;
  }
}

async function update(
  provider: Provider,
  desired: DesiredObject,
  live: LiveObject,
  action: PlannedAction,
  context: Run,
) {
  const comparison = compare(provider, desired);
  // the live fields keep what the object ignores where a write would carry it
  const send = (changes: readonly FieldChange[], now: LiveObject) =>
    comparison.updateBody(changes, now.fields && provider.canonicalLive(now.fields));
  let recovered = false;
  try {
    await write(provider, 'update')(context.contextOf(provider), comparison.updated, live, send(action.changes, live));
  } catch (error) {
    if (!isUnknownOutcome(error)) throw error;
    // read back and send only what is still different (actions like grant_admin are not repeatable)
    const now = await readAfterLoss(provider, context, desired.address, error);
    if (!now?.fields) throw error;
    const remaining = remainingChanges(provider, comparison, now.fields, action.changes);
    if (remaining.length > 0)
      await write(provider, 'update')(context.contextOf(provider), comparison.updated, now, send(remaining, now));
    recovered = true;
  }
  recordSecrets(comparison, action.key, desired, action.changes, context, false);
  return recovered;
}

/** What still differs from a read-back object, by the same comparison the plan made. */
function remainingChanges(
  provider: Provider,
  comparison: Comparison,
  liveFields: Fields,
  planned: readonly FieldChange[],
): FieldChange[] {
  const secretsSent = planned.filter((c) => c.secret && comparison.writeOnly.includes(c.path));
  const readable = comparison.changes(provider.canonicalLive(liveFields));
  // a write-only field cannot be read back: resend it, setting a secret twice is harmless
  return [...readable, ...secretsSent];
}

/** `forget`: false where a replacement forgets the fingerprints itself, once the previous object is gone. */
async function remove(provider: Provider, live: LiveObject, context: Run, forget = true) {
  try {
    await write(provider, 'delete')(context.contextOf(provider), live);
  } catch (error) {
    // already gone (deleted by someone else, or our answer was lost): the goal is reached
    if (!(isStatus(error, 404) || isUnknownOutcome(error))) throw error;
    if (isUnknownOutcome(error)) {
      const still = await readAfterLoss(provider, context, live.address, error);
      if (still) await write(provider, 'delete')(context.contextOf(provider), still);
    }
  }
  if (forget) context.fingerprints?.forget(addressKey(live.address));
}

/**
 * The fingerprints of what was sent: write-only fields (to know later whether
 * they changed) and interpolated readable ones (to know later that their
 * value is a secret, even once the manifest writes it in clear).
 */
/**
 * Reads an object back after its answer was lost. When the server cannot be
 * reached to find out, the action's outcome stays the lost answer's
 * (`unknown`): it may have been applied, so it is never reported as not started.
 */
async function readAfterLoss(provider: Provider, context: Run, address: Address, lost: unknown) {
  try {
    return await readBack(provider, context.contextOf(provider), address);
  } catch (error) {
    if (isCircuitOpen(error)) throw lost;
    // what the lost write did is still unknown: not a failed write, whatever the read's error
    throw Object.assign(
      new Error(`${(lost as Error).message}; reading back failed too (${(error as Error).message})`, { cause: error }),
      { outcome: 'unknown' },
    );
  }
}

function recordSecrets(
  { fields, writeOnly }: Comparison,
  key: string,
  desired: DesiredObject,
  changes: readonly FieldChange[],
  context: Run,
  all: boolean,
) {
  const store = context.fingerprints;
  if (!store) return;
  for (const field of writeOnly) {
    const value = getPath(fields, field);
    if (value === undefined) continue;
    if (all || changes.some((c) => c.path === field && c.secret)) store.record(key, field, value);
  }
  for (const field of desired.secretFields) {
    const value = fields[field];
    if (value !== undefined) store.record(key, field, value);
  }
}

/**
 * Objects left as they are still tell the store which of their readable
 * values are secret, so that a value that stops coming from `${env:}` is
 * not shown in clear as the "before" of a later change.
 */
function recordUnchangedSecrets(plan: Plan, context: Run, store: FingerprintStore) {
  for (const action of plan.actions) {
    if (action.action !== 'noop') continue;
    const desired = context.desired.get(action.key);
    for (const field of desired?.secretFields ?? []) {
      const value = desired?.spec[field];
      if (value !== undefined) store.record(action.key, field, value);
    }
  }
}

/**
 * One of the provider's writes. The planner plans none that the kind lacks (a missing object of a
 * kind without `create` is a plan problem, and so on), so a missing one here is a broken plan.
 */
function write<K extends 'create' | 'update' | 'delete'>(provider: Provider, operation: K): NonNullable<Provider[K]> {
  const found = provider[operation];
  if (!found)
    throw new ConvergeError('PLAN_INVALID', `${provider.kind} has no ${operation}: the plan cannot be applied`);
  return found.bind(provider) as NonNullable<Provider[K]>;
}

function need<T>(value: T | undefined, action: PlannedAction): T {
  if (value === undefined) {
    throw new ConvergeError('PLAN_INVALID', `${action.key}: the plan refers to an object that is not loaded`);
  }
  return value;
}

function isStatus(error: unknown, status: number): boolean {
  return typeof error === 'object' && error !== null && (error as { status?: number }).status === status;
}

function toFailure(error: unknown): ActionFailure {
  if (error instanceof Error) {
    const { status, code } = error as Error & { status?: number; code?: string };
    return {
      message: error.message,
      ...(typeof status === 'number' && { status }),
      ...(code && { code }),
      ...(error instanceof ReplaceError && { live: error.live }),
      ...(isUnknownOutcome(error) && { outcome: 'unknown' as const }),
    };
  }
  return { message: String(error) };
}
