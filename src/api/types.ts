/**
 * The HTTP contract between providers and src/api. Providers never touch
 * undici: they call `request` on the client of their API.
 */
import type { Fields, Json } from '../reconcile/types.ts';
import type { ApiName } from './profiles.ts';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE' | 'LIST';

export interface RequestOptions {
  method: HttpMethod;
  /** Absolute path from the server root, e.g. `/api/v2/admin/general-settings` or `/v1/ssh/roles/web`. */
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  /** JSON-serialised unless it is a Buffer/Uint8Array (then sent as-is, e.g. a tar.gz upload). */
  body?: unknown;
  headers?: Record<string, string>;
  /** Statuses returned instead of thrown (e.g. [404] to probe for existence). 2xx are always returned. */
  accept?: number[];
  /**
   * The request is safe to repeat after an unknown outcome (a lost response).
   * GET/LIST/PUT/DELETE default to true; POST/PATCH default to false, so a
   * create whose answer was lost is recognised by reading back, not repeated.
   */
  idempotent?: boolean;
  signal?: AbortSignal;
  /** Read at most this many bytes of the answer's body; the rest is left unread (`truncated` says so). */
  maxBodyBytes?: number;
  /**
   * A 2xx answer's body goes here, chunk by chunk, instead of into `body` (a module archive, streamed to
   * disk): bytes that are not text, and may be larger than memory should hold.
   */
  sink?: BodySink;
}

/**
 * Where a streamed body goes. Each attempt starts with `begin`, so a retry after a body cut short
 * starts over; an error a sink throws ends the request as it is, never taken for a network failure.
 */
export interface BodySink {
  begin(): Promise<void>;
  write(chunk: Uint8Array): Promise<void>;
}

export interface HttpResponse<T = unknown> {
  status: number;
  headers: Record<string, string>;
  /** Parsed JSON when the response is JSON, the text otherwise, undefined when empty. */
  body: T;
  /** The body was longer than the request's `maxBodyBytes`: `body` is its first bytes, as text. */
  truncated?: true;
}

export interface HttpClientStats {
  requests: number;
  retries: number;
  rateLimited: number;
}

export interface HttpClient {
  readonly baseUrl: string;
  request<T = unknown>(options: RequestOptions): Promise<HttpResponse<T>>;
  readonly stats: HttpClientStats;
  /** Requests this client lets into flight at the moment (its adaptive window). */
  readonly concurrency: number;
  close(): Promise<void>;
}

/** A JSON:API resource object. */
export interface Resource {
  id: string;
  type: string;
  attributes: Fields;
  relationships?: Record<string, { data?: Json }>;
  links?: Record<string, Json>;
}

/** The clients of a run, by API family; a provider is given the one its `Provider.api` names. */
export type ApiClients = Partial<Record<ApiName, HttpClient>>;
