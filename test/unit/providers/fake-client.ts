/**
 * A recording fake of the HttpClient contract (src/api/types.ts): routes
 * answer requests in memory, every request is kept for request-shape
 * assertions, and a status outside 2xx and `accept` is thrown as the real
 * client throws it (ApiError).
 */
import { ApiError } from '../../../src/api/errors.ts';
import type { ApiName } from '../../../src/api/profiles.ts';
import type { HttpClient, HttpResponse, RequestOptions, Resource } from '../../../src/api/types.ts';
import type { ProviderContext } from '../../../src/reconcile/provider.ts';
import { runContexts } from '../../../src/reconcile/services.ts';
import type { Fields } from '../../../src/reconcile/types.ts';

export interface Reply {
  status?: number;
  body?: unknown;
}

export type Handler = (request: RequestOptions, params: string[]) => Reply | undefined;

interface Route {
  method: string;
  pattern: RegExp;
  handler: Handler;
}

export class FakeClient implements HttpClient {
  readonly baseUrl = 'http://platform.test';
  readonly stats = { requests: 0, retries: 0, rateLimited: 0 };
  readonly concurrency = 1;
  readonly requests: RequestOptions[] = [];
  readonly #routes: Route[] = [];

  /** `path` may hold `:param` segments, which are passed to the handler in order. */
  on(method: string, path: string, handler: Handler): this {
    const pattern = new RegExp(`^${path.replace(/:[a-z]+/g, '([^/]+)')}$`);
    this.#routes.push({ method, pattern, handler });
    return this;
  }

  async request<T = unknown>(options: RequestOptions): Promise<HttpResponse<T>> {
    this.requests.push(structuredClone(options));
    this.stats.requests++;
    let reply: Reply = { status: 404, body: { errors: [{ status: '404', title: 'not found' }] } };
    for (const route of this.#routes) {
      const match = route.method === options.method ? route.pattern.exec(options.path) : null;
      if (!match) continue;
      reply = route.handler(options, match.slice(1).map(decodeURIComponent)) ?? { status: 204 };
      break;
    }
    const status = reply.status ?? 200;
    if ((status < 200 || status > 299) && !options.accept?.includes(status)) {
      const messages = [`${status}`];
      throw new ApiError({
        status,
        method: options.method,
        path: options.path,
        messages,
        outcome: 'failed',
        api: 'platform',
      });
    }
    return { status, headers: {}, body: reply.body as T };
  }

  /** `METHOD path?query` per request, for compact assertions. */
  get lines(): string[] {
    return this.requests.map((r) => {
      const query = Object.entries(r.query ?? {})
        .map(([k, v]) => `${k}=${v}`)
        .join('&');
      return `${r.method} ${r.path}${query ? `?${query}` : ''}`;
    });
  }

  async close(): Promise<void> {}
}

/** A provider's context for one run whose only client, of `api`, is `client` (src/reconcile/services.ts). */
export function contextFor(client: HttpClient | undefined, api: ApiName = 'platform'): ProviderContext {
  return runContexts({ clients: client ? { [api]: client } : {}, signal: new AbortController().signal })({ api });
}

/** A JSON:API collection answered page by page, with `meta.pagination` as the platform sends it. */
export function pagedCollection(resources: () => Resource[]): Handler {
  return (request) => {
    const all = resources();
    const size = Number(request.query?.['page[size]'] ?? 20);
    const number = Number(request.query?.['page[number]'] ?? 1);
    const pages = Math.max(1, Math.ceil(all.length / size));
    const pagination = {
      'current-page': number,
      'page-size': size,
      'prev-page': number > 1 ? number - 1 : null,
      'next-page': number < pages ? number + 1 : null,
      'total-pages': pages,
      'total-count': all.length,
    };
    return { body: { data: all.slice((number - 1) * size, number * size), meta: { pagination } } };
  };
}

/**
 * A settings document that PATCH merges into, like the platform: attributes
 * named in `notStored` (write-only ones) are accepted and never returned.
 */
export function settingsServer(
  client: FakeClient,
  type: string,
  id: string,
  initial: Fields,
  notStored: readonly string[] = [],
) {
  const state = { attributes: { ...initial } };
  const document = () => ({ data: { id, type, attributes: { ...state.attributes } } });
  client.on('GET', `/api/v2/admin/${type}`, () => ({ body: document() }));
  client.on('PATCH', `/api/v2/admin/${type}`, (request) => {
    const attributes = (request.body as { data: { attributes: Fields } }).data.attributes;
    for (const [key, value] of Object.entries(attributes)) if (!notStored.includes(key)) state.attributes[key] = value;
    return { body: document() };
  });
  return state;
}

export function resource(type: string, id: string, attributes: Fields): Resource {
  return { id, type, attributes };
}
