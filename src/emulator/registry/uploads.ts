/**
 * The upload store (`links.upload`, `upload-url`) and the other capability
 * URLs of the registry (a version's download, a test run's log, a VCS
 * module's webhook: ./webhooks.ts). Each is an
 * unguessable id that needs no header, served under its own prefix
 * (`/_archivist`) so that it can never collide with the secrets API's
 * `/v1/<mount>/…` on the same port.
 */
import type { ApiModule } from '../context.ts';
import { paramsOf, route } from '../context.ts';
import { notFound } from '../jsonapi.ts';
import { JSONAPI_FORM } from '../wire-form.ts';
import { receiveConfiguration } from './configuration.ts';
import { ingestVersion } from './ingest-version.ts';
import { registrySlice } from './state.ts';
import { currentRun } from './test-runs.ts';
import { registerWebhooks } from './webhooks.ts';

export const ARCHIVIST_PREFIX = '/_archivist';

export const archivist: ApiModule = {
  name: 'archivist',
  prefix: ARCHIVIST_PREFIX,
  form: JSONAPI_FORM,
  register(api, ctx) {
    const slice = registrySlice(ctx.state);
    const now = () => new Date(ctx.now()).toISOString();
    // any media type: the body is the archive's bytes
    api.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 64 * 1024 * 1024 }, (_request, body, done) =>
      done(null, body),
    );

    route(api, 'PUT', '/v1/object/:id', async (request) => {
      const id = paramsOf(request).id ?? '';
      const target = slice.data.uploads[id];
      if (!target) throw notFound();
      const bytes = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      // a capability is spent once used: the platform hides upload URLs after creation
      delete slice.data.uploads[id];
      if (target.kind === 'module-version') {
        const version = slice.data.versions.find((v) => v.id === target.id);
        if (!version) throw notFound();
        await ingestVersion(slice, version, bytes, now);
      } else {
        await receiveConfiguration(ctx, slice, target.id, bytes);
      }
      return { status: 200 };
    });

    route(api, 'GET', '/v1/download/:token', (request) => {
      const version = slice.data.versions.find((v) => v.id === slice.data.downloads[paramsOf(request).token ?? '']);
      if (!version?.archive) throw notFound();
      version.downloads++;
      return { status: 200, raw: { type: 'application/x-gzip', bytes: Buffer.from(version.archive, 'base64') } };
    });

    route(api, 'GET', '/v1/logs/:token', (request) => {
      const run = slice.data.runs.find((r) => r.logToken === paramsOf(request).token);
      if (!run) throw notFound();
      const cv = slice.data.configurationVersions.find((c) => c.id === run.configurationVersionId);
      return { status: 200, text: currentRun(ctx, slice, run).outcome?.log ?? cv?.error ?? '' };
    });

    registerWebhooks(api, ctx, slice);
  },
};
