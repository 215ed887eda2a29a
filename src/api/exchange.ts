/**
 * One HTTP attempt over undici: the request, the whole response, and a
 * deadline over both. Transport failures come back as data for the retry
 * policy; only the caller's abort (and bugs) are thrown.
 */
import type { Dispatcher } from 'undici';
import { classifyNetworkError, type NetworkFailure, timeoutFailure } from './network.ts';
import { decodeBody, flattenHeaders, type WireRequest } from './wire.ts';

export type Exchange =
  | { kind: 'response'; status: number; headers: Record<string, string>; body: unknown }
  | { kind: 'network'; failure: NetworkFailure };

export interface ExchangeContext {
  origin: string;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Called when the status line and headers arrive, before the body is read. */
  onHeaders?: (status: number, headers: Record<string, string>) => void;
}

export async function exchange(dispatcher: Dispatcher, wire: WireRequest, context: ExchangeContext): Promise<Exchange> {
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), context.timeoutMs);
  const signal = context.signal ? AbortSignal.any([context.signal, deadline.signal]) : deadline.signal;
  try {
    const response = await dispatcher.request({
      origin: wire.origin ?? context.origin,
      method: wire.method,
      path: wire.path,
      headers: wire.headers,
      body: wire.body ?? null,
      signal,
    });
    const headers = flattenHeaders(response.headers);
    context.onHeaders?.(response.statusCode, headers);
    const bytes = new Uint8Array(await response.body.arrayBuffer());
    return { kind: 'response', status: response.statusCode, headers, body: decodeBody(bytes, headers['content-type']) };
  } catch (error) {
    if (context.signal?.aborted) throw context.signal.reason;
    if (deadline.signal.aborted) return { kind: 'network', failure: timeoutFailure(context.origin, context.timeoutMs) };
    const failure = classifyNetworkError(error, context.origin);
    if (!failure) throw error;
    return { kind: 'network', failure };
  } finally {
    clearTimeout(timer);
  }
}
