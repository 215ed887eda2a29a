/**
 * Reading uploads off the emulator's event loop. Ingesting an archive
 * (./ingest) is CPU work: gunzip, tar, and hcl2json's WebAssembly over every
 * configuration file, about 5 ms for a small real module. Done on the event
 * loop, every other request (a version's POST, a module's GET) waited behind
 * every upload being read, and a burst of uploads was read one at a time
 * (docs/performance.md, "Publishing and packing modules"). A real registry
 * reads uploads in the background; here worker threads read them while the
 * event loop keeps answering, and the PUT still answers once its archive is
 * read, so the next read of the module shows the version `ok` or
 * `reg_ingress_failed`, as before.
 *
 * One pool per process, shared by every emulator in it (the tests start
 * many): each worker loads hcl2json's WebAssembly once. Workers are made on
 * the first upload and never keep the process alive while idle. The worker's
 * code is `ingest-worker.js` (the build) or `ingest-worker.ts` (the sources)
 * beside this file; where neither is found (a bundle that left it out), or a
 * worker cannot start, archives are read on the event loop as before.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { IngestError, type IngestedModule, type IngestStage, ingestModule } from './ingest/index.ts';

/** What the pool sends a worker. */
export interface IngestJob {
  id: number;
  archive: Uint8Array;
}

/**
 * What a worker answers: that it is ready (its code loaded), then per job the
 * module, the reason the archive was refused, or a failure of the emulator itself.
 */
export type IngestReply =
  | { ready: true }
  | { id: number; module: IngestedModule }
  | { id: number; refused: { message: string; stage: IngestStage } }
  | { id: number; failed: string };

/** The worker scripts, built first: the build holds no `.ts`, the sources no `.js`. */
export const WORKER_FILES = ['ingest-worker.js', 'ingest-worker.ts'];

/**
 * One worker per core, up to a few: the event loop mostly waits (on the
 * network, on the workers), and on a small machine shared with the client
 * that is uploading, two workers on two cores read a burst of uploads in
 * about two thirds of the time one takes (docs/performance.md). More than a
 * few only hold more copies of the WebAssembly.
 */
const MAX_WORKERS = 4;
export const ingestPoolSize = (): number => Math.max(1, Math.min(MAX_WORKERS, availableParallelism()));

interface Pending {
  archive: Buffer;
  resolve: (module: IngestedModule) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  pending: Map<number, Pending>;
  /** Its code loaded: from then on, a worker that stops takes its jobs with it. */
  ready: boolean;
  /** Stopped by close(). */
  closed: boolean;
}

export class IngestPool {
  #file: URL | undefined;
  readonly #size: number;
  #slots: Slot[] = [];
  #nextId = 0;
  /** Where the search for the least busy worker starts: idle workers take turns, so all of them warm up. */
  #turn = 0;

  /** `file`: the worker's script (undefined: read on the event loop); `size`: how many workers. */
  constructor(file: URL | undefined, size: number) {
    this.#file = file;
    this.#size = size;
  }

  /** True when archives are read in worker threads (false: on the event loop). */
  get threaded(): boolean {
    return this.#file !== undefined;
  }

  /** The module in `archive`; an IngestError when the archive or its Terraform is refused. */
  ingest(archive: Buffer): Promise<IngestedModule> {
    const slot = this.#slot();
    if (!slot) return ingestModule(archive);
    const id = this.#nextId++;
    return new Promise<IngestedModule>((resolve, reject) => {
      if (slot.pending.size === 0) slot.worker.ref();
      slot.pending.set(id, { archive, resolve, reject });
      // a copy, moved rather than copied again: the caller keeps its buffer (the download serves it)
      const job: IngestJob = { id, archive: new Uint8Array(archive) };
      slot.worker.postMessage(job, [job.archive.buffer as ArrayBuffer]);
    });
  }

  /** Stops the workers; what they were reading fails. The next upload starts new ones. */
  async close(): Promise<void> {
    const slots = this.#slots;
    this.#slots = [];
    for (const slot of slots) slot.closed = true;
    await Promise.all(slots.map((slot) => slot.worker.terminate()));
  }

  #slot(): Slot | undefined {
    if (this.#file === undefined) return undefined;
    while (this.#slots.length < this.#size) {
      const slot = this.#start(this.#file);
      if (!slot) break;
      this.#slots.push(slot);
    }
    if (this.#slots.length === 0) return undefined;
    let best: Slot | undefined;
    for (let i = 0; i < this.#slots.length; i++) {
      const slot = this.#slots[(this.#turn + i) % this.#slots.length] as Slot;
      if (!best || slot.pending.size < best.pending.size) best = slot;
    }
    this.#turn = (this.#turn + 1) % this.#slots.length;
    return best;
  }

  #start(file: URL): Slot | undefined {
    let worker: Worker;
    try {
      worker = new Worker(file);
    } catch {
      this.#file = undefined;
      return undefined;
    }
    const slot: Slot = { worker, pending: new Map(), ready: false, closed: false };
    worker.on('message', (reply: IngestReply) => {
      if ('ready' in reply) {
        slot.ready = true;
        return;
      }
      const pending = slot.pending.get(reply.id);
      if (!pending) return;
      slot.pending.delete(reply.id);
      if (slot.pending.size === 0) worker.unref();
      if ('module' in reply) pending.resolve(reply.module);
      else if ('refused' in reply) pending.reject(new IngestError(reply.refused.message, reply.refused.stage));
      else pending.reject(new Error(`reading the upload failed: ${reply.failed}`));
    });
    const stopped = (reason: string) => {
      this.#slots = this.#slots.filter((other) => other !== slot);
      const jobs = [...slot.pending.values()];
      slot.pending.clear();
      if (!slot.ready && !slot.closed) {
        // its code never ran (flags the thread inherits, a build without its dependencies): this process
        // reads uploads on the event loop from now on, these included
        this.#file = undefined;
        for (const job of jobs) ingestModule(job.archive).then(job.resolve, job.reject);
        return;
      }
      // a worker that died takes what it was reading with it; the next upload starts a new one
      for (const job of jobs) job.reject(new Error(`the ingest worker stopped: ${reason}`));
    };
    worker.on('error', (error) => stopped(error.message));
    worker.on('exit', (code) => stopped(`exit code ${code}`));
    // after the listeners: listening for messages holds the process again
    worker.unref();
    return slot;
  }
}

/** The worker's script beside this module, if the sources or the build hold it. */
export function workerFile(base: string | URL = import.meta.url): URL | undefined {
  try {
    return WORKER_FILES.map((name) => new URL(`./${name}`, base)).find((url) => existsSync(url));
  } catch {
    // not a file URL (a bundle without import.meta.url): read on the event loop
    return undefined;
  }
}

let shared: IngestPool | undefined;

/** The process's pool. */
export function ingestPool(): IngestPool {
  shared ??= new IngestPool(workerFile(), ingestPoolSize());
  return shared;
}
