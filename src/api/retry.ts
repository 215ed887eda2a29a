/**
 * The retry policy, pure: given what went wrong, whether to try again and
 * after how long. Modelled on go-retryablehttp as the platform's and the
 * secrets service's own clients configure it (docs/apis.md, "Retries"): 429
 * and 5xx except 501 are retried, plus the profile's own statuses (412 on
 * the secrets API: a replica that has not caught up yet), and connection
 * errors. A request the server may have processed is repeated only when it
 * is idempotent; otherwise the caller learns `unknown`.
 */
import type { NetworkFailure } from './network.ts';

export interface RetrySettings {
  maxRetries: number;
  baseMs: number;
  maxMs: number;
  /** Statuses of the API's profile that mean "processed nothing, try again" (412 on the secrets API). */
  retryStatuses: readonly number[];
  /**
   * The most time one request may take over all its attempts and waits: a
   * server that never answers, or keeps answering 429, fails the request
   * within it instead of holding it for minutes. Unbounded when absent.
   */
  budgetMs?: number;
}

export interface RetryState {
  /** Retries spent on failures (a 429 is a wait, not a failure). */
  failures: number;
  rateLimited: number;
  /** Time spent on the request so far, attempts and waits. */
  elapsedMs?: number;
}

export type Failure =
  | { kind: 'status'; status: number; headers: Record<string, string> }
  | { kind: 'network'; failure: NetworkFailure };

export type Decision =
  | { retry: true; delayMs: number; reason: string; state: RetryState; serverWait: boolean }
  | { retry: false; outcome: 'failed' | 'unknown' | 'not-sent'; note?: string };

/** A server that keeps answering 429 this often is refusing us, not pacing us. */
export const MAX_RATE_LIMIT_WAITS = 30;
/** Longer server-requested waits are reported instead of sat through. */
export const MAX_SERVER_WAIT_MS = 300_000;
/** 503 (overloaded, sealed, in maintenance) usually passes: more attempts, longer waits. */
const UNAVAILABLE_FACTOR = 2;
const UNAVAILABLE_BASE_FACTOR = 4;

export function decide(
  failure: Failure,
  idempotent: boolean,
  state: RetryState,
  settings: RetrySettings,
  random: () => number = Math.random,
  now: number = Date.now(),
): Decision {
  const decision = decideOnce(failure, idempotent, state, settings, random, now);
  const elapsed = state.elapsedMs ?? 0;
  if (!decision.retry || settings.budgetMs === undefined || elapsed + decision.delayMs <= settings.budgetMs) {
    return decision;
  }
  const attempts = state.failures + state.rateLimited + 1;
  const note = `gave up after ${attempts} attempts in ${seconds(elapsed)} (the request's budget is ${seconds(settings.budgetMs)})`;
  if (failure.kind === 'network') return { retry: false, outcome: failure.failure.sent ? 'unknown' : 'not-sent', note };
  return { retry: false, outcome: 'failed', note };
}

/** `6 s`, or `0.3 s` below ten seconds. */
function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
}

function decideOnce(
  failure: Failure,
  idempotent: boolean,
  state: RetryState,
  settings: RetrySettings,
  random: () => number,
  now: number,
): Decision {
  const gaveUp = (outcome: 'failed' | 'unknown' | 'not-sent'): Decision => {
    const attempts = state.failures + state.rateLimited + 1;
    return attempts > 1
      ? { retry: false, outcome, note: `gave up after ${attempts} attempts` }
      : { retry: false, outcome };
  };
  const backoff = (reason: string, factor = 1): Decision => {
    const ceiling = Math.min(settings.maxMs, settings.baseMs * factor * 2 ** state.failures);
    const delayMs = Math.round(random() * ceiling);
    return { retry: true, delayMs, reason, serverWait: false, state: { ...state, failures: state.failures + 1 } };
  };

  if (failure.kind === 'network') {
    const { sent, retryable, reason } = failure.failure;
    if (!retryable) return { retry: false, outcome: sent ? 'unknown' : 'not-sent' };
    if (sent && !idempotent) return { retry: false, outcome: 'unknown' };
    return state.failures < settings.maxRetries ? backoff(reason) : gaveUp(sent ? 'unknown' : 'not-sent');
  }

  const { status, headers } = failure;
  if (status === 429) {
    if (state.rateLimited >= MAX_RATE_LIMIT_WAITS) return gaveUp('failed');
    const asked = serverWaitMs(headers, now);
    if (asked !== undefined && asked > MAX_SERVER_WAIT_MS) {
      return { retry: false, outcome: 'failed', note: `the server asks to wait ${Math.ceil(asked / 1000)} s` };
    }
    // no hint from the server: exponential, but never close to zero (equal jitter)
    const ceiling = Math.min(settings.maxMs, settings.baseMs * 2 ** state.rateLimited);
    const delayMs = asked ?? Math.round(ceiling / 2 + (random() * ceiling) / 2);
    const next = { ...state, rateLimited: state.rateLimited + 1 };
    return { retry: true, delayMs, reason: 'rate limited (429)', serverWait: asked !== undefined, state: next };
  }
  if (status === 503) {
    if (state.failures >= settings.maxRetries * UNAVAILABLE_FACTOR) return gaveUp('failed');
    const asked = serverWaitMs(headers, now);
    if (asked === undefined || asked > MAX_SERVER_WAIT_MS) {
      return backoff('service unavailable (503)', UNAVAILABLE_BASE_FACTOR);
    }
    const next = { ...state, failures: state.failures + 1 };
    return { retry: true, delayMs: asked, reason: 'service unavailable (503)', serverWait: true, state: next };
  }
  if (settings.retryStatuses.includes(status)) {
    return state.failures < settings.maxRetries ? backoff(`retryable status (${status})`) : gaveUp('failed');
  }
  if (status >= 500 && status !== 501) {
    // the server may have done the work before failing
    if (!idempotent) return { retry: false, outcome: 'unknown' };
    return state.failures < settings.maxRetries ? backoff(`server error (${status})`) : gaveUp('failed');
  }
  return { retry: false, outcome: 'failed' };
}

/**
 * How long the server asked us to wait: `Retry-After` (seconds or an
 * HTTP-date) and `X-RateLimit-Reset` (seconds; a value that looks like an
 * epoch timestamp is taken as one). The longer of the two when both are given.
 */
export function serverWaitMs(headers: Record<string, string>, now: number = Date.now()): number | undefined {
  const waits = [retryAfterMs(headers['retry-after'], now), resetMs(headers['x-ratelimit-reset'], now)];
  const given = waits.filter((w): w is number => w !== undefined);
  return given.length > 0 ? Math.max(...given) : undefined;
}

function retryAfterMs(value: string | undefined, now: number): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const seconds = Number(value.trim());
  if (Number.isFinite(seconds)) return Math.max(0, Math.ceil(seconds * 1000));
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

export function resetMs(value: string | undefined, now: number = Date.now()): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const seconds = Number(value.trim());
  if (!Number.isFinite(seconds) || seconds < 0) return undefined;
  const EPOCH_2001 = 1_000_000_000;
  return seconds > EPOCH_2001 ? Math.max(0, seconds * 1000 - now) : Math.ceil(seconds * 1000);
}
