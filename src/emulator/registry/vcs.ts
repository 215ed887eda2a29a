/**
 * Publishing a private module from VCS: the repository identifier names a
 * local git repository (the seed's `registry.repositories`). Tag-based
 * publishing makes a version of every semantic-version tag (an optional
 * leading `v`); branch-based publishing makes versions only when asked
 * (the versions endpoint), from the given commit or else the branch's head.
 * The archive of a version is `git archive` of its revision, so the module
 * sits at the archive's root; a revision git cannot archive is `clone_failed`.
 * Tags are read once, when the module is published: the emulator has no
 * webhook, so later tags are not picked up.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import type { EmulatorContext } from '../context.ts';
import { newId } from '../ids.ts';
import { type Attributes, invalid, notFound } from '../jsonapi.ts';
import { ingestVersion } from './ingest-version.ts';
import { versionOfTag } from './semver.ts';
import type { ModuleRecord, RegistrySlice, VersionRecord } from './state.ts';

const run = promisify(execFile);

export function publishFromVcs(
  ctx: EmulatorContext,
  slice: RegistrySlice,
  organization: string,
  attributes: Attributes,
  origin: string,
): ModuleRecord {
  const vcs = attributes['vcs-repo'] as Attributes | undefined;
  const identifier = typeof vcs?.identifier === 'string' ? vcs.identifier : '';
  if (!/^[^/\s]+\/(?:[^/\s]+\/_git\/)?[^/\s]+$/.test(identifier)) {
    throw invalid([{ attribute: 'vcs-repo.identifier', message: 'must be <org>/<repo>' }]);
  }
  if (vcs?.['oauth-token-id'] !== undefined && vcs?.['vcs-app-installation-id'] !== undefined) {
    throw invalid([
      { attribute: 'vcs-repo', message: 'oauth-token-id and vcs-app-installation-id cannot be given together' },
    ]);
  }
  const path = ctx.state.seed.registry?.repositories?.[identifier];
  if (path === undefined) throw notFound();
  // the repository `terraform-<provider>-<name>` names the module, as the platform reads it
  const repo = identifier.split('/').at(-1) ?? '';
  const match = /^terraform-([a-z0-9]+)-(.+)$/.exec(repo);
  if (!match)
    throw invalid([
      { attribute: 'vcs-repo.identifier', message: 'must name a repository terraform-<provider>-<name>' },
    ]);
  const [, provider = '', name = ''] = match;
  if (
    slice.data.modules.some(
      (m) =>
        m.organization === organization && m.registryName === 'private' && m.name === name && m.provider === provider,
    )
  ) {
    throw invalid([{ attribute: 'name', message: 'has already been taken' }]);
  }
  const now = new Date(ctx.now()).toISOString();
  const branch = typeof vcs?.branch === 'string' ? vcs.branch : '';
  const module: ModuleRecord = {
    id: newId('mod'),
    organization,
    registryName: 'private',
    namespace: organization,
    name,
    provider,
    status: 'pending',
    noCode: attributes['no-code'] === true,
    vcsRepo: {
      identifier,
      'display-identifier': typeof vcs?.display_identifier === 'string' ? vcs.display_identifier : identifier,
      branch,
      'ingress-submodules': false,
      'oauth-token-id': typeof vcs?.['oauth-token-id'] === 'string' ? vcs['oauth-token-id'] : '',
      'webhook-url': `${origin}/_webhooks/vcs/${randomUUID()}`,
    },
    testConfig: null,
    createdAt: now,
    updatedAt: now,
  };
  slice.data.modules.push(module);
  // tags are read after the answer, as the platform clones in the background
  if (!branch)
    setImmediate(
      () =>
        void publishTags(ctx, slice, module, path).catch((e) =>
          ctx.log(`publishing ${identifier}: ${(e as Error).message}`),
        ),
    );
  return module;
}

async function publishTags(
  ctx: EmulatorContext,
  slice: RegistrySlice,
  module: ModuleRecord,
  path: string,
): Promise<void> {
  const { stdout } = await run('git', ['-C', path, 'tag', '--list']);
  for (const tag of stdout.split('\n').filter(Boolean)) {
    const version = versionOfTag(tag);
    if (!version || slice.data.versions.some((v) => v.moduleId === module.id && v.version === version)) continue;
    const record = newVersion(ctx, module, version, 'platform', tag);
    slice.data.versions.push(record);
    await buildRevision(ctx, slice, record, path);
  }
}

/** A pending version record of a module. */
export function newVersion(
  ctx: EmulatorContext,
  module: ModuleRecord,
  version: string,
  source: string,
  commitSha: string,
): VersionRecord {
  const now = new Date(ctx.now()).toISOString();
  return {
    id: newId('modver'),
    moduleId: module.id,
    version,
    status: 'pending',
    source,
    error: null,
    commitSha,
    createdAt: now,
    updatedAt: now,
    archive: null,
    details: null,
    downloads: 0,
  };
}

/** The local repository a VCS module publishes from, if the seed still names it. */
export function repositoryOf(ctx: EmulatorContext, module: ModuleRecord): string | undefined {
  return module.vcsRepo ? ctx.state.seed.registry?.repositories?.[module.vcsRepo.identifier] : undefined;
}

/** One version from one revision (`commitSha`) of the repository at `path`: its archive, then ingestion. */
export async function buildRevision(
  ctx: EmulatorContext,
  slice: RegistrySlice,
  record: VersionRecord,
  path: string,
): Promise<void> {
  const now = () => new Date(ctx.now()).toISOString();
  record.status = 'cloning';
  let archive: Buffer;
  try {
    ({ stdout: archive } = await run('git', ['-C', path, 'archive', '--format=tar.gz', record.commitSha], {
      encoding: 'buffer',
      maxBuffer: 64 * 1024 * 1024,
    }));
  } catch (error) {
    record.status = 'clone_failed';
    record.error = `cannot read revision ${record.commitSha}: ${String((error as { stderr?: Buffer }).stderr ?? error).trim()}`;
    record.updatedAt = now();
    return;
  }
  await ingestVersion(slice, record, archive, now);
}
