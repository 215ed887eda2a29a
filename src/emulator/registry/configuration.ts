/**
 * Configuration versions of module tests: created with an `upload-url`
 * (shown on creation only), and the upload's test files kept; an upload
 * starts a test run on its own, as the platform queues one when
 * configuration files arrive.
 */
import type { EmulatorContext } from '../context.ts';
import { newId } from '../ids.ts';
import type { ResourceObject } from '../jsonapi.ts';
import { IngestError } from './ingest/index.ts';
import { ingestPool } from './ingest-pool.ts';
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

/** A configuration version of a module, waiting for its upload. */
export function newConfigurationVersion(ctx: EmulatorContext, slice: RegistrySlice, moduleId: string) {
  const cv: ConfigurationVersion = {
    id: newId('cv'),
    moduleId,
    status: 'pending',
    createdAt: new Date(ctx.now()).toISOString(),
    files: [],
  };
  slice.data.configurationVersions.push(cv);
  return cv;
}

export async function receiveConfiguration(
  ctx: EmulatorContext,
  slice: RegistrySlice,
  id: string,
  bytes: Buffer,
  message = 'Queued automatically when configuration files were uploaded',
): Promise<void> {
  const cv = slice.data.configurationVersions.find((c) => c.id === id);
  if (!cv) return;
  try {
    const ingested = await ingestPool().ingest(bytes);
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
    message,
  });
}
