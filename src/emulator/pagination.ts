/**
 * `page[number]` / `page[size]` pagination with `links` and
 * `meta.pagination` as the platform sends them (docs/apis.md): absolute
 * links with percent-encoded brackets, a 422 for a page size outside 1..100
 * (the platform does not clamp).
 */
import { type Attributes, invalidParameter, type Json, type ResourceObject } from './jsonapi.ts';

const DEFAULT_PAGE_SIZE = 20;
const MAX_PAGE_SIZE = 100;

export type Query = Record<string, string | string[] | undefined>;

export interface Page<T> {
  items: T[];
  links: Attributes;
  meta: Attributes;
}

/** One query parameter's value; a repeated parameter counts as its last value. */
export function param(query: Query, name: string): string | undefined {
  const value = query[name];
  return Array.isArray(value) ? value[value.length - 1] : value;
}

export function paginate<T>(items: readonly T[], query: Query, base: string): Page<T> {
  const size = pageParam(query, 'page[size]', DEFAULT_PAGE_SIZE);
  if (size > MAX_PAGE_SIZE) throw invalidParameter(`page[size] must be between 1 and ${MAX_PAGE_SIZE}`);
  const number = pageParam(query, 'page[number]', 1);
  const total = items.length;
  // an empty list still has one (empty) page, so `last` is a page that can be fetched
  const pages = Math.max(1, Math.ceil(total / size));
  const start = (number - 1) * size;
  const link = (page: number) => pageLink(base, query, page, size);
  return {
    items: items.slice(start, start + size),
    links: {
      self: link(number),
      first: link(1),
      prev: number > 1 ? link(Math.min(number - 1, pages)) : null,
      next: number < pages ? link(number + 1) : null,
      last: link(pages),
    },
    meta: {
      pagination: {
        'current-page': number,
        'page-size': size,
        'prev-page': number > 1 ? Math.min(number - 1, pages) : null,
        'next-page': number < pages ? number + 1 : null,
        'total-pages': pages,
        'total-count': total,
      },
    },
  };
}

/** The list document of one page: its resources, `links`, and `meta.pagination` plus any other meta. */
export function pageDocument<T>(
  page: Page<T>,
  resource: (item: T) => ResourceObject,
  meta: Attributes = {},
): Attributes {
  const data = page.items.map((item) => resource(item)) as unknown as Json[];
  return { data, links: page.links, meta: { ...page.meta, ...meta } };
}

function pageParam(query: Query, name: string, fallback: number): number {
  const raw = param(query, name);
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) {
    throw invalidParameter(
      name === 'page[size]'
        ? `page[size] must be between 1 and ${MAX_PAGE_SIZE}`
        : `${name} must be a positive integer`,
    );
  }
  return value;
}

/** The page parameters first, then the caller's other parameters (filters, search), all encoded. */
function pageLink(base: string, query: Query, page: number, size: number): string {
  const pairs: string[] = [`page%5Bnumber%5D=${page}`, `page%5Bsize%5D=${size}`];
  for (const [key, value] of Object.entries(query)) {
    if (key === 'page[number]' || key === 'page[size]' || value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) pairs.push(`${encode(key)}=${encode(v)}`);
  }
  return `${base}?${pairs.join('&')}`;
}

const encode = (s: string) => encodeURIComponent(s);
