/**
 * JSON:API as the platform speaks it (wire-details §1, §2): documents, error
 * objects and paginated lists. Handlers return an `ApiResponse` or throw an
 * `ApiError`; the server writes both, so no handler touches the reply.
 */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type Attributes = { [key: string]: Json };

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
}

/** One failed validation of one attribute: `api-rate-limit`, `must be greater than or equal to 30`. */
export interface Problem {
  attribute: string;
  message: string;
}

const simple = (status: number, title: string, detail?: string) =>
  new ApiError(status, [{ status: String(status), title, ...(detail !== undefined && { detail }) }]);

/** Also the answer to a valid token without the right: the platform never says 403 there (wire-details §1). */
export const notFound = () => simple(404, 'not found');
export const unauthorized = () => simple(401, 'unauthorized');
export const badRequest = (detail: string) => simple(400, 'bad request', detail);
export const forbidden = (detail: string) => simple(403, 'forbidden', detail);
/** 422 that is not about one attribute: a malformed body, a rule across objects. */
export const unprocessable = (detail: string) => simple(422, 'unprocessable entity', detail);
export const serverError = (status: number, title: string, detail: string) => simple(status, title, detail);

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
  return simple(422, 'invalid attribute', detail);
}

/** `api-rate-limit` -> `Api rate limit`, as Rails humanizes attribute names. */
export function humanize(attribute: string): string {
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
  if (!isRecord(body) || !isRecord(body.data)) throw unprocessable('the body must be a JSON:API document with data');
  const { data } = body;
  if (type !== undefined && data.type !== undefined && data.type !== type) {
    throw unprocessable(`data.type must be ${type}`);
  }
  if (data.attributes === undefined) return {};
  if (!isRecord(data.attributes)) throw unprocessable('data.attributes must be an object');
  return data.attributes as Attributes;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
