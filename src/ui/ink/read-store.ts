/**
 * The read view's state, outside React: folds the read events (read-start,
 * read-progress, read-done, retry) into the kinds still being read, the objects found
 * and the requests sent, and publishes a snapshot on a ticker so the elapsed
 * time moves between answers. Kind names and retry reasons are made safe for
 * the terminal here, as in the apply view's store.
 */
import { redact } from '../../api/redact.ts';
import type { ReconcileEvent } from '../../reconcile/events.ts';
import { terminalLine } from '../terminal-text.ts';

const shown = (text: string): string => terminalLine(redact(text));

export interface ReadingKind {
  kind: string;
  objects: number;
}

export interface ReadSnapshot {
  /** `ended`: reading is over (or failed) and the view draws one line that says so. */
  phase: 'reading' | 'ended';
  /** read-done's figures: every kind was read. */
  done: { objects: number; requests: number; elapsedMs: number } | undefined;
  now: number;
  elapsedMs: number;
  kinds: number;
  kindsRead: number;
  /** Kinds still being read, capped; the rest are `hiddenReading`. */
  reading: ReadingKind[];
  hiddenReading: number;
  objects: number;
  requests: number;
  retries: number;
  lastRetry: string | undefined;
}

export interface ReadStoreOptions {
  intervalMs?: number;
  /** Kinds being read shown at most (default 6). */
  maxRows?: number;
  now?: () => number;
}

export class ReadViewStore {
  readonly #intervalMs: number;
  readonly #maxRows: number;
  readonly #now: () => number;
  readonly #listeners = new Set<() => void>();
  #timer: ReturnType<typeof setInterval> | undefined;
  #phase: ReadSnapshot['phase'] = 'reading';
  #startedAt: number;
  /** Objects found per kind, in the order read-start listed the kinds; done kinds leave `#reading`. */
  #objects = new Map<string, number>();
  #reading = new Set<string>();
  #requests = 0;
  #retries = 0;
  #lastRetry: string | undefined;
  #done: ReadSnapshot['done'];
  #snapshot: ReadSnapshot;

  constructor(options: ReadStoreOptions = {}) {
    this.#intervalMs = options.intervalMs ?? 100;
    this.#maxRows = options.maxRows ?? 6;
    this.#now = options.now ?? (() => Date.now());
    this.#startedAt = this.#now();
    this.#snapshot = this.#build();
  }

  /** Folds one event; the ticker publishes. */
  fold = (event: ReconcileEvent): void => {
    switch (event.type) {
      case 'read-start':
        this.#startedAt = this.#now();
        for (const kind of event.kinds) {
          this.#objects.set(kind, 0);
          this.#reading.add(kind);
        }
        this.#timer ??= setInterval(this.#publish, this.#intervalMs);
        this.#timer.unref?.();
        this.#publish();
        break;
      case 'read-progress':
        this.#objects.set(event.kind, event.objects);
        if (event.done) this.#reading.delete(event.kind);
        this.#requests = Math.max(this.#requests, event.requests);
        break;
      case 'read-done':
        this.#done = { objects: event.objects, requests: event.requests, elapsedMs: event.elapsedMs };
        break;
      case 'retry':
        this.#retries++;
        this.#lastRetry = shown(`${event.method} ${event.path}: ${event.reason}`);
        break;
      default:
        break;
    }
  };

  /** Reading is over: the snapshot published now is the view's last frame. */
  end(): void {
    this.#stop();
    this.#phase = 'ended';
    this.#publish();
  }

  subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  getSnapshot = (): ReadSnapshot => this.#snapshot;

  #stop(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
  }

  #publish = (): void => {
    this.#snapshot = this.#build();
    for (const listener of this.#listeners) listener();
  };

  #build(): ReadSnapshot {
    const now = this.#now();
    const reading = [...this.#reading]
      .slice(0, this.#maxRows)
      .map((kind) => ({ kind: shown(kind), objects: this.#objects.get(kind) ?? 0 }));
    let objects = 0;
    for (const n of this.#objects.values()) objects += n;
    return {
      phase: this.#phase,
      done: this.#done,
      now,
      elapsedMs: Math.max(0, now - this.#startedAt),
      kinds: this.#objects.size,
      kindsRead: this.#objects.size - this.#reading.size,
      reading,
      hiddenReading: this.#reading.size - reading.length,
      objects,
      requests: this.#requests,
      retries: this.#retries,
      lastRetry: this.#lastRetry,
    };
  }
}
