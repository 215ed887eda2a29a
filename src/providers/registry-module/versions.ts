/**
 * A module's versions (`RegistryModule.spec.versions`), each planned and
 * applied as an object of its own (a keyed child list): a declared version
 * that does not exist is created and its archive uploaded, either a
 * directory packed reproducibly by converge (`source:`) or a ready gzip
 * tarball (`archive:`). Versions are immutable: one that exists is never
 * uploaded again, and when its local content no longer matches what was
 * uploaded (the digest the fingerprint store keeps), the plan says so.
 */
import { closeSync, existsSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { isUnknownOutcome } from '../../api/errors.ts';
import { resourceBody, resourceOf } from '../../api/jsonapi.ts';
import { requireClient } from '../../api/require-client.ts';
import { ConvergeError } from '../../errors.ts';
import type { SpecProblem } from '../../manifest/catalog.ts';
import type { Address } from '../../reconcile/address.ts';
import type { ProviderContext } from '../../reconcile/provider.ts';
import type { DesiredObject, Fields, LiveObject } from '../../reconcile/types.ts';
import type { PackedModule } from '../../registry/pack.ts';
import { defineProvider } from '../shared/define.ts';
import { modulePath, organizationModules } from './api.ts';
import { moduleKey, parseModuleName } from './names.ts';

export const VERSION_KIND = 'RegistryModuleVersion';

/** How long an upload may take to be parsed before the version counts as failed. */
const INGEST_WAIT_MS = 60_000;

/** Where a version's content is, from the manifest's directory. */
export function contentPath(
  desired: Pick<DesiredObject, 'spec' | 'source' | 'dir'>,
): { kind: 'source' | 'archive'; path: string } | undefined {
  const base = desired.dir ?? dirname(resolve(desired.source.file));
  if (typeof desired.spec.source === 'string') return { kind: 'source', path: resolve(base, desired.spec.source) };
  if (typeof desired.spec.archive === 'string') return { kind: 'archive', path: resolve(base, desired.spec.archive) };
  return undefined;
}

/**
 * Packs under way, by what they read: the versions that name one directory
 * (or archive), prepared together by a plan, share its one read instead of
 * each packing it again. An entry lives only while its pack runs, so the
 * next plan reads the files afresh: nothing is cached.
 */
const packing = new Map<string, Promise<PackedModule>>();

function packed(desired: DesiredObject): Promise<PackedModule> {
  const where = contentPath(desired);
  if (!where)
    return Promise.reject(
      new ConvergeError('INPUT_INVALID', `${desired.address.name}: a version needs source or archive`),
    );
  const key = `${where.kind}:${where.path}`;
  const running = packing.get(key);
  if (running) return running;
  const pack = (async () => {
    // loaded when a version is packed, not with every command (tar and zlib cost start-up time)
    const { packModule, readArchive } = await import('../../registry/pack.ts');
    return where.kind === 'source' ? packModule(where.path) : readArchive(where.path);
  })();
  packing.set(key, pack);
  const done = () => {
    packing.delete(key);
  };
  pack.then(done, done);
  return pack;
}

/**
 * The packs made for the plan, by the object they were planned for: the
 * apply uploads those same bytes (what was planned is what is sent) instead
 * of packing the directory a second time.
 */
const planned = new WeakMap<DesiredObject, PackedModule>();

export const registryModuleVersion = defineProvider(
  () => ({
    kind: VERSION_KIND,
    scoped: true,
    mutable: false,
    creatable: true,
    deletePolicy: 'prunable',
    address: (metadata) => ({
      kind: VERSION_KIND,
      ...(metadata.organization && { scope: metadata.organization }),
      name: metadata.name ?? '',
    }),

    // the same list as the modules', read once: one live object per entry of `version-statuses`
    async list(ctx, organization) {
      const modules = await organizationModules(ctx, organization);
      return modules.flatMap((resource): LiveObject[] => {
        const name = moduleKey(resource.attributes);
        const statuses = Array.isArray(resource.attributes['version-statuses'])
          ? resource.attributes['version-statuses']
          : [];
        return statuses.flatMap((entry) => {
          const version = (entry as Fields).version;
          if (typeof version !== 'string') return [];
          const status = (entry as Fields).status;
          return [
            {
              kind: VERSION_KIND,
              address: { kind: VERSION_KIND, scope: organization, name: `${name}/${version}` },
              ref: version,
              fields: { version, status: status ?? null },
            },
          ];
        });
      });
    },

    async prepare(desired: DesiredObject) {
      const content = await packed(desired);
      const prepared = { ...desired, spec: { ...desired.spec, digest: content.sha256 } };
      planned.set(prepared, content);
      return prepared;
    },

    async create(ctx, desired) {
      const { organization, registry, namespace, name, provider, version } = parseVersionAddress(desired.address);
      const client = requireClient(ctx.api, 'platform');
      const content = planned.get(desired) ?? (await packed(desired));
      const path = `${modulePath(organization, registry, namespace, name, provider)}/versions`;
      const post = () =>
        client.request({
          method: 'POST',
          path,
          body: resourceBody('registry-module-versions', { version }),
          signal: ctx.signal,
        });
      let created: Awaited<ReturnType<typeof post>>;
      try {
        created = await post();
      } catch (error) {
        if (!isUnknownOutcome(error)) throw error;
        // the answer, and with it the only upload link, was lost: a version that was made cannot get its
        // content (deleting it to start over could take the whole module with it, as the last version does)
        const made = await versionStatus(ctx, desired.address);
        if (made === undefined) throw error; // not made: the engine reads back and creates it again
        throw new ConvergeError(
          'API_ERROR',
          `POST ${path}: version ${version} was created, but the answer carrying its upload link was lost`,
          {
            hint: 'delete the version in the registry (it has no content) and apply again',
          },
        );
      }
      const upload = resourceOf(created.body, `POST ${path}`).links?.upload;
      if (typeof upload !== 'string')
        throw new ConvergeError('API_ERROR', `POST ${path}: the answer has no links.upload`);
      // an upload link carries its authorization: the client sends no token to another host
      await client.request({ method: 'PUT', path: upload, body: content.bytes, signal: ctx.signal });
      await waitForIngestion(ctx, desired.address);
      return undefined;
    },
    async update() {
      // never reached: an uploaded version is immutable (mutable: false)
    },
    async delete(ctx, live) {
      await removeVersion(ctx, live.address);
    },
    // one GET of the module (never the list a run read before): read back after a lost answer
    async get(ctx, address) {
      const status = await versionStatus(ctx, address);
      if (status === undefined) return undefined;
      const version = parseVersionAddress(address).version;
      return { kind: VERSION_KIND, address, ref: version, fields: { version, status } };
    },
    liveNotes(_spec, live) {
      if (live.status === 'reg_ingress_failed' || live.status === 'clone_failed') {
        return ['the registry could not read this version; publish a fixed one as a new version, and delete this one'];
      }
      // re-made, it could take its module with it (deleting a provider's last version deletes the provider)
      return live.status === 'pending'
        ? ['this version has no content (its upload never arrived): delete it and apply again']
        : [];
    },
    toManifest(live) {
      return {
        kind: VERSION_KIND,
        metadata: { name: live.address.name },
        spec: { version: String(live.fields?.version ?? '') },
      };
    },
  }),
  {
    fields: {
      version: {},
      // local paths are not configuration the API keeps: never compared
      source: { createOnly: true },
      archive: { createOnly: true },
      // the content's digest, kept by the fingerprint store when the version is uploaded
      digest: { writeOnly: true },
    },
  },
);

/**
 * The `version-statuses` entry of one version, from one GET of its module;
 * undefined when the version does not exist, or the module either unless
 * `moduleMustExist` (then its 404 is the error).
 */
async function versionEntry(
  ctx: ProviderContext,
  address: Address,
  moduleMustExist = false,
): Promise<Fields | undefined> {
  const { organization, registry, namespace, name, provider, version } = parseVersionAddress(address);
  const response = await requireClient(ctx.api, 'platform').request({
    method: 'GET',
    path: modulePath(organization, registry, namespace, name, provider),
    ...(!moduleMustExist && { accept: [404] }),
    signal: ctx.signal,
  });
  if (response.status === 404) return undefined;
  const statuses = resourceOf(response.body, 'GET module').attributes['version-statuses'];
  return (Array.isArray(statuses) ? statuses : []).find((s) => (s as Fields).version === version) as Fields | undefined;
}

async function versionStatus(ctx: ProviderContext, address: Address): Promise<string | undefined> {
  const entry = await versionEntry(ctx, address);
  return entry === undefined ? undefined : String(entry.status);
}

async function removeVersion(ctx: ProviderContext, address: Address): Promise<void> {
  const { organization, registry, namespace, name, provider, version } = parseVersionAddress(address);
  await requireClient(ctx.api, 'platform').request({
    method: 'DELETE',
    path: `${modulePath(organization, registry, namespace, name, provider)}/${encodeURIComponent(version)}`,
    signal: ctx.signal,
  });
}

function parseVersionAddress(address: Address) {
  const slash = address.name.lastIndexOf('/');
  const module = parseModuleName(address.scope ?? '', address.name.slice(0, slash));
  return { ...module, version: address.name.slice(slash + 1) };
}

/** The version's status after its upload: `ok`, or the failure with the registry's reason. */
async function waitForIngestion(ctx: ProviderContext, address: Address): Promise<void> {
  const { version } = parseVersionAddress(address);
  const started = Date.now();
  for (let delay = 100; ; delay = Math.min(delay * 2, 2000)) {
    const entry = await versionEntry(ctx, address, true);
    if (entry?.status === 'ok') return;
    if (entry?.status === 'reg_ingress_failed' || entry?.status === 'clone_failed') {
      throw new ConvergeError(
        'API_ERROR',
        `version ${version} was uploaded but the registry could not read it: ${String(entry.error ?? entry.status)}`,
        {
          hint: 'fix the module (the message says where), publish it as a new version, and delete this one',
        },
      );
    }
    if (Date.now() - started > INGEST_WAIT_MS)
      throw new ConvergeError(
        'API_ERROR',
        `version ${version} is still ${String(entry?.status ?? 'unknown')} after the upload`,
      );
    await new Promise((r) => setTimeout(r, delay));
  }
}

/** A version's content must be there before anything is sent: a directory, or a gzip tarball. */
export function versionProblems(
  object: Pick<DesiredObject, 'spec' | 'source' | 'dir'>,
  at: (field: string, message: string) => SpecProblem,
): SpecProblem[] {
  const where = contentPath(object);
  if (!where) return [at('source', 'a version needs source (a directory) or archive (a .tar.gz)')];
  if (object.spec.source !== undefined && object.spec.archive !== undefined) {
    return [at('archive', 'a version has source or archive, not both')];
  }
  // shown as written: the manifest's own words, the same on every machine
  const shown = String(object.spec[where.kind]);
  if (!existsSync(where.path)) return [at(where.kind, `${shown} does not exist`)];
  const stat = statSync(where.path);
  if (where.kind === 'source' && !stat.isDirectory()) return [at('source', `${shown} is not a directory`)];
  if (where.kind === 'source' && !readdirSync(where.path).some((name) => name.endsWith('.tf'))) {
    return [at('source', `${shown} is not a module: no .tf file at its root`)];
  }
  if (where.kind === 'archive' && !stat.isFile()) return [at('archive', `${shown} is not a file`)];
  if (where.kind === 'archive' && !isGzip(where.path)) return [at('archive', `${shown} is not a gzip tarball`)];
  return [];
}

function isGzip(path: string): boolean {
  const fd = openSync(path, 'r');
  try {
    const magic = Buffer.alloc(2);
    readSync(fd, magic, 0, 2, 0);
    return magic[0] === 0x1f && magic[1] === 0x8b;
  } finally {
    closeSync(fd);
  }
}
