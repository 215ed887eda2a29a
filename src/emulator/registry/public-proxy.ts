/**
 * The public-module proxy (`/api/registry/public/v1/modules/`): the hosted
 * service's window on the public registry, which supports only three reads
 * (the spec): a module's versions, its latest version for a provider, and
 * one version. The public registry is the seed's catalog
 * (`registry.publicModules`, ./seed.ts); a module not in it is 404. Each
 * version's `root`, `submodules` and `providers` come from its content (a
 * directory or a tarball the seed names), read as an upload is (./ingest,
 * in the ingest pool) when first asked for and kept. Answers have the
 * private protocol's shapes (./protocol-objects.ts); any user's token
 * reads; where public curation is off, or on a self-managed installation,
 * the proxy is a 403, as public records are.
 */
import { readFile } from 'node:fs/promises';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { packModule } from '../../registry/pack.ts';
import { type EmulatorContext, paramsOf, route } from '../context.ts';
import { httpFailure, type Json } from '../jsonapi.ts';
import { protocolCaller, registryMode } from './access.ts';
import { IngestError } from './ingest/index.ts';
import { ingestPool } from './ingest-pool.ts';
import {
  latestVersion,
  moduleObject,
  type ProtocolModule,
  type ProtocolVersion,
  versionsAnswer,
} from './protocol-objects.ts';
import type { PublicModuleSeed, PublicModuleVersionSeed, RegistrySeed } from './seed.ts';

/** Under the protocol's prefix (`/api/registry`). */
const PUBLIC_MODULES = '/public/v1/modules';

/** A version the seed gives no content: nothing is known about its root. */
const NO_CONTENT: Json = { root: { path: '', empty: true }, submodules: [], providers: [] };

export function registerPublicProxy(api: FastifyInstance, ctx: EmulatorContext): void {
  // when a version has no publishedAt: when the emulator started, the same in every answer
  const started = new Date(ctx.now()).toISOString();
  // what each version's content holds, read once: by `namespace/name/provider/version`
  const read = new Map<string, Promise<Json>>();

  const moduleOf = (request: FastifyRequest): PublicModuleSeed => {
    protocolCaller(ctx, request);
    const mode = registryMode(ctx);
    if (!mode.publicCuration || mode.selfManaged)
      throw httpFailure(403, 'Forbidden', 'public module curation is disabled');
    const p = paramsOf(request);
    const catalog = (ctx.state.seed.registry as RegistrySeed | undefined)?.publicModules ?? [];
    const found = catalog.find((m) => m.namespace === p.namespace && m.name === p.name && m.provider === p.provider);
    if (!found) throw httpFailure(404, 'Not Found', 'Not Found');
    return found;
  };

  const protocolModule = (m: PublicModuleSeed): ProtocolModule => ({
    namespace: m.namespace,
    name: m.name,
    provider: m.provider,
    owner: m.owner ?? '',
    source: m.source ?? '',
    verified: m.verified === true,
    downloads: m.downloads ?? 0,
    ...(m.description !== undefined && { description: m.description }),
  });

  const version = async (m: PublicModuleSeed, v: PublicModuleVersionSeed): Promise<ProtocolVersion> => {
    const key = `${m.namespace}/${m.name}/${m.provider}/${v.version}`;
    let details = read.get(key);
    if (!details) {
      details = contentOf(key, v);
      read.set(key, details);
    }
    return {
      version: v.version,
      publishedAt: new Date(v.publishedAt ?? started).toISOString(),
      details: await details,
    };
  };
  /** The versions' names only (no content read): what `versions` lists in a detailed answer. */
  const names = (m: PublicModuleSeed): ProtocolVersion[] =>
    m.versions.map((v) => ({ version: v.version, publishedAt: started, details: null }));

  route(api, 'GET', `${PUBLIC_MODULES}/:namespace/:name/:provider/versions`, async (request) => {
    const m = moduleOf(request);
    const versions = await Promise.all(m.versions.map((v) => version(m, v)));
    return { status: 200, body: versionsAnswer(protocolModule(m), versions) };
  });
  route(api, 'GET', `${PUBLIC_MODULES}/:namespace/:name/:provider`, async (request) => {
    const m = moduleOf(request);
    const newest = latestVersion(m.versions) as PublicModuleVersionSeed;
    return { status: 200, body: moduleObject(protocolModule(m), await version(m, newest), names(m), true) };
  });
  route(api, 'GET', `${PUBLIC_MODULES}/:namespace/:name/:provider/:version`, async (request) => {
    const m = moduleOf(request);
    const wanted = m.versions.find((v) => v.version === paramsOf(request).version);
    if (!wanted) throw httpFailure(404, 'Not Found', 'Not Found');
    return { status: 200, body: moduleObject(protocolModule(m), await version(m, wanted), names(m), true) };
  });
}

/** A version's ingested content; a seed whose content cannot be read is the emulator's error (500), saying why. */
async function contentOf(key: string, v: PublicModuleVersionSeed): Promise<Json> {
  if (v.source === undefined && v.archive === undefined) return NO_CONTENT;
  try {
    const bytes = v.source !== undefined ? (await packModule(v.source)).bytes : await readFile(v.archive as string);
    return JSON.parse(JSON.stringify(await ingestPool().ingest(bytes))) as Json;
  } catch (error) {
    const reason = error instanceof IngestError ? error.message : (error as Error).message;
    throw httpFailure(500, 'Internal Server Error', `the seed's public module ${key} cannot be read: ${reason}`);
  }
}
