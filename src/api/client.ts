/**
 * The HTTP client of one API server: a keep-alive undici pool, client-side
 * pacing, retries with exponential backoff and full jitter, and typed
 * errors that say whether a failed request may have been applied.
 */
import { createRequire } from 'node:module';
import type { Agent, Dispatcher } from 'undici';
import { ConvergeError } from '../errors.ts';
import { CircuitBreaker } from './circuit-breaker.ts';
import { ConcurrencyWindow, type Sample } from './concurrency.ts';
import { errorMessages } from './error-messages.ts';
import { ApiError, NetworkError } from './errors.ts';
import { type Exchange, exchange } from './exchange.ts';
import { PROFILES } from './profiles.ts';
import { type Permit, RateLimiter } from './rate-limit.ts';
import { registerSecret } from './redact.ts';
import { decide, type Failure, type RetrySettings, type RetryState } from './retry.ts';
import { sleep } from './sleep.ts';
import type { HttpClient, HttpClientStats, HttpResponse, RequestOptions } from './types.ts';
import { type Auth, displayPath, toWire, type WireRequest } from './wire.ts';

export interface RetryInfo {
  method: string;
  path: string;
  /** 1 for the first retry of this request. */
  attempt: number;
  delayMs: number;
  reason: string;
}

export interface HttpClientOptions {
  /** The server root, e.g. `http://127.0.0.1:8080`; a path prefix is kept. */
  baseUrl: string;
  /** The API's profile (src/api/profiles.ts), the token, and a header name that overrides the profile's. */
  auth: Auth;
  /** Requests per second, client-side; undefined: only what the server advertises. */
  rateLimit?: number;
  /**
   * The server's limit (requests per second) to assume while nothing is
   * configured or advertised. Default: the profile's (30 for the platform
   * API, none for the secrets API). 0 assumes nothing.
   */
  assumedRateLimit?: number;
  connectTimeoutMs?: number;
  /** Per attempt, for the response headers and body together. */
  requestTimeoutMs?: number;
  maxRetries?: number;
  retryBaseMs?: number;
  retryMaxMs?: number;
  /** Keep-alive connections in the pool (at least `concurrency.max`). */
  connections?: number;
  /**
   * Requests in flight: an adaptive window starting at `initial` and never
   * above `max` (equal values: fixed). Default: fixed at 10.
   */
  concurrency?: { initial: number; max: number };
  /** Told about every retry before its wait; carries no token and no body. */
  onRetry?: (info: RetryInfo) => void;
  /** Connection failures in a row after which no new request starts (src/api/circuit-breaker.ts). Default 8. */
  breakerThreshold?: number;
  /**
   * The most one request may take over all its attempts and waits (default 120 s, or twice
   * the request timeout when that is longer): a silent or always-429 server fails it within.
   */
  requestBudgetMs?: number;
}

type Step =
  | { kind: 'done'; response: HttpResponse }
  | { kind: 'fail'; error: ApiError | NetworkError }
  | { kind: 'retry'; delayMs: number; reason: string; state: RetryState; global: boolean };

/**
 * undici is loaded with the first client, not with this module: offline commands (`validate`
 * reaches this module through src/cli/session.ts) should not pay for it. Only the part the
 * client uses is loaded (./undici-core.cjs); see docs/performance.md, "Start-up".
 */
type UndiciCore = Pick<typeof import('undici'), 'Agent' | 'Pool'>;
let undici: UndiciCore | undefined;
const loadUndici = () => {
  undici ??= createRequire(import.meta.url)('./undici-core.cjs') as UndiciCore;
  return undici;
};

const DEFAULT_CONCURRENCY = 10;

const DEFAULTS = {
  connectTimeoutMs: 10_000,
  requestTimeoutMs: 60_000,
  maxRetries: 6,
  retryBaseMs: 250,
  retryMaxMs: 20_000,
  connections: 64,
  breakerThreshold: 8,
  requestBudgetMs: 120_000,
};

