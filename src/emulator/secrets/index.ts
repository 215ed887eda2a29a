/**
 * The secrets API (docs/apis.md, docs/emulator.md), under `/v1`: token
 * creation, and each mounted engine's routes at its mount path. Mounts come
 * from the seed (the SSH engine at `ssh` by default).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ApiModule } from '../context.ts';
import { route } from '../context.ts';
import { Directories } from '../ldap/connection.ts';
import { DEFAULT_DIRECTORY_LDIF, type Directory, memoryDirectory } from '../ldap/directory/index.ts';
import { answerDirectoryError, registerLdap } from '../ldap/index.ts';
import { registerSsh } from '../ssh/index.ts';
import { PLAIN_JSON_FORM } from '../wire-form.ts';
import { childDisplayName, childPolicies, require, tokenOf } from './access.ts';
import { envelope, noContent, refused } from './envelope.ts';
import { bodyOf, seconds, str } from './fields.ts';
import { mountRouter } from './routes.ts';
import { MEMORY_DIRECTORY_URL } from './seed.ts';
import { type SecretsSlice, secretsSlice } from './slice.ts';
import { unmountedRoute } from './unmounted.ts';

export const SECRETS_PREFIX = '/v1';

/** How often ended leases are looked for. */
const LEASE_TICK_MS = 1000;

/** A state restored from a file has no seed: it gets the built-in directory. */
const defaultDirectories = (): Array<{ url: string; ldif?: string }> => [{ url: MEMORY_DIRECTORY_URL }];

/** Renewal and revocation of leases (`sys/leases/renew`, `sys/leases/revoke`), by PUT as the service documents, or POST. */
function registerLeases(api: FastifyInstance, slice: SecretsSlice): void {
  const guarded = (path: string) => (request: FastifyRequest) => {
    const token = tokenOf(request, slice.tokens);
    require(token, path, slice.policyTable, 'update');
    return bodyOf(request.body);
  };
  route(api, ['PUT', 'POST'], '/sys/leases/renew', (request) => {
    const body = guarded('sys/leases/renew')(request);
    const lease = slice.leases.renew(str(body, 'lease_id'), seconds(body, 'increment'));
    return envelope(null, {
      lease_id: lease.id,
      renewable: lease.renewable,
      lease_duration: slice.leases.secondsLeft(lease),
    });
  });
  route(api, ['PUT', 'POST'], '/sys/leases/revoke', async (request) => {
    const body = guarded('sys/leases/revoke')(request);
    await slice.leases.revoke(str(body, 'lease_id'));
    return noContent();
  });
}

export const secrets: ApiModule = {
  name: 'secrets',
  prefix: SECRETS_PREFIX,
  form: PLAIN_JSON_FORM,
  notFound: (request, ctx) => unmountedRoute(request, secretsSlice(ctx.state, ctx.now), SECRETS_PREFIX),
  register(api, ctx) {
    const slice = secretsSlice(ctx.state, ctx.now);
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

    registerLeases(api, slice);
    ctx.every(LEASE_TICK_MS, () => slice.leases.expire());

    // the seed's in-memory directories, one per URL, shared by the LDAP mounts that name them
    const memory = new Map<string, Directory>(
      (ctx.state.seed.secrets?.directories ?? defaultDirectories()).map((d) => [
        d.url,
        memoryDirectory(d.ldif ?? DEFAULT_DIRECTORY_LDIF),
      ]),
    );
    for (const mount of slice.mounts.values()) {
      if (mount.type === 'ssh') registerSsh(mountRouter(api, ctx, slice, mount));
      else {
        const directories = new Directories(memory);
        ctx.onClose(() => directories.forget());
        registerLdap(mountRouter(api, ctx, slice, mount, answerDirectoryError), directories, slice.leases);
      }
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
