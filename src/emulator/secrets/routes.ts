/**
 * How an engine declares its routes under its mount: each route says which
 * capabilities a request needs on its path (or none, for the two
 * unauthenticated SSH endpoints), and list routes answer both the `LIST`
 * method (rewritten below the router to `GET ?list=true`, see
 * src/emulator/list-method.ts) and `GET ?list=true` itself.
 */
import type { FastifyInstance, FastifyRequest, HTTPMethods } from 'fastify';
import type { EmulatorContext } from '../context.ts';
import { route } from '../context.ts';
import type { ApiResponse } from '../jsonapi.ts';
import { type Capability, require, type SecretsToken, tokenOf } from './access.ts';
import { refused, unsupported } from './envelope.ts';
import type { Mount, SecretsSlice } from './slice.ts';

/** What a request needs on its path: capabilities, a choice made from the request, or nothing. */
export type Needs = readonly Capability[] | ((request: FastifyRequest) => readonly Capability[]) | 'unauthenticated';

export type MountHandler = (
  request: FastifyRequest,
  token: SecretsToken | undefined,
) => ApiResponse | Promise<ApiResponse>;

export interface MountRouter {
  readonly mount: Mount;
  readonly slice: SecretsSlice;
  readonly ctx: EmulatorContext;
  on(method: HTTPMethods, subpath: string, needs: Needs, handler: MountHandler): void;
  /** A LIST endpoint (`roles` for `LIST /ssh/roles`). */
  list(subpath: string, handler: MountHandler): void;
}

/**
 * `mapError` turns what an engine's handler throws into the answer the engine gives for it
 * (the LDAP engine answers a directory's error with its message), on every route of the mount.
 */
export function mountRouter(
  api: FastifyInstance,
  ctx: EmulatorContext,
  slice: SecretsSlice,
  mount: Mount,
  mapError?: (error: unknown) => unknown,
): MountRouter {
  const guarded = (needs: Needs, given: MountHandler, listing = false) => {
    const handler: MountHandler = mapError
      ? async (request, token) => {
          try {
            return await given(request, token);
          } catch (error) {
            throw mapError(error);
          }
        }
      : given;
    return (request: FastifyRequest) => {
      if (needs === 'unauthenticated') return handler(request, undefined);
      const token = tokenOf(request, slice.tokens);
      const wanted = typeof needs === 'function' ? needs(request) : needs;
      // a GET ?list=true on a name route (`ldap/static-role/team`) lists a level: its policy path ends in `/`
      require(token, policyPath(request, listing || wanted.includes('list')), slice.policyTable, ...wanted);
      return handler(request, token);
    };
  };
  return {
    mount,
    slice,
    ctx,
    on(method, subpath, needs, handler) {
      route(api, method, `/${mount.path}/${subpath}`, guarded(needs, handler));
    },
    list(subpath, handler) {
      const listing = guarded(['list'], handler, true);
      const answer = (request: FastifyRequest) => {
        if (!isListing(request)) throw unsupported();
        return listing(request);
      };
      route(api, 'GET', `/${mount.path}/${subpath}`, answer);
      route(api, 'GET', `/${mount.path}/${subpath}/`, answer);
    },
  };
}

/**
 * `?list=true` as the service reads it: any value Go's ParseBool takes
 * (`1`, `t`, `TRUE`, …); another value is a 400.
 */
export function isListing(request: FastifyRequest): boolean {
  const value = (request.query as Record<string, unknown>).list;
  // the service reads an empty value as no `list` parameter at all
  if (value === undefined || value === '') return false;
  const text = String(value);
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(text)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(text)) return false;
  throw refused(`invalid value for "list": ${text}`);
}

/** The request's path as policies name it: no `/v1/` prefix, no query; a list path ends in `/`. */
function policyPath(request: FastifyRequest, listing: boolean): string {
  const path = decodeURI((request.url.split('?')[0] ?? '').replace(/^\/v1\//, ''));
  return listing && !path.endsWith('/') ? `${path}/` : path;
}
