/**
 * A worker thread of the ingest pool (./ingest-pool.ts): says it is ready
 * once its code has loaded, then reads each archive it is sent with ./ingest
 * and answers with the module it describes, or with the IngestError's reason
 * and stage, which the pool raises again as an IngestError on the event loop.
 */
import { parentPort } from 'node:worker_threads';
import { IngestError, ingestModule } from './ingest/index.ts';
import type { IngestJob, IngestReply } from './ingest-pool.ts';

const port = parentPort;
if (!port) throw new Error('ingest-worker.ts runs as a worker thread of ingest-pool.ts');

port.on('message', async (job: IngestJob) => port.postMessage(await read(job)));

async function read({ id, archive }: IngestJob): Promise<IngestReply> {
  try {
    return { id, module: await ingestModule(Buffer.from(archive.buffer, archive.byteOffset, archive.byteLength)) };
  } catch (error) {
    return error instanceof IngestError
      ? { id, refused: { message: error.message, stage: error.stage } }
      : { id, failed: error instanceof Error ? (error.stack ?? error.message) : String(error) };
  }
}
// its imports loaded: from here a failure is a job's, not the thread's
port.postMessage({ ready: true } satisfies IngestReply);
