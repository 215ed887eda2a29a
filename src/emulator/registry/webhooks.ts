/**
 * VCS webhooks: a VCS-backed module's `vcs-repo.webhook-url` stands in for
 * the provider's push event. A POST to it (any body, no header: the URL is
 * the capability) reads the module's repository again, as publishing first
 * did (./vcs.ts), and answers 204 once done:
 * - tag-based: every semantic-version tag without a version becomes one
 *   (`source: platform`), archived and ingested before the answer;
 * - branch-based: versions come only from the versions endpoint (the spec's
 *   item 4), so a new commit on the branch publishes nothing; when the
 *   module's tests are enabled it is tested, as the platform tests pushes: a
 *   configuration version of the commit, and a run from it
 *   (`source: platform-configuration-version`, the spec's source for runs a
 *   VCS provider triggers). The same commit again does nothing.
 * An unknown webhook is 404; a repository the seed no longer names, or a
 * branch it does not have, is a 422 saying so.
 */
import type { FastifyInstance } from 'fastify';
import { type EmulatorContext, paramsOf, route } from '../context.ts';
import { notFound, unprocessable } from '../jsonapi.ts';
import { newConfigurationVersion, receiveConfiguration } from './configuration.ts';
import type { ModuleRecord, RegistrySlice } from './state.ts';
import { archiveRevision, branchHead, publishTags, repositoryOf } from './vcs.ts';

/** Registered by the archivist, whose prefix `/_archivist` is ./vcs.ts's WEBHOOK_PREFIX's. */
export function registerWebhooks(api: FastifyInstance, ctx: EmulatorContext, slice: RegistrySlice): void {
  route(api, 'POST', '/v1/webhooks/vcs/:id', async (request) => {
    const id = paramsOf(request).id ?? '';
    const module = slice.data.modules.find((m) => m.vcsRepo?.['webhook-url'].endsWith(`/${id}`));
    if (!module?.vcsRepo || id === '') throw notFound();
    const path = repositoryOf(ctx, module);
    if (path === undefined) throw unprocessable(`the repository ${module.vcsRepo.identifier} is no longer in the seed`);
    if (module.vcsRepo.branch === '') await publishTags(ctx, slice, module, path);
    else await testPush(ctx, slice, module, path, module.vcsRepo.branch);
    return { status: 204 };
  });
}

async function testPush(
  ctx: EmulatorContext,
  slice: RegistrySlice,
  module: ModuleRecord,
  path: string,
  branch: string,
): Promise<void> {
  let head: string;
  try {
    head = await branchHead(path, branch);
  } catch (error) {
    throw unprocessable((error as Error).message);
  }
  if (head === module.vcsHead) return;
  module.vcsHead = head;
  if (!module.testConfig?.testsEnabled) return;
  const cv = newConfigurationVersion(ctx, slice, module.id);
  await receiveConfiguration(
    ctx,
    slice,
    cv.id,
    await archiveRevision(path, head),
    `Queued automatically by a push to ${branch} (${head.slice(0, 7)})`,
  );
}
