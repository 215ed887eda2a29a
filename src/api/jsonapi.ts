/**
 * JSON:API documents as the platform API speaks them (docs/apis.md, which
 * also covers pagination). Shared by every provider of a JSON:API
 * kind, so that reading a page, following pagination and building a request
 * body are written once.
 */
import { ConvergeError } from '../errors.ts';
import type { Fields, Json } from '../reconcile/types.ts';
import type { HttpClient, RequestOptions, Resource } from './types.ts';

/** The largest page the platform serves; bigger sizes are a 422, not clamped (docs/apis.md). */
export const PAGE_SIZE = 100;

/** A page cap that no real collection reaches: stops a server that always says there is a next page. */
const MAX_PAGES = 10_000;

type Query = NonNullable<RequestOptions['query']>;

export interface RequestExtras {
  signal?: AbortSignal;
}

/** The `data` resource of a single-resource document. */
export async function getResource(client: HttpClient, path: string, extras: RequestExtras = {}): Promise<Resource> {
  const response = await client.request({ method: 'GET', path, ...extras });
  return resourceOf(response.body, `GET ${path}`);
}

/**
 * Every resource of a collection, one request per page of 100 (so N objects
 * cost ceil(N/100) requests, one for an empty collection). The first page
 * tells `total-pages`; the rest are asked for at once, and the client's
 * window decides how many fly together. Pages that appear while we read
 * (`next-page` past the total) are followed one by one.
 */
export async function listResources(
  client: HttpClient,
  path: string,
  query: Query = {},
  extras: RequestExtras = {},
): Promise<Resource[]> {
  const readPage = async (number: number) => {
    const response = await client.request({
      method: 'GET',
      path,
      query: { ...query, 'page[number]': number, 'page[size]': PAGE_SIZE },
      ...extras,
    });
    const what = `GET ${path}`;
    return { resources: resourcesOf(response.body, what), meta: documentOf(response.body, what).meta };
  };
  const first = await readPage(1);
  const total = Math.min(totalPages(first.meta), MAX_PAGES);
  const rest = await Promise.all(Array.from({ length: Math.max(0, total - 1) }, (_, i) => readPage(i + 2)));
  const pages = [first, ...rest];
  let last = pages.length;
  let next = nextPage(pages[last - 1]?.meta, last);
  while (next !== null && last < MAX_PAGES) {
    const page = await readPage(next);
    pages.push(page);
    last = next;
    next = nextPage(page.meta, last);
  }
  return pages.flatMap((page) => page.resources);
}

/**
 * Every resource of a collection the API does not page (a module's test
 * variables): one request, no page parameters. A 404 (the collection's owner
 * has none, or does not exist yet) is no resources.
 */
export async function listUnpaged(client: HttpClient, path: string, extras: RequestExtras = {}): Promise<Resource[]> {
  const response = await client.request({ method: 'GET', path, accept: [404], ...extras });
  if (response.status === 404) return [];
  return resourcesOf(response.body, `GET ${path}`);
}

/** A request document: `{data: {type, id?, attributes}}`. */
export function resourceBody(type: string, attributes: Fields, id?: string): { data: Fields } {
  return { data: { type, ...(id !== undefined && { id }), attributes } };
}

/** A copy of a resource's attributes, so callers never change what was read. */
export function attributesOf(resource: Resource): Fields {
  return { ...resource.attributes };
}

/** The `data` resource of a response body, checked. */
export function resourceOf(body: unknown, what: string): Resource {
  return toResource(documentOf(body, what).data, what);
}

/** The `data` resources of a collection document, checked. */
function resourcesOf(body: unknown, what: string): Resource[] {
  const { data } = documentOf(body, what);
  if (!Array.isArray(data)) throw malformed(what, 'data is not a list');
  return data.map((item) => toResource(item, what));
}

function documentOf(body: unknown, what: string): { data?: unknown; meta?: unknown } {
  if (!isRecord(body)) throw malformed(what, 'the response is not a JSON:API document');
  return body;
}

function toResource(value: unknown, what: string): Resource {
  if (!isRecord(value) || typeof value.id !== 'string' || typeof value.type !== 'string') {
    throw malformed(what, 'a resource has no id or type');
  }
  const attributes = isRecord(value.attributes) ? (value.attributes as Fields) : {};
  const resource: Resource = { id: value.id, type: value.type, attributes };
  if (isRecord(value.relationships)) resource.relationships = value.relationships as Resource['relationships'];
  if (isRecord(value.links)) resource.links = value.links as Record<string, Json>;
  return resource;
}

/** `meta.pagination.total-pages`, or 1 when the server does not say. */
function totalPages(meta: unknown): number {
  if (!isRecord(meta) || !isRecord(meta.pagination)) return 1;
  const total = Number(meta.pagination['total-pages']);
  return Number.isInteger(total) && total > 1 ? total : 1;
}

/** The next page number, or null on the last page (or when the server sent no pagination at all). */
function nextPage(meta: unknown, current: number): number | null {
  if (!isRecord(meta) || !isRecord(meta.pagination)) return null;
  const next = meta.pagination['next-page'];
  const number = typeof next === 'string' ? Number(next) : next;
  // a next page that does not move forward would loop forever
  return typeof number === 'number' && Number.isInteger(number) && number > current ? number : null;
}

function malformed(what: string, reason: string): ConvergeError {
  return new ConvergeError('API_ERROR', `${what}: unexpected response: ${reason}`, {
    hint: 'check that the configured platform URL points at the platform API',
  });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
