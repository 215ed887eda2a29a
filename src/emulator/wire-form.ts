/**
 * How an API module of the emulator speaks on the wire: its media type, how
 * a request carries its token, and how an error answer looks. The server core
 * (not-found and error handlers, injected faults, the per-credential rate
 * limit) asks the module of the request's path, so a plain-JSON API with
 * `{"errors": ["..."]}` bodies plugs in beside the JSON:API one without
 * touching the core.
 */
import type { FastifyRequest } from 'fastify';
import { bearerToken } from './auth.ts';
import type { HttpFailure, Json } from './jsonapi.ts';
import { JSONAPI_TYPE } from './jsonapi.ts';

export interface WireForm {
  contentType: string;
  /** The token a request carries, if any. */
  token(request: FastifyRequest): string | undefined;
  /** The body of an error answer. */
  errorBody(failure: HttpFailure): Json;
}

/** The platform API: JSON:API error objects, `Authorization: Bearer`. */
export const JSONAPI_FORM: WireForm = {
  contentType: JSONAPI_TYPE,
  token: bearerToken,
  errorBody: (failure) => ({ errors: failure.errors as unknown as Json[] }),
};

/**
 * The secrets API: plain JSON, `X-Service-Token`, and errors as a list of
 * strings; an error with no detail (a missing object) is the empty list
 * `{"errors": []}`, as the real service answers (docs/apis.md).
 */
export const PLAIN_JSON_FORM: WireForm = {
  contentType: 'application/json',
  token(request) {
    const header = request.headers['x-service-token'];
    return typeof header === 'string' && header !== '' ? header : undefined;
  },
  errorBody: (failure) => ({ errors: failure.errors.flatMap((e) => (e.detail === undefined ? [] : [e.detail])) }),
};
