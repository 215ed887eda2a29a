/**
 * JSON:API as the platform speaks it (docs/apis.md): documents, error objects
 * and paginated lists. Handlers return an `ApiResponse` or throw an
 * `HttpFailure`; the server writes both in the form of the handler's API
 * (src/emulator/wire-form.ts), so no handler touches the reply.
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
  /** A body that is not JSON (the SSH engine's raw public key), sent as `text/plain`. */
  text?: string;
  /** Bytes as they are (an uploaded archive), with their media type. */
  raw?: { type: string; bytes: Buffer };
  headers?: Record<string, string>;
}

export interface ErrorObject {
  status: string;
  title: string;
  detail?: string;
  source?: { pointer: string };
}

/**
 * An error answer a handler throws (named apart from the client's ApiError).
 * Each error object has a title and, where there is more to say, a detail:
 * JSON:API APIs send them as they are, plain-JSON APIs send the details as
 * strings (src/emulator/wire-form.ts).
 */
export class HttpFailure extends Error {
  readonly status: number;
  readonly errors: ErrorObject[];

  constructor(status: number, errors: ErrorObject[]) {
    super(errors.map((e) => e.detail ?? e.title).join('; '));
    this.name = 'HttpFailure';
    this.status = status;
    this.errors = errors;
  }
}

/** One failed validation of one attribute: `api-rate-limit`, `must be greater than or equal to 30`. */
export interface Problem {
  attribute: string;
  message: string;
}

/** An error answer with one error object: any status, its title, and what went wrong. */
export const httpFailure = (status: number, title: string, detail?: string) =>
  new HttpFailure(status, [{ status: String(status), title, ...(detail !== undefined && { detail }) }]);

/** Also the answer to a valid token without the right: the platform never says 403 there (docs/apis.md). */
export const notFound = () => httpFailure(404, 'not found');
export const unauthorized = () => httpFailure(401, 'unauthorized');
export const badRequest = (detail: string) => httpFailure(400, 'bad request', detail);
export const forbidden = (detail: string) => httpFailure(403, 'forbidden', detail);
/** 422 that is not about one attribute: a malformed body, a rule across objects. */
export const unprocessable = (detail: string) => httpFailure(422, 'unprocessable entity', detail);

/** Every failed validation at once, one error object each, Rails-style detail. */
export function invalid(problems: readonly Problem[]): HttpFailure {
  return new HttpFailure(
    422,
    problems.map((p) => ({
      status: '422',
      title: 'invalid attribute',
      detail: `${humanize(p.attribute)} ${p.message}`,
      source: { pointer: `/data/attributes/${p.attribute}` },
    })),
  );
}

/** A bad query parameter: no `source`, the parameter named in the detail (docs/apis.md). */
export function invalidParameter(detail: string): HttpFailure {
  return httpFailure(422, 'invalid attribute', detail);
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