export function createHttpClient(options: HttpClientOptions): HttpClient {
  const url = new URL(options.baseUrl);
  const origin = url.origin;
  const basePath = url.pathname.replace(/\/+$/, '');
  const auth = options.auth;
  const profile = PROFILES[auth.api];
  checkToken(auth);
  registerSecret(auth.token);
  const requestTimeoutMs = options.requestTimeoutMs ?? DEFAULTS.requestTimeoutMs;
  const concurrency = options.concurrency ?? { initial: DEFAULT_CONCURRENCY, max: DEFAULT_CONCURRENCY };
  const window = new ConcurrencyWindow(concurrency);
  const poolOptions = {
    connections: Math.max(options.connections ?? DEFAULTS.connections, concurrency.max),
    connect: { timeout: options.connectTimeoutMs ?? DEFAULTS.connectTimeoutMs },
    headersTimeout: requestTimeoutMs,
    bodyTimeout: requestTimeoutMs,
  };
  const { Agent: AgentClass, Pool } = loadUndici();
  const pool = new Pool(origin, poolOptions);
  /** For upload links on another host (file storage), made on first use. */
  let elsewhere: Agent | undefined;
  const dispatcherFor = (wire: WireRequest): Dispatcher => {
    if (wire.origin === undefined) return pool;
    elsewhere ??= new AgentClass(poolOptions);
    return elsewhere;
  };
  const limiter = new RateLimiter({
    ...(options.rateLimit !== undefined && { rate: options.rateLimit }),
    assumed: options.assumedRateLimit ?? profile.assumedRateLimit,
  });
  const settings: RetrySettings = {
    maxRetries: options.maxRetries ?? DEFAULTS.maxRetries,
    baseMs: options.retryBaseMs ?? DEFAULTS.retryBaseMs,
    maxMs: options.retryMaxMs ?? DEFAULTS.retryMaxMs,
    retryStatuses: profile.retryStatuses,
    budgetMs: options.requestBudgetMs ?? Math.max(DEFAULTS.requestBudgetMs, 2 * requestTimeoutMs),
  };
  const stats: HttpClientStats = { requests: 0, retries: 0, rateLimited: 0 };
  const breaker = new CircuitBreaker(origin, options.breakerThreshold ?? DEFAULTS.breakerThreshold);

  async function request<T>(req: RequestOptions): Promise<HttpResponse<T>> {
    const idempotent = req.idempotent ?? !(req.method === 'POST' || req.method === 'PATCH');
    const wire = toWire(req, { origin, basePath }, auth);
    // as sent: a server URL's own path (`https://host/tfe`) is part of it, in messages too (a
    // doubled `/api/v2` written into the URL is then there to see beside the 404 it causes)
    const path = /^https?:\/\//i.test(req.path) ? displayPath(req.path) : basePath + displayPath(req.path);
    let state: RetryState = { failures: 0, rateLimited: 0 };
    const started = performance.now();
    /** An earlier attempt may have reached the server. */
    let mayHaveSent = false;
    let lostBefore = false;
    for (;;) {
      req.signal?.throwIfAborted();
      if (breaker.open) throw breaker.error(req.method, path, mayHaveSent);
      const release = await window.acquire(req.signal);
      if (breaker.open) {
        release();
        throw breaker.error(req.method, path, mayHaveSent);
      }
      let permit: Permit;
      try {
        permit = await limiter.acquire(req.signal);
      } catch (error) {
        release();
        throw error;
      }
      let step: Step;
      let sample: Sample | undefined;
      try {
        stats.requests++;
        const sent = performance.now();
        const result = await exchange(dispatcherFor(wire), wire, {
          origin: wire.origin ?? origin,
          timeoutMs: requestTimeoutMs,
          ...(req.signal && { signal: req.signal }),
          onHeaders: (status, headers) => permit.observe(status, headers),
          ...(req.maxBodyBytes !== undefined && { maxBodyBytes: req.maxBodyBytes }),
          ...(req.sink && { sink: req.sink }),
        });
        sample = { overloaded: overloaded(result), latencyMs: performance.now() - sent };
        // an earlier attempt of a write whose answer was lost may have been applied (docs/apis.md)
        lostBefore = mayHaveSent && req.method !== 'GET';
        if (result.kind === 'response') breaker.success();
        else {
          breaker.failure(result.failure.reason, sent);
          if (result.failure.sent) mayHaveSent = true;
        }
        step = judge(result, req, path, idempotent, { ...state, elapsedMs: performance.now() - started }, lostBefore);
        // a wait the server asked for, or any 429, holds every request of this client;
        // set before the permit is released so no queued request slips out first
        if (step.kind === 'retry' && step.global) limiter.pause(step.delayMs);
      } finally {
        permit.release();
        release(sample);
      }
      if (step.kind === 'done') return step.response as HttpResponse<T>;
      if (step.kind === 'fail') throw step.error;
      state = step.state;
      stats.retries++;
      const attempt = state.failures + state.rateLimited;
      options.onRetry?.({ method: req.method, path, attempt, delayMs: step.delayMs, reason: step.reason });
      if (!step.global) await sleep(step.delayMs, req.signal);
    }
  }

  /** What one attempt's result means: an answer, an error to throw, or a retry. */
  function judge(
    result: Exchange,
    req: RequestOptions,
    path: string,
    idempotent: boolean,
    state: RetryState,
    lostBefore: boolean,
  ): Step {
    let failure: Failure;
    if (result.kind === 'response') {
      if (result.status === 429) stats.rateLimited++;
      if ((result.status >= 200 && result.status < 300) || req.accept?.includes(result.status)) {
        const { status, headers, body, truncated } = result;
        return { kind: 'done', response: { status, headers, body, ...(truncated && { truncated }) } };
      }
      failure = { kind: 'status', status: result.status, headers: result.headers };
    } else {
      failure = { kind: 'network', failure: result.failure };
    }
    const decision = decide(failure, idempotent, state, settings);
    if (decision.retry) {
      const global = decision.serverWait || (failure.kind === 'status' && failure.status === 429);
      return { kind: 'retry', delayMs: decision.delayMs, reason: decision.reason, state: decision.state, global };
    }
    // the last attempt decides the error, but not alone whether the write happened: a retried
    // write that an earlier, lost attempt may have applied is `unknown`, read back before anything
    // is decided (a replacement's delete that did happen must not be told "unchanged")
    const notes = [
      decision.note,
      lostBefore ? "an earlier attempt's answer was lost: it may have been applied" : undefined,
    ];
    const joined = notes.filter((n) => n !== undefined).join('; ');
    const note = joined ? { note: joined } : {};
    if (result.kind === 'network') {
      const outcome = decision.outcome === 'not-sent' && !lostBefore ? 'not-sent' : 'unknown';
      const { reason, errno } = result.failure;
      return {
        kind: 'fail',
        error: new NetworkError({ method: req.method, path, reason, errno, outcome, ...note }),
      };
    }
    const error = new ApiError({
      status: result.status,
      method: req.method,
      path,
      messages: errorMessages(result.body),
      outcome: decision.outcome === 'unknown' || lostBefore ? 'unknown' : 'failed',
      api: auth.api,
      ...note,
    });
    return { kind: 'fail', error };
  }

  return {
    baseUrl: origin + basePath,
    get concurrency() {
      return window.limit;
    },
    stats,
    request,
    close: async () => {
      await Promise.all([pool.close(), elsewhere?.close()]);
    },
  };
}

/**
 * What a header value cannot hold (RFC 9110, as undici checks it before a
 * request): a control character but tab, DEL, and anything beyond Latin-1.
 */
const NOT_IN_HEADER = /[^\t\x20-\x7e\x80-\xff]/;

/**
 * A token or header name that HTTP cannot carry is a configuration mistake,
 * said in one line (undici would throw a stack trace on the first request).
 * The message never shows the token, nor which character it holds.
 */
function checkToken(auth: Auth): void {
  const problem = NOT_IN_HEADER.test(auth.token)
    ? 'the token holds a character an HTTP header cannot carry (a line break or another control character, or one beyond Latin-1)'
    : auth.header !== undefined && !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(auth.header)
      ? `"${auth.header}" is not a header name`
      : undefined;
  if (problem) {
    throw new ConvergeError('CONFIG_INVALID', `cannot authenticate to ${PROFILES[auth.api].title}: ${problem}`, {
      hint: 'set the token alone, on one line, and tokenHeader to a plain header name',
    });
  }
}

/** Answers that say the server is past what it can take: the window narrows on them. */
function overloaded(result: Exchange): boolean {
  if (result.kind === 'network') return true;
  return result.status === 429 || result.status === 503;
}
