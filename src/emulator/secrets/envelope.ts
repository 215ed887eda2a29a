/**
 * The secrets API's answers (docs/apis.md): reads come in an envelope whose
 * `data` holds the object, writes answer 204, and errors are a list of
 * strings. A missing object and an empty list are both 404 with an empty
 * list, which is how the real service tells "nothing there".
 */
import { randomUUID } from 'node:crypto';
import { type ApiResponse, HttpFailure, httpFailure, type Json } from '../jsonapi.ts';

export function envelope(data: Json, extra: Record<string, Json> = {}): ApiResponse {
  return {
    status: 200,
    body: {
      request_id: randomUUID(),
      lease_id: '',
      renewable: false,
      lease_duration: 0,
      data,
      wrap_info: null,
      warnings: null,
      auth: null,
      ...extra,
    },
  };
}

export const noContent = (): ApiResponse => ({ status: 204 });

/** A LIST answer: names, and per name what the service tells about it; an empty list is a 404. */
export function listed(keys: readonly string[], info?: Record<string, Json>): ApiResponse {
  if (keys.length === 0) throw missing();
  const sorted = [...keys].sort();
  return envelope({ keys: sorted, ...(info && Object.keys(info).length > 0 && { key_info: info }) });
}

/** 404 `{"errors":[]}`: no such object, or nothing to list. */
export const missing = () => new HttpFailure(404, [{ status: '404', title: 'not found' }]);

/** 400 with the message verbatim: what the service's handlers answer for bad input. */
export const refused = (message: string) => httpFailure(400, 'bad request', message);

export const permissionDenied = () => httpFailure(403, 'forbidden', 'permission denied');

/** An unsupported operation on a known path (GET on a list path without `list`). */
export const unsupported = () => httpFailure(405, 'method not allowed', 'unsupported operation');

/**
 * A failure the service's backend returns as a plain error: 500, with the
 * text its core wraps every such error in.
 */
export const failed = (message: string) =>
  httpFailure(500, 'internal server error', `1 error occurred:\n\t* ${message}\n\n`);
