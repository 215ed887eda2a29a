/**
 * What happens to a module version's archive: it is kept byte for byte (the
 * download serves it), parsed (./ingest, in a worker thread: ./ingest-pool.ts),
 * and the version becomes `ok`, or
 * `reg_ingress_failed` with the reason. The module is `setup_complete` from
 * its first `ok` version.
 */
import { IngestError } from './ingest/index.ts';
import { ingestPool } from './ingest-pool.ts';
import type { RegistrySlice, VersionRecord } from './state.ts';

export async function ingestVersion(
  slice: RegistrySlice,
  version: VersionRecord,
  archive: Buffer,
  now: () => string,
): Promise<void> {
  version.archive = archive.toString('base64');
  version.status = 'reg_ingressing';
  try {
    const ingested = await ingestPool().ingest(archive);
    version.details = JSON.parse(JSON.stringify(ingested));
    version.status = 'ok';
    version.error = null;
    const module = slice.data.modules.find((m) => m.id === version.moduleId);
    if (module) {
      module.status = 'setup_complete';
      module.updatedAt = now();
    }
  } catch (error) {
    if (!(error instanceof IngestError)) throw error;
    version.status = 'reg_ingress_failed';
    version.error = error.message;
  }
  version.updatedAt = now();
}
