/**
 * The state of the test-run view, folded from events: what was done, the
 * run's status and elapsed time, a Ctrl-C note, retries, and the end. A timer
 * moves the clock (and the spinner) while the run is followed. Pure but for
 * that timer; React reads it through subscribe/getSnapshot.
 */

import type { TestRunEvent, TestRunState } from './events.ts';
import { cancelWords } from './plain.ts';

export interface TestRunSnapshot {
  steps: string[];
  run?: TestRunState;
  created: boolean;
  /** When the view started: elapsed time counts from here. */
  startedAt: number;
  now: number;
  cancel?: string;
  retries: number;
  lastRetry?: string;
  done?: { run: TestRunState; elapsedMs: number };
}

export class TestRunViewStore {
  #snapshot: TestRunSnapshot;
  #listeners = new Set<() => void>();
  #timer: NodeJS.Timeout | undefined;

  constructor(now = Date.now(), tickMs = 100) {
    this.#snapshot = { steps: [], created: false, startedAt: now, now, retries: 0 };
    this.#timer = setInterval(() => this.#set({ now: Date.now() }), tickMs);
    // the clock never keeps the process alive
    this.#timer.unref();
  }

  subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  getSnapshot = (): TestRunSnapshot => this.#snapshot;

  fold(event: TestRunEvent): void {
    const s = this.#snapshot;
    switch (event.type) {
      case 'packed':
        this.#set({
          steps: [
            ...s.steps,
            `Packed ${event.module}: ${event.files} file(s), ${event.bytes} bytes; tests: ${event.testFiles.join(', ')}`,
          ],
        });
        break;
      case 'uploaded':
        this.#set({ steps: [...s.steps, `Uploaded configuration version ${event.configurationVersion}`] });
        break;
      case 'run':
        this.#set({ run: event.run, created: event.created });
        break;
      case 'status':
        this.#set({ run: event.run, now: event.time });
        break;
      case 'cancel':
        this.#set({ cancel: cancelWords(event.force, event.outcome) });
        break;
      case 'retry':
        this.#set({
          retries: s.retries + 1,
          lastRetry: `${event.method} ${event.path} in ${event.delayMs} ms (${event.reason})`,
        });
        break;
      case 'done':
        this.dispose();
        // the outcome says how a cancel ended; its "waiting" note is over
        this.#set({
          run: event.run,
          done: { run: event.run, elapsedMs: event.elapsedMs },
          now: event.time,
          cancel: undefined,
        });
        break;
    }
  }

  dispose(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
  }

  #set(change: Partial<TestRunSnapshot>): void {
    this.#snapshot = { ...this.#snapshot, ...change };
    for (const listener of this.#listeners) listener();
  }
}
