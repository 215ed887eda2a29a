/**
 * A module's versions (`RegistryModule.spec.versions`), each planned and
 * applied as an object of its own (a keyed child list): a declared version
 * that does not exist is created and its archive uploaded, either a
 * directory packed reproducibly by converge (`source:`) or a ready gzip
 * tarball (`archive:`). Versions are immutable: one that exists is never
 * uploaded again, and when its local content no longer matches what was
 * uploaded (the digest the fingerprint store keeps), the plan says so, until
 * the manifest acknowledges that content (./acknowledged.ts). One
 * that never became usable (left without content when its create was cut
 * short, or refused by the registry) is not published: the plan replaces it
 * (deleted, then published anew from its content), with the reason as a
 * note, and ./publish.ts says what a create does about it.
 */
import { dirname, resolve } from 'node:path';
import { ConvergeError } from '../../errors.ts';
import { fileSegment } from '../../export/names.ts';
import type { SpecProblem } from '../../manifest/catalog.ts';
import { childAddress } from '../../reconcile/address.ts';
import type { ProviderContext } from '../../reconcile/provider.ts';
import type { DesiredObject, Fields, LiveObject } from '../../reconcile/types.ts';
import { contentProblem } from '../../registry/module-source.ts';
import type { PackedModule } from '../../registry/pack.ts';
import { defineProvider } from '../shared/define.ts';
import { flag } from '../shared/rules.ts';
import {
  ACKNOWLEDGED,
  acknowledgedNotes,
  changedContentNotes,
  requireAcknowledged,
  shownSource,
  whereOf,
} from './acknowledged.ts';
import { organizationModules } from './api.ts';
import { downloadVersion } from './download.ts';
import { listedModule, moduleOf, moduleParts, VERSION_IDENTITY, versionOf } from './names.ts';
import { publishVersion } from './publish.ts';
import { FAILED_STATUSES, pruneVersion, versionEntry } from './version-status.ts';

export const VERSION_KIND = 'RegistryModuleVersion';

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
 * A version's content, packed: the versions that name one directory (or
 * archive), prepared together by a plan, share its one read (the engine's
 * shared read for the run), so the next plan reads the files afresh.
 */
function packed(ctx: ProviderContext, desired: DesiredObject): Promise<PackedModule> {
  const where = contentPath(desired);
  if (!where)
    return Promise.reject(
      new ConvergeError('INPUT_INVALID', `${desired.address.name}: a version needs source or archive`),
    );
  return ctx.shared(`pack ${where.kind}:${where.path}`, async () => {
    // loaded when a version is packed, not with every command (tar and zlib cost start-up time)
    const { packModule, readArchive } = await import('../../registry/pack.ts');
    return where.kind === 'source' ? packModule(where.path) : readArchive(where.path);
  });
}

/** The pack made for the plan (`DesiredObject.prepared`): the apply uploads those same bytes. */
const plannedPack = (desired: DesiredObject): PackedModule | undefined => desired.prepared as PackedModule | undefined;

