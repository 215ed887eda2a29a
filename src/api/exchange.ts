/**
 * One HTTP attempt over undici: the request, the whole response, and a
 * deadline over both. Transport failures come back as data for the retry
 * policy; only the caller's abort (and bugs) are thrown.
 */
import type { Dispatcher } from 'undici';
import { classifyNetworkError, type NetworkFailure, timeoutFailure } from './network.ts';
import type { BodySink } from './types.ts';
import { decodeBody, flattenHeaders, type WireRequest } from './wire.ts';

export type Exchange =
  | { kind: 'response'; status: number; headers: Record<string, string>; body: unknown; truncated?: true }
  | { kind: 'network'; failure: NetworkFailure };

export interface ExchangeContext {
  origin: string;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Called when the status line and headers arrive, before the body is read. */
  onHeaders?: (status: number, headers: Record<string, string>) => void;
  /** Read at most this many bytes of the body (a test run's log may be hundreds of megabytes). */
  maxBodyBytes?: number;
  /** A 2xx body goes here instead of being read as text (`RequestOptions.sink`). */
  sink?: BodySink;
}

/** An error of the caller's sink: thrown as it is, whatever its code (a full disk is no network failure). */
class SinkFailure extends Error {
  readonly error: unknown;
  constructor(error: unknown) {
    super('the body sink failed');
    this.error = error;
  }
}

/**
 * The attempts in flight under each caller's signal, aborted together when
 * it aborts: one listener per signal, where AbortSignal.any or a listener
 * per attempt would register every attempt of the run on a signal that
 * lives as long as the run (weak references, or a list scanned on every
 * add, thousands of times at scale).
 */
const inFlight = new WeakMap<AbortSignal, Set<AbortController>>();

function attemptsUnder(signal: AbortSignal): Set<AbortController> {
  let attempts = inFlight.get(signal);
  if (!attempts) {
    const set = new Set<AbortController>();
    signal.addEventListener('abort', () => {
      for (const attempt of set) attempt.abort(signal.reason);
    });
    inFlight.set(signal, set);
    attempts = set;
  }
  return attempts;
}

export async function exchange(dispatcher: Dispatcher, wire: WireRequest, context: ExchangeContext): Promise<Exchange> {
  const outer = context.signal;
  outer?.throwIfAborted();
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), context.timeoutMs);
  const siblings = outer && attemptsUnder(outer);
  siblings?.add(deadline);
  try {
    const response = await dispatcher.request({
      origin: wire.origin ?? context.origin,
      method: wire.method,
      path: wire.path,
      headers: wire.headers,
      body: wire.body ?? null,
      signal: deadline.signal,
    });
    const headers = flattenHeaders(response.headers);
    context.onHeaders?.(response.statusCode, headers);
    if (context.sink && response.statusCode >= 200 && response.statusCode < 300) {
      await drain(response.body, context.sink);
      return { kind: 'response', status: response.statusCode, headers, body: undefined };
    }
    const { text, truncated } =
      context.maxBodyBytes === undefined
        ? { text: await response.body.text(), truncated: false }
        : await readCapped(response.body, context.maxBodyBytes);
    // a cut body is text whatever its type says: the start of a JSON document is no JSON
    const body = truncated ? text : decodeBody(text, headers['content-type']);
    return { kind: 'response', status: response.statusCode, headers, body, ...(truncated && { truncated }) };
  } catch (error) {
    if (error instanceof SinkFailure) throw error.error;
    if (outer?.aborted) throw outer.reason;
    if (deadline.signal.aborted) return { kind: 'network', failure: timeoutFailure(context.origin, context.timeoutMs) };
    const failure = classifyNetworkError(error, context.origin);
    if (!failure) throw error;
    return { kind: 'network', failure };
  } finally {
    clearTimeout(timer);
    siblings?.delete(deadline);
  }
}

/** The whole body into `sink`; a sink that fails stops the read. */
async function drain(body: Dispatcher.ResponseData['body'], sink: BodySink): Promise<void> {
  const step = async (work: () => Promise<void>) => {
    try {
      await work();
    } catch (error) {
      body.destroy();
      throw new SinkFailure(error);
    }
  };
  await step(() => sink.begin());
  for await (const chunk of body) await step(() => sink.write(chunk as Buffer));
}

/** The first `max` bytes of a body, as UTF-8 text; the rest is not read (the stream is closed). */
async function readCapped(
  body: Dispatcher.ResponseData['body'],
  max: number,
): Promise<{ text: string; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const buffer = chunk as Buffer;
    if (size + buffer.length > max) {
      chunks.push(buffer.subarray(0, max - size));
      body.destroy();
      // a character cut in two at the limit is dropped, not shown as U+FFFD
      return { text: new TextDecoder().decode(Buffer.concat(chunks), { stream: true }), truncated: true };
    }
    chunks.push(buffer);
    size += buffer.length;
  }
  return { text: Buffer.concat(chunks).toString('utf8'), truncated: false };
}
