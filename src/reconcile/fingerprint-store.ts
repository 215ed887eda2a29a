/**
 * The fingerprint store: salted HMACs of the write-only values converge sent,
 * never the values. It lets a plan tell whether a secret changed since the last
 * apply without being able to read it back. File I/O lives here, at the edge;
 * the planner only sees the pure `lookup`.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { ConvergeError } from '../errors.ts';
import type { FingerprintLookup } from './secrets.ts';
import type { Json } from './types.ts';

interface StoreFile {
  version: 1;
  salt: string;
  entries: Record<string, string>;
}

export class FingerprintStore {
  readonly path: string;
  readonly #namespace: string;
  #file: StoreFile;
  #dirty = false;

  private constructor(path: string, namespace: string, file: StoreFile) {
    this.path = path;
    this.#namespace = namespace;
    this.#file = file;
  }

  /** `namespace` separates servers (their URLs) sharing one store. */
  static async open(path: string, namespace: string): Promise<FingerprintStore> {
    let file: StoreFile;
    try {
      file = JSON.parse(await readFile(path, 'utf8')) as StoreFile;
      if (file.version !== 1 || typeof file.salt !== 'string' || typeof file.entries !== 'object') {
        throw new Error('unknown format');
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
        throw new ConvergeError(
          'CONFIG_INVALID',
          `fingerprint store ${path} cannot be read: ${(error as Error).message}`,
          {
            hint: 'delete the file to start a new store (secrets will be sent once more)',
          },
        );
      }
      file = { version: 1, salt: randomBytes(32).toString('base64'), entries: {} };
    }
    return new FingerprintStore(path, namespace, file);
  }

  #entryKey(objectKey: string, field: string): string {
    return `${this.#namespace}|${objectKey}#${field}`;
  }

  #hash(value: Json): string {
    return createHmac('sha256', this.#file.salt).update(JSON.stringify(value)).digest('hex');
  }

  readonly lookup: FingerprintLookup = (objectKey, field, value) => {
    const recorded = this.#file.entries[this.#entryKey(objectKey, field)];
    if (recorded === undefined) return 'unknown';
    return recorded === this.#hash(value) ? 'same' : 'changed';
  };

  /** Whether a value of this field was recorded: it was a secret when converge last sent or kept it. */
  has(objectKey: string, field: string): boolean {
    return this.#file.entries[this.#entryKey(objectKey, field)] !== undefined;
  }

  record(objectKey: string, field: string, value: Json): void {
    this.#file.entries[this.#entryKey(objectKey, field)] = this.#hash(value);
    this.#dirty = true;
  }

  forget(objectKey: string): void {
    const prefix = `${this.#namespace}|${objectKey}#`;
    for (const key of Object.keys(this.#file.entries)) {
      if (key.startsWith(prefix)) {
        delete this.#file.entries[key];
        this.#dirty = true;
      }
    }
  }

  /** Atomic write: a crash never leaves a half-written store. */
  async save(): Promise<void> {
    if (!this.#dirty) return;
    await mkdir(dirname(this.path), { recursive: true });
    const tmp = `${this.path}.${process.pid}.tmp`;
    await writeFile(tmp, `${JSON.stringify(this.#file, null, 2)}\n`, { mode: 0o600 });
    await rename(tmp, this.path);
    this.#dirty = false;
  }
}
