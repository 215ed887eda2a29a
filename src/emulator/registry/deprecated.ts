/**
 * The registry's deprecated paths (the spec's "Versioning"), answering as
 * their replacements: each is forwarded, as the platform does, to the
 * endpoint that replaced it, with the caller's credentials.
 *
 * - `POST /registry-modules` -> `POST /organizations/:org/registry-modules/vcs`
 *   (the organization comes from `data.attributes.organization`, the name the
 *   old endpoint read it from when no VCS connection could say)
 * - `POST /registry-modules/:org/:name/:provider/versions` -> item 4
 * - `GET /registry-modules/show/:org/:name/:provider` -> item 6
 * - `POST /registry-modules/actions/delete/:org/:name[/:provider[/:version]]` -> item 8
 */
import type { FastifyRequest } from 'fastify';
import type { ApiModule } from '../context.ts';
import { paramsOf, route } from '../context.ts';
import { type Json, unprocessable } from '../jsonapi.ts';
import { JSONAPI_FORM } from '../wire-form.ts';

const modules = (org: string) => `/api/v2/organizations/${encodeURIComponent(org)}/registry-modules`;
const privatePath = (org: string, name: string, provider: string) =>
  `${modules(org)}/private/${encodeURIComponent(org)}/${encodeURIComponent(name)}/${encodeURIComponent(provider)}`;

async function forward(request: FastifyRequest, method: 'GET' | 'POST' | 'DELETE', url: string) {
  const answer = await request.server.inject({
    method,
    url,
    headers: {
      ...(request.headers.authorization && { authorization: request.headers.authorization }),
      'content-type': 'application/vnd.api+json',
    },
    ...(method === 'POST' && request.body !== undefined && { payload: JSON.stringify(request.body) }),
  });
  const body = answer.body === '' ? undefined : (JSON.parse(answer.body) as Json);
  return { status: answer.statusCode, ...(body !== undefined && { body }) };
}

export const deprecatedRegistry: ApiModule = {
  name: 'registry-deprecated',
  prefix: '/api/v2/registry-modules',
  form: JSONAPI_FORM,
  rateLimited: true,
  register(api) {
    route(api, 'POST', '/', (request) => {
      const attributes = (request.body as { data?: { attributes?: Record<string, unknown> } } | undefined)?.data
        ?.attributes;
      const org = attributes?.organization;
      if (typeof org !== 'string')
        throw unprocessable('data.attributes.organization names the organization the module is published in');
      return forward(request, 'POST', `${modules(org)}/vcs`);
    });
    route(api, 'POST', '/:org/:name/:provider/versions', (request) => {
      const p = paramsOf(request);
      return forward(request, 'POST', `${privatePath(p.org ?? '', p.name ?? '', p.provider ?? '')}/versions`);
    });
    route(api, 'GET', '/show/:org/:name/:provider', (request) => {
      const p = paramsOf(request);
      return forward(request, 'GET', privatePath(p.org ?? '', p.name ?? '', p.provider ?? ''));
    });
    const remove = (request: FastifyRequest) => {
      const p = paramsOf(request);
      const org = p.org ?? '';
      const base = `${modules(org)}/private/${encodeURIComponent(org)}/${encodeURIComponent(p.name ?? '')}`;
      const rest = [p.provider, p.version].filter((s): s is string => s !== undefined).map(encodeURIComponent);
      return forward(request, 'DELETE', [base, ...rest].join('/'));
    };
    route(api, 'POST', '/actions/delete/:org/:name', remove);
    route(api, 'POST', '/actions/delete/:org/:name/:provider', remove);
    route(api, 'POST', '/actions/delete/:org/:name/:provider/:version', remove);
  },
};
