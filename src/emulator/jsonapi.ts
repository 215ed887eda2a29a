/**
 * JSON:API as the platform speaks it (wire-details §1, §2): documents, error
 * objects and paginated lists. Handlers return an `ApiResponse` or throw an
 * `ApiError`; the server writes both, so no handler touches the reply.
 */

import { isPlainObject } from '../reconcile/equal.ts';
import type { Fields, Json } from '../reconcile/types.ts';

export type { Json };
/** A JSON object: a resource's attributes, a document's meta or links. */
export type Attributes = Fields;

export const JSONAPI_TYPE = 'application/vnd.api+json';

export interface ApiResponse {
  status: number;
  body?: Json;
  headers?: Record<string, string>;
}

export interface ErrorObject {
  status: string;
  title: string;
  detail?: string;
  source?: { pointer: string };
}

export class ApiError extends Error {
  readonly status: number;
  readonly errors: ErrorObject[];

  constructor(status: number, errors: ErrorObject[]) {
    super(errors.map((e) => e.detail ?? e.title).join('; '));
    this.name = 'ApiError';
    this.status = status;
    this.errors = errors;
  }

  get body(): Json {
    return { errors: this.errors as unknown as Json[] };
  }

  /** The answer that carries this error. */
  get response(): ApiResponse {
    return { status: this.status, body: this.body };
  }
}

/** One failed validation of one attribute: `api-rate-limit`, `must be greater than or equal to 30`. */
export interface Problem {
  attribute: string;
  message: string;
}

/** An error answer with one error object: any status, its title, and what went wrong. */
export const apiError = (status: number, title: string, detail?: string) =>
  new ApiError(status, [{ status: String(status), title, ...(detail !== undefined && { detail }) }]);

/** Also the answer to a valid token without the right: the platform never says 403 there (wire-details §1). */
export const notFound = () => apiError(404, 'not found');
export const unauthorized = () => apiError(401, 'unauthorized');
export const badRequest = (detail: string) => apiError(400, 'bad request', detail);
export const forbidden = (detail: string) => apiError(403, 'forbidden', detail);
/** 422 that is not about one attribute: a malformed body, a rule across objects. */
export const unprocessable = (detail: string) => apiError(422, 'unprocessable entity', detail);

/** Every failed validation at once, one error object each, Rails-style detail. */
export function invalid(problems: readonly Problem[]): ApiError {
  return new ApiError(
    422,
    problems.map((p) => ({
      status: '422',
      title: 'invalid attribute',
      detail: `${humanize(p.attribute)} ${p.message}`,
      source: { pointer: `/data/attributes/${p.attribute}` },
    })),
  );
}

/** A bad query parameter: no `source`, the parameter named in the detail (wire-details §1). */
export function invalidParameter(detail: string): ApiError {
  return apiError(422, 'invalid attribute', detail);
}

/** `api-rate-limit` -> `Api rate limit`, as Rails humanizes attribute names. */
function humanize(attribute: string): string {
  const words = attribute.replaceAll('-', ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

// a type, not an interface, so that a resource is also plain `Json`
export type ResourceObject = {
  id: string;
  type: string;
  attributes: Attributes;
  relationships?: Attributes;
  links?: Attributes;
};

export function document(resource: ResourceObject | null, extra: Attributes = {}): Json {
  return { data: resource, ...extra };
}

/** The attributes of a request document, or a 422 for anything that is not one. */
export function requestAttributes(body: unknown, type?: string): Attributes {
  if (!isPlainObject(body) || !isPlainObject(body.data)) {
    throw unprocessable('the body must be a JSON:API document with data');
  }
  const { data } = body;
  if (type !== undefined && data.type !== undefined && data.type !== type) {
    throw unprocessable(`data.type must be ${type}`);
  }
  if (data.attributes === undefined) return {};
  if (!isPlainObject(data.attributes)) throw unprocessable('data.attributes must be an object');
  return data.attributes;
}
