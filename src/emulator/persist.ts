/**
 * The state file: read once at start, written after changes. Writes are
 * debounced (a burst of requests costs one write), go to a temporary file
 * that is then renamed over the old one (a crash never leaves half a file),
 * and never overlap.
 */
import { readFile, rename, writeFile } from 'node:fs/promises';
import { ConvergeError } from '../errors.ts';
import { checkSaved, type SavedState } from './state.ts';

const DEBOUNCE_MS = 50;

export async function readStateFile(path: string): Promise<SavedState | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new ConvergeError('INPUT_INVALID', `cannot read state file ${path}: ${(error as Error).message}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new ConvergeError('INPUT_INVALID', `state file ${path} is corrupt: ${(error as Error).message}`, {
      hint: 'delete it (the emulator then starts from its seed) or pass another --state path',
    });
  }
  return checkSaved(data, path);
}

export class Persister {
  readonly #path: string;
  readonly #snapshot: () => unknown;
  readonly #onError: (error: Error) => void;
  #timer: NodeJS.Timeout | undefined;
  #writing: Promise<void> = Promise.resolve();

  constructor(path: string, snapshot: () => unknown, onError: (error: Error) => void) {
    this.#path = path;
    this.#snapshot = snapshot;
    this.#onError = onError;
  }

  /** A change happened: write soon. */
  schedule(): void {
    if (this.#timer) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.#write();
    }, DEBOUNCE_MS);
  }

  /** Writes now if a write is pending, and waits for every write to finish. */
  async flush(): Promise<void> {
    if (this.#timer) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
      await this.#write();
    }
    await this.#writing;
  }

  #write(): Promise<void> {
    // the snapshot is taken when this write's turn comes, so it holds every change before it
    this.#writing = this.#writing.then(async () => {
      const temp = `${this.#path}.${process.pid}.tmp`;
      try {
        await writeFile(temp, `${JSON.stringify(this.#snapshot(), null, 2)}\n`, { mode: 0o600 });
        await rename(temp, this.#path);
      } catch (error) {
        this.#onError(error as Error);
      }
    });
    return this.#writing;
  }
}