export const registryModuleVersion = defineProvider(
  () => ({
    kind: VERSION_KIND,
    scoped: true,
    // no update: an uploaded version is never written again, and a difference is a plan note;
    // one that never became usable (`published`, immutable) is replaced: deleted, then published anew
    identity: VERSION_IDENTITY,
    // a version is only ever made from its module's address (a keyed child list): never from metadata of its own
    address: (metadata) => ({
      kind: VERSION_KIND,
      ...(metadata.organization && { scope: metadata.organization }),
      name: metadata.name ?? '',
    }),

    // the same list as the modules', read once: one live object per entry of `version-statuses`.
    // A VCS module's versions are its repository's (its tags, or commits of its branch): never
    // declared (checkModule), so never planned, listed as unmanaged nor pruned
    async list(ctx, { scope: organization = '' }) {
      const modules = await organizationModules(ctx, organization);
      return modules.flatMap((resource): LiveObject[] => {
        if (resource.attributes['vcs-repo'] != null) return [];
        const module = listedModule(organization, resource.attributes);
        const statuses = Array.isArray(resource.attributes['version-statuses'])
          ? resource.attributes['version-statuses']
          : [];
        return statuses.flatMap((entry) => {
          const version = (entry as Fields).version;
          if (typeof version !== 'string') return [];
          const { status, error } = entry as Fields;
          return [
            {
              kind: VERSION_KIND,
              address: childAddress(module, VERSION_KIND, version),
              ref: version,
              // how many versions the module has: whether deleting this one would delete the module too
              fields: {
                version,
                status: status ?? null,
                published: isPublished(status),
                ...(error !== undefined && { error }),
                'module-versions': statuses.length,
              },
            },
          ];
        });
      });
    },

    async prepare(ctx, desired) {
      const content = await packed(ctx, desired);
      // the digest stands for the content: a saved plan names where it was read when it changes
      const fileSources = { ...desired.fileSources, 'spec.digest': whereOf(desired.spec, desired.secretFields) };
      // the manifest's `digest` acknowledges a content (./acknowledged.ts); the spec's is the content's
      const { digest: acknowledged, ...spec } = desired.spec;
      return {
        ...desired,
        spec: { ...spec, digest: content.sha256, ...(acknowledged !== undefined && { [ACKNOWLEDGED]: acknowledged }) },
        fileSources,
        prepared: content,
      };
    },

    async create(ctx, desired) {
      requireAcknowledged(versionOf(desired.address), desired.spec, desired.secretFields);
      await publishVersion(ctx, desired.address, plannedPack(desired) ?? (await packed(ctx, desired)));
      return undefined;
    },
    // alone in its module, and never the module's last version (./version-status.ts)
    delete: (ctx, live) => pruneVersion(ctx, live.address, live.ref),
    // one GET of the module (never the list a run read before): read back after a lost answer
    async get(ctx, address) {
      const entry = await versionEntry(ctx, address);
      if (entry === undefined) return undefined;
      const status = String(entry.status);
      const version = versionOf(address);
      return { kind: VERSION_KIND, address, ref: version, fields: { version, status, published: isPublished(status) } };
    },
    liveNotes(_spec, live) {
      return contentNotes(live);
    },
    notes: acknowledgedNotes,
    changedSinceSent: changedContentNotes,
    // exported with its module: its archive read back from the registry, named by `archive:`
    exportItem: {
      skip(live, module) {
        if (module.fields?.['vcs-repo'] !== undefined) return 'its module publishes its versions from VCS';
        const status = String(live.fields?.status);
        return status === 'ok' ? undefined : `it has no content to download (status ${status})`;
      },
      file(live) {
        const m = moduleParts(moduleOf(live.address));
        const segments = [m.organization, `${m.name}-${m.provider}`, `${versionOf(live.address)}.tar.gz`];
        return ['modules', ...segments.map(fileSegment)].join('/');
      },
      download: (ctx, live, sink) => downloadVersion(ctx, live.address, sink),
      item: (live, file) => ({ version: versionOf(live.address), archive: file }),
    },
  }),
  {
    fields: {
      version: {},
      // local paths are not configuration the API keeps: never compared
      source: { createOnly: true },
      archive: { createOnly: true },
      // the content's digest (computed by `prepare`, so no secret), kept by the fingerprint store
      // when the version is uploaded
      digest: { writeOnly: true, sensitive: false },
      // the content the manifest acknowledges (its `digest: sha256:…`): checked against the content, never compared
      [ACKNOWLEDGED]: { createOnly: true },
      // never in a manifest (the schema has no such key), so always the default: a declared version
      // is meant to be usable. Live, it is false for one left without content or that the registry
      // could not read, and a change of an immutable field is a replacement (docs/kinds.md)
      published: { ...flag(true), immutable: true, implied: true },
    },
  },
);

/**
 * Whether a version is usable or on its way to being so: not one left
 * `pending` (its upload never arrived, and none can any more) nor one the
 * registry could not read. One whose upload is still being read
 * (`reg_ingressing`, `cloning`) is not a failure yet.
 */
export function isPublished(status: unknown): boolean {
  return status !== 'pending' && !FAILED_STATUSES.has(String(status));
}

/**
 * What a plan says of a declared version that exists without content: it is
 * not published, and no later request can upload it (the registry gives an
 * upload link only when a version is created).
 */
export function contentNotes(live: Fields): string[] {
  const status = String(live.status);
  const onlyVersion = live['module-versions'] === 1;
  const cascade = onlyVersion
    ? ' It is the module’s only version, and deleting a module’s last version deletes the module: publish another version first.'
    : '';
  if (FAILED_STATUSES.has(status)) {
    return [
      `not published: the registry could not read this version (${String(live.error ?? status)}); it is replaced, deleted and published anew from its content (fix the content first, or it fails the same way).${cascade}`,
    ];
  }
  if (status === 'pending') {
    return [
      `not published: this version exists without content (its upload never arrived), and cannot be uploaded any more; it is replaced, deleted and published anew.${cascade}`,
    ];
  }
  return [];
}

/**
 * A version's content must be there, inside the repository and packable, before anything is sent.
 * `checked` holds the content problems one check has found already: the versions naming one
 * directory (or archive) share its one listing instead of each walking it again.
 */
export function versionProblems(
  object: Pick<DesiredObject, 'spec' | 'source' | 'dir' | 'roots'>,
  at: (field: string, message: string) => SpecProblem,
  checked = new Map<string, string | undefined>(),
  /** The item's value is a secret: a message names the field, not the path it holds. */
  secret = false,
): SpecProblem[] {
  const where = contentPath(object);
  if (!where) return [at('source', 'a version needs source (a directory) or archive (a .tar.gz)')];
  if (object.spec.source !== undefined && object.spec.archive !== undefined) {
    return [at('archive', 'a version has source or archive, not both')];
  }
  // shown as written: the manifest's own words, the same on every machine (and part of the key, as the message quotes it)
  const shown = shownSource(object.spec, where.kind, secret);
  const key = `${where.kind}:${where.path}:${shown}`;
  if (!checked.has(key)) checked.set(key, contentProblem({ ...where, shown, secret }, object.roots));
  const problem = checked.get(key);
  return problem === undefined ? [] : [at(where.kind, problem)];
}
