/**
 * Publishing a private module from VCS: the repository identifier names a
 * local git repository (the seed's `registry.repositories`). Tag-based
 * publishing makes a version of every semantic-version tag (an optional
 * leading `v`); branch-based publishing makes versions only when asked
 * (the versions endpoint), from the given commit or else the branch's head.
 * The archive of a version is `git archive` of its revision, so the module
 * sits at the archive's root; a revision git cannot archive is `clone_failed`.
 * The module's `webhook-url` (./webhooks.ts) is the VCS provider's push
 * event: it reads the repository again, so later tags become versions, and
 * a branch-based module's new commit is tested.
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

/** Where webhook URLs live: a capability URL of the archivist (./uploads.ts), like uploads and logs. */
export const WEBHOOK_PREFIX = '/_archivist/v1/webhooks/vcs';

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
      'webhook-url': `${origin}${WEBHOOK_PREFIX}/${randomUUID()}`,
    },
    testConfig: null,
    createdAt: now,
    updatedAt: now,
  };
  slice.data.modules.push(module);
  // the repository is read after the answer, as the platform clones in the background: tags become
  // versions; a branch's head is noted, so that the webhook can tell a new commit
  const read = async () => {
    if (!branch) await publishTags(ctx, slice, module, path);
    else module.vcsHead = await branchHead(path, branch);
  };
  setImmediate(() => void read().catch((e) => ctx.log(`publishing ${identifier}: ${(e as Error).message}`)));
  return module;
}

/**
 * Makes a version of every semantic-version tag that has none yet (a tag
 * whose version exists, or was deleted by the owner, is left alone), each
 * built and ingested before the next; the versions made, in tag order.
 */
export async function publishTags(
  ctx: EmulatorContext,
  slice: RegistrySlice,
  module: ModuleRecord,
  path: string,
): Promise<VersionRecord[]> {
  const { stdout } = await run('git', ['-C', path, 'tag', '--list']);
  const made: VersionRecord[] = [];
  for (const tag of stdout.split('\n').filter(Boolean)) {
    const version = versionOfTag(tag);
    // checked and recorded in one step: a webhook and the first publish may read the tags at once
    if (!version || slice.data.versions.some((v) => v.moduleId === module.id && v.version === version)) continue;
    const record = newVersion(ctx, module, version, 'platform', tag);
    slice.data.versions.push(record);
    made.push(record);
    await buildRevision(ctx, slice, record, path);
  }
  return made;
}

/** The commit a branch points at; an error naming the branch when the repository has none of that name. */
export async function branchHead(path: string, branch: string): Promise<string> {
  try {
    const { stdout } = await run('git', [
      '-C',
      path,
      'rev-parse',
      '--verify',
      '--quiet',
      `refs/heads/${branch}^{commit}`,
    ]);
    return stdout.trim();
  } catch {
    throw new Error(`the repository has no branch ${JSON.stringify(branch)}`);
  }
}

/** A revision's files as a gzip tarball with the module at its root (`git archive`). */
export async function archiveRevision(path: string, revision: string): Promise<Buffer> {
  const { stdout } = await run('git', ['-C', path, 'archive', '--format=tar.gz', revision], {
    encoding: 'buffer',
    maxBuffer: 64 * 1024 * 1024,
  });
  return stdout;
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
    archive = await archiveRevision(path, record.commitSha);
  } catch (error) {
    record.status = 'clone_failed';
    record.error = `cannot read revision ${record.commitSha}: ${String((error as { stderr?: Buffer }).stderr ?? error).trim()}`;
    record.updatedAt = now();
    return;
  }
  await ingestVersion(slice, record, archive, now);
}
