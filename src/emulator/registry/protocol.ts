/**
 * The registry protocol (`modules.v1`, plain JSON; docs/apis.md): discovery
 * at `/.well-known/terraform.json`, and under `/api/registry/v1/modules/`
 * list, search, versions, download (204 with `X-Terraform-Get` and
 * `X-Service-Get`), latest per provider and per module, one version, the
 * latest download (302), and the v2 downloads summary, of private modules:
 * the namespace is the organization, and the caller must belong to it.
 * `limit` defaults to 15 and is served at most 100, reported in `meta.limit`.
 * The public-module proxy under `/api/registry/public/v1/modules/` is
 * ./public-proxy.ts; the answers' shapes are ./protocol-objects.ts.
 */
import type { FastifyRequest } from 'fastify';
import { bearerToken } from '../auth.ts';
import type { ApiModule, EmulatorContext } from '../context.ts';
import { origin, paramsOf, queryOf, route } from '../context.ts';
import { randomBase62 } from '../ids.ts';
import { httpFailure, type Json } from '../jsonapi.ts';
import { param } from '../pagination.ts';
import { hasRight, protocolCaller } from './access.ts';
import {
  latestVersion,
  moduleObject,
  type ProtocolModule,
  type ProtocolVersion,
  sortedVersions,
  versionsAnswer,
} from './protocol-objects.ts';
import { registerPublicProxy } from './public-proxy.ts';
import { type ModuleRecord, type RegistrySlice, registrySlice, type VersionRecord } from './state.ts';

export const PROTOCOL_PREFIX = '/api/registry';
const MODULES = '/v1/modules';
const DEFAULT_LIMIT = 15;
const MAX_LIMIT = 100;

const protocolNotFound = () => httpFailure(404, 'Not Found', 'Not Found');

/** The protocol's errors: a list of strings (`{"errors":["Not Found"]}`), Bearer tokens as the management API. */
export const PROTOCOL_FORM = {
  contentType: 'application/json',
  token: bearerToken,
  errorBody: (failure: { errors: Array<{ detail?: string; title: string }> }): Json => ({
    errors: failure.errors.map((e) => e.detail ?? e.title),
  }),
};

