/**
 * The secrets API (docs/apis.md, docs/emulator.md), under `/v1`: token
 * creation, and each mounted engine's routes at its mount path. Mounts come
 * from the seed (the SSH engine at `ssh` by default).
 */
import type { FastifyInstance } from 'fastify';
import type { ApiModule } from '../context.ts';
import { route } from '../context.ts';
import { registerSsh } from '../ssh/index.ts';
import { PLAIN_JSON_FORM } from '../wire-form.ts';
import { childDisplayName, childPolicies, require, tokenOf } from './access.ts';
import { envelope, refused } from './envelope.ts';
import { bodyOf, seconds, str } from './fields.ts';
import { mountRouter } from './routes.ts';
import { secretsSlice } from './slice.ts';

export const SECRETS_PREFIX = '/v1';

export const secrets: ApiModule = {
  name: 'secrets',
  prefix: SECRETS_PREFIX,
  form: PLAIN_JSON_FORM,
  register(api, ctx) {
    const slice = secretsSlice(ctx.state);
    acceptServiceJson(api);

    // a narrower token, as the service mints one: its display name feeds SSH key ids and LDAP templates
    route(api, 'POST', '/auth/token/create', (request) => {
      const parent = tokenOf(request, slice.tokens);
      require(parent, 'auth/token/create', slice.policyTable, 'update');
      const body = bodyOf(request.body);
      const asked = Array.isArray(body.policies) ? body.policies.map(String) : undefined;
      const token = slice.mint(childDisplayName(str(body, 'display_name')), childPolicies(parent, asked));
      const ttl = seconds(body, 'ttl', 2764800);
      return envelope(null, {
        auth: {
          client_token: token.token,
          accessor: '',
          policies: token.policies,
          token_policies: token.policies,
          metadata: null,
          lease_duration: ttl,
          renewable: true,
          entity_id: '',
          token_type: 'service',
          orphan: false,
        },
      });
    });

    route(api, 'GET', '/auth/token/lookup-self', (request) => {
      const token = tokenOf(request, slice.tokens);
      return envelope({ display_name: token.displayName, policies: token.policies });
    });

    for (const mount of slice.mounts.values()) {
      const router = mountRouter(api, ctx, slice, mount);
      if (mount.type === 'ssh') registerSsh(router);
    }
  },
};

/**
 * Bodies as the service reads them: JSON whatever the media type says, and
 * a body that does not parse is its 400 `failed to parse JSON input: …`
 * (the platform API's parser answers 422). Parsers belong to this module's
 * encapsulated scope, so the platform API keeps its own.
 */
function acceptServiceJson(api: FastifyInstance): void {
  api.removeAllContentTypeParsers();
  api.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => {
    const text = String(body);
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch (error) {
      done(refused(`failed to parse JSON input: ${(error as Error).message}`));
    }
  });
}
