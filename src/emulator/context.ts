/**
 * What an API module gets to work with, and how it declares routes: a
 * handler takes the request and returns an `ApiResponse` (or throws an
 * `HttpFailure`); writing the reply in the module's wire form, counting and
 * faults are the server's.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import type { Sessions } from './auth.ts';
import type { ApiResponse, HttpFailure } from './jsonapi.ts';
import type { Query } from './pagination.ts';
import type { State } from './state.ts';
import { JSONAPI_FORM, type WireForm } from './wire-form.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The wire form of the API module whose routes this (encapsulated) instance holds. */
    wireForm?: WireForm;
  }
}

export interface EmulatorContext {
  readonly state: State;
  readonly sessions: Sessions;
  /** The emulator's base URL without a trailing slash (known once it listens). */
  url(): string;
  now(): number;
  /**
   * Requests per second per client, or undefined for no limit. The module
   * that owns the setting (site-admin general settings) provides it.
   */
  rateLimit: () => number | undefined;
  /** Diagnostics and audit lines (stderr in the CLI); nothing by default. */
  log(line: string): void;
  /**
   * Work that happens with time, not requests (a static role's rotation, a
   * lease's expiry): run every `ms` until the emulator closes.
   */
  every(ms: number, work: () => void | Promise<void>): void;
  /** Cleanup when the emulator closes (a directory connection). */
  onClose(work: () => void | Promise<void>): void;
}

/** One API: its routes, registered under its prefix (`/api/v2` for the platform, `/v1` for secrets), in its wire form. */
export interface ApiModule {
  name: string;
  prefix: string;
  form: WireForm;
  /** The platform's `api-rate-limit` applies to this API's paths (the secrets API advertises no limit). */
  rateLimited?: boolean;
  register(api: FastifyInstance, ctx: EmulatorContext): void;
  /**
   * The answer to a request no route of the module took, when the API says more than a plain 404
   * (the secrets API names a path under no mount); undefined for the plain 404.
   */
  notFound?(request: FastifyRequest, ctx: EmulatorContext): HttpFailure | undefined;
}

export type Handler = (request: FastifyRequest) => ApiResponse | Promise<ApiResponse>;

export function route(api: FastifyInstance, method: HTTPMethods | HTTPMethods[], url: string, handler: Handler): void {
  api.route({ method, url, handler: async (request, reply) => send(reply, await handler(request)) });
}

/** Writes an answer in the wire form of the route's module (JSON:API outside every module). */
export function send(reply: FastifyReply, response: ApiResponse, form = formOf(reply)): FastifyReply {
  reply.code(response.status);
  if (response.headers) reply.headers(response.headers);
  if (response.text !== undefined) return reply.type('text/plain; charset=utf-8').send(response.text);
  if (response.raw !== undefined) return reply.type(response.raw.type).send(response.raw.bytes);
  if (response.body === undefined) return reply.send();
  return reply.type(form.contentType).send(JSON.stringify(response.body));
}

/** Writes an error answer in the given form. */
export function sendFailure(reply: FastifyReply, failure: HttpFailure, form = formOf(reply)): FastifyReply {
  return send(reply, { status: failure.status, body: form.errorBody(failure) }, form);
}

function formOf(reply: FastifyReply): WireForm {
  return reply.server.wireForm ?? JSONAPI_FORM;
}

export function queryOf(request: FastifyRequest): Query {
  return request.query as Query;
}

export function paramsOf(request: FastifyRequest): Record<string, string> {
  return request.params as Record<string, string>;
}

/** `http://host:port` as the client addressed us, for absolute links. */
export function origin(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}