export const registryProtocol: ApiModule = {
  name: 'registry-protocol',
  prefix: PROTOCOL_PREFIX,
  form: PROTOCOL_FORM,
  rateLimited: true,
  register(api, ctx) {
    const slice = registrySlice(ctx.state);
    const visible = (request: FastifyRequest) => visibleModules(ctx, slice, request);

    const list = (request: FastifyRequest, filter: (m: ModuleRecord) => boolean) => {
      const query = queryOf(request);
      const provider = param(query, 'provider');
      const modules = visible(request).filter((m) => filter(m) && (provider === undefined || m.provider === provider));
      // `verified=true` means partner modules: private ones never are
      const verified = param(query, 'verified') === 'true';
      const entries = verified ? [] : modules.flatMap((m) => latestOf(slice, m) ?? []);
      return page(
        request,
        entries.map((e) => objectOf(slice, e.module, e.version, false)),
      );
    };
    route(api, 'GET', MODULES, (request) => list(request, () => true));
    route(api, 'GET', `${MODULES}/`, (request) => list(request, () => true));
    route(api, 'GET', `${MODULES}/search`, (request) => {
      const q = param(queryOf(request), 'q');
      if (q === undefined || q.trim() === '') throw httpFailure(400, 'Bad Request', 'q is required');
      const words = q.toLowerCase().split(/\s+/);
      const namespace = param(queryOf(request), 'namespace');
      return list(
        request,
        (m) =>
          (namespace === undefined || m.namespace === namespace) &&
          words.every((w) => [m.name, m.namespace, m.provider].some((v) => v.toLowerCase().includes(w))),
      );
    });
    route(api, 'GET', `${MODULES}/:namespace`, (request) =>
      list(request, (m) => m.namespace === paramsOf(request).namespace),
    );

    const moduleOf = (request: FastifyRequest): ModuleRecord => {
      const p = paramsOf(request);
      const found = visible(request).find(
        (m) => m.namespace === p.namespace && m.name === p.name && m.provider === p.provider,
      );
      if (!found) throw protocolNotFound();
      return found;
    };
    const versionOf = (module: ModuleRecord, version: string | undefined): VersionRecord => {
      const found = okVersions(slice, module).find((v) => v.version === version);
      if (!found) throw protocolNotFound();
      return found;
    };

    route(api, 'GET', `${MODULES}/:namespace/:name`, (request) => {
      const p = paramsOf(request);
      const modules = visible(request).filter((m) => m.namespace === p.namespace && m.name === p.name);
      const entries = modules.flatMap((m) => latestOf(slice, m) ?? []);
      if (entries.length === 0) throw protocolNotFound();
      return page(
        request,
        entries.map((e) => objectOf(slice, e.module, e.version, true)),
      );
    });
    route(api, 'GET', `${MODULES}/:namespace/:name/:provider`, (request) => {
      const entry = latestOf(slice, moduleOf(request));
      if (!entry) throw protocolNotFound();
      return { status: 200, body: objectOf(slice, entry.module, entry.version, true) };
    });
    route(api, 'GET', `${MODULES}/:namespace/:name/:provider/versions`, (request) => {
      const module = moduleOf(request);
      return {
        status: 200,
        body: versionsAnswer(protocolModule(slice, module), okVersions(slice, module).map(asVersion)),
      };
    });
    route(api, 'GET', `${MODULES}/:namespace/:name/:provider/download`, (request) => {
      const entry = latestOf(slice, moduleOf(request));
      if (!entry) throw protocolNotFound();
      const m = entry.module;
      return {
        status: 302,
        headers: {
          location: `${PROTOCOL_PREFIX}${MODULES}/${m.namespace}/${m.name}/${m.provider}/${entry.version.version}/download`,
        },
      };
    });
    route(api, 'GET', `${MODULES}/:namespace/:name/:provider/:version`, (request) => {
      const module = moduleOf(request);
      return { status: 200, body: objectOf(slice, module, versionOf(module, paramsOf(request).version), true) };
    });
    route(api, 'GET', `${MODULES}/:namespace/:name/:provider/:version/download`, (request) => {
      const version = versionOf(moduleOf(request), paramsOf(request).version);
      const token = randomBase62(32);
      slice.data.downloads[token] = version.id;
      const location = `${origin(request)}/_archivist/v1/download/${token}`;
      // both headers: the spec's and the one real clients read
      return { status: 204, headers: { 'x-service-get': location, 'x-terraform-get': location } };
    });
    route(api, 'GET', '/v2/modules/:namespace/:name/:provider/downloads/summary', (request) => {
      const module = moduleOf(request);
      const total = okVersions(slice, module).reduce((n, v) => n + v.downloads, 0);
      return {
        status: 200,
        body: {
          data: {
            type: 'module-downloads-summary',
            id: `${module.namespace}/${module.name}/${module.provider}`,
            attributes: { week: total, month: total, year: total, total },
          },
        },
      };
    });

    function page(request: FastifyRequest, modules: Json[]) {
      const query = queryOf(request);
      const offset = Math.max(0, Number.parseInt(param(query, 'offset') ?? '0', 10) || 0);
      const asked = Number.parseInt(param(query, 'limit') ?? '', 10);
      const limit = Math.min(MAX_LIMIT, asked > 0 ? asked : DEFAULT_LIMIT);
      const slicePage = modules.slice(offset, offset + limit);
      const meta: Record<string, Json> = { limit, current_offset: offset };
      if (offset + limit < modules.length) {
        meta.next_offset = offset + limit;
        const next = new URLSearchParams({
          ...Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])),
          offset: String(offset + limit),
          limit: String(limit),
        });
        meta.next_url = `${request.url.split('?')[0]}?${next.toString()}`;
      }
      if (offset > 0) meta.prev_offset = Math.max(0, offset - limit);
      return { status: 200, body: { meta, modules: slicePage } };
    }

    registerPublicProxy(api, ctx);
  },
};

/** The discovery document real clients ask for, declaring where `modules.v1` lives. */
export const discovery: ApiModule = {
  name: 'discovery',
  prefix: '/.well-known',
  form: PROTOCOL_FORM,
  register(api) {
    route(api, 'GET', '/terraform.json', () => ({
      status: 200,
      body: { 'modules.v1': `${PROTOCOL_PREFIX}${MODULES}/`, 'tfe.v2': '/api/v2/' },
    }));
  },
};

function visibleModules(ctx: EmulatorContext, slice: RegistrySlice, request: FastifyRequest): ModuleRecord[] {
  const user = protocolCaller(ctx, request);
  return slice.data.modules.filter((m) => m.registryName === 'private' && hasRight(ctx, user, m.organization, 'read'));
}

function okVersions(slice: RegistrySlice, module: ModuleRecord): VersionRecord[] {
  return sortedVersions(slice.data.versions.filter((v) => v.moduleId === module.id && v.status === 'ok'));
}

function latestOf(
  slice: RegistrySlice,
  module: ModuleRecord,
): { module: ModuleRecord; version: VersionRecord } | undefined {
  const version = latestVersion(okVersions(slice, module));
  return version && { module, version };
}

const asVersion = (v: VersionRecord): ProtocolVersion => ({
  version: v.version,
  publishedAt: v.createdAt,
  details: v.details as Json | null,
});

/** A private module: its namespace is the organization; uploaded modules have no source; never a partner's. */
function protocolModule(slice: RegistrySlice, module: ModuleRecord): ProtocolModule {
  return {
    namespace: module.namespace,
    name: module.name,
    provider: module.provider,
    owner: '',
    source: module.vcsRepo?.identifier ?? '',
    verified: false,
    downloads: okVersions(slice, module).reduce((n, v) => n + v.downloads, 0),
  };
}

function objectOf(slice: RegistrySlice, module: ModuleRecord, version: VersionRecord, detailed: boolean): Json {
  return moduleObject(
    protocolModule(slice, module),
    asVersion(version),
    okVersions(slice, module).map(asVersion),
    detailed,
  );
}
