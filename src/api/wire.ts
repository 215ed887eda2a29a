/**
 * Request and response encoding, pure: what goes on the wire for a
 * RequestOptions, and what a response body becomes.
 */
import { type ApiName, PROFILES } from './profiles.ts';
import type { RequestOptions } from './types.ts';

/** How a client authenticates: its API's profile, the token, and the header when a connection overrides it. */
export interface Auth {
  api: ApiName;
  token: string;
  /** Another header name than the profile's, for deployments that use one (`tokenHeader`). */
  header?: string;
}

export interface WireRequest {
  /** Set only for a URL on another server (an upload link): sent there without our credentials. */
  origin?: string;
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** Path with the base URL's prefix and the encoded query. */
  path: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
}

const USER_AGENT = 'converge';

export interface Target {
  origin: string;
  basePath: string;
}

export function toWire(options: RequestOptions, target: Target, auth: Auth): WireRequest {
  const link = /^https?:\/\//i.test(options.path) ? new URL(options.path) : undefined;
  const foreign = link !== undefined && link.origin !== target.origin;
  const path = link ? link.pathname + link.search : target.basePath + options.path;
  const profile = PROFILES[auth.api];
  const jsonType = profile.contentType(link?.pathname ?? options.path);
  const query = { ...options.query };
  // LIST is the secrets API's own verb; it takes `GET ?list=true` as the same request
  // (docs/apis.md), and Node-based servers cannot even parse a LIST line
  if (options.method === 'LIST') query.list = 'true';
  const headers: Record<string, string> = { accept: jsonType, 'user-agent': USER_AGENT };
  let body: string | Uint8Array | undefined;
  if (options.body instanceof Uint8Array) {
    body = options.body;
    headers['content-type'] = 'application/octet-stream';
  } else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] = jsonType;
  }
  for (const [name, value] of Object.entries(options.headers ?? {})) headers[name.toLowerCase()] = value;
  const tokenHeader = (auth.header ?? profile.tokenHeader).toLowerCase();
  // an upload link carries its own authorization; our token never goes to another host
  if (foreign) delete headers[tokenHeader];
  else headers[tokenHeader] = `${profile.tokenScheme}${auth.token}`;
  return {
    ...(foreign && { origin: link.origin }),
    method: options.method === 'LIST' ? 'GET' : options.method,
    path: withQuery(path, query),
    headers,
    ...(body !== undefined && { body }),
  };
}

/**
 * The path as errors and retry events show it: no origin, no query, and no
 * upload object id nor download token (such links carry their authorization
 * in the URL).
 */
export function displayPath(path: string): string {
  const bare = (/^https?:\/\//i.test(path) ? new URL(path).pathname : path).split('?')[0] ?? path;
  return bare.replace(/\/(object|download)\/[^/]+/, '/$1/***');
}

/** `page[size]` and friends are percent-encoded (`page%5Bsize%5D=100`), as the platform's own links are. */
export function withQuery(path: string, query: RequestOptions['query']): string {
  const pairs = Object.entries(query ?? {})
    .filter((entry): entry is [string, string | number | boolean] => entry[1] !== undefined)
    .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`);
  if (pairs.length === 0) return path;
  return `${path}${path.includes('?') ? '&' : '?'}${pairs.join('&')}`;
}

export function flattenHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

/** Parsed JSON for any JSON content type, the text otherwise, undefined when empty. */
export function decodeBody(text: string, contentType: string | undefined): unknown {
  if (text.trim() === '') return undefined;
  if (!isJson(contentType)) return text;
  try {
    return JSON.parse(text);
  } catch {
    // a proxy's error page labelled as JSON: keep the text, error messages still show it
    return text;
  }
}

function isJson(contentType: string | undefined): boolean {
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  return type === 'application/json' || type.endsWith('+json');
}
