/**
 * Configuration versions of module tests: created with an `upload-url`
 * (shown on creation only), and the upload's test files kept; an upload
 * starts a test run on its own, as the platform queues one when
 * configuration files arrive.
 */
import type { EmulatorContext } from '../context.ts';
import type { ResourceObject } from '../jsonapi.ts';
import { IngestError, ingestModule } from './ingest/index.ts';
import type { ConfigurationVersion, RegistrySlice } from './state.ts';
import { startRun } from './test-runs.ts';

export function configurationResource(cv: ConfigurationVersion, uploadUrl?: string): ResourceObject {
  return {
    id: cv.id,
    type: 'configuration-versions',
    attributes: {
      'auto-queue-runs': true,
      error: cv.error === undefined ? null : 'unreadable_configuration',
      'error-message': cv.error ?? null,
      source: 'tfe-api',
      speculative: false,
      status: cv.status,
      'status-timestamps': {},
      'changed-files': [],
      provisional: false,
      ...(uploadUrl && { 'upload-url': uploadUrl }),
    },
    relationships: {
      'ingress-attributes': {
        data: null,
        links: { related: `/api/v2/configuration-versions/${cv.id}/ingress-attributes` },
      },
    },
    links: { self: `/api/v2/configuration-versions/${cv.id}` },
  };
}

export async function receiveConfiguration(
  ctx: EmulatorContext,
  slice: RegistrySlice,
  id: string,
  bytes: Buffer,
): Promise<void> {
  const cv = slice.data.configurationVersions.find((c) => c.id === id);
  if (!cv) return;
  try {
    const ingested = await ingestModule(bytes);
    cv.files = ingested.tests;
    // as terraform test does, a variable with a default in the module has that value unless set
    cv.defaults = ingested.root.inputs
      .filter((input) => input.default !== null && input.default !== undefined)
      .map((input) => ({
        key: `TF_VAR_${input.name}`,
        value: typeof input.default === 'string' ? input.default : JSON.stringify(input.default),
        category: 'env',
      }));
  } catch (error) {
    if (!(error instanceof IngestError)) throw error;
    cv.files = [];
    cv.error = error.message;
  }
  cv.status = 'uploaded';
  await startRun(ctx, slice, {
    moduleId: cv.moduleId,
    configurationVersionId: cv.id,
    source: 'platform-configuration-version',
    createdBy: '',
    attributes: {},
    message: 'Queued automatically when configuration files were uploaded',
  });
}
