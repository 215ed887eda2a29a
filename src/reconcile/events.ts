/**
 * The typed event stream between the engine and the UI. The engine never
 * prints: it emits these, and a reporter (Ink, plain lines, JSON lines)
 * renders them. Every event carries a sequence number and a timestamp.
 */
import type { LiveAfterFailure } from './replace.ts';
import type { Action, Plan, PlannedAction } from './types.ts';

/**
 * Why an action did not run: an action it depends on failed; Ctrl-C stopped
 * new work; or its API's server stopped answering (the client's circuit
 * breaker), so nothing was sent.
 */
export type SkipReason = 'dependency-failed' | 'interrupted' | 'unreachable';

export interface ActionFailure {
  message: string;
  status?: number;
  code?: string;
  /** A replacement that did not complete: what is live at the address now (src/reconcile/replace.ts). */
  live?: LiveAfterFailure;
  /**
   * `unknown`: the request was sent and its answer lost, and reading the object back did not
   * tell what it did: it may have been applied (plan again to see).
   */
  outcome?: 'unknown';
}

export interface ApplySummary {
  done: Partial<Record<Action, number>>;
  failed: Array<{ key: string; action: Action; error: ActionFailure }>;
  skipped: Array<{ key: string; action: Action; reason: SkipReason; cause?: string }>;
  interrupted: boolean;
  elapsedMs: number;
}

export type ReconcileEventBody =
  | { type: 'read-start'; kinds: string[] }
  /**
   * After each answer while a kind is read, and once more with `done` when the kind is read:
   * `objects` of the kind found so far, `requests` sent by the run since reading began (all kinds).
   */
  | { type: 'read-progress'; kind: string; objects: number; requests: number; done: boolean }
  | { type: 'read-done'; objects: number; requests: number; elapsedMs: number }
  | { type: 'plan-ready'; plan: Plan }
  | { type: 'apply-start'; total: number }
  | { type: 'action-start'; action: PlannedAction }
  | { type: 'action-done'; action: PlannedAction; elapsedMs: number; recovered?: boolean }
  | { type: 'action-failed'; action: PlannedAction; error: ActionFailure }
  | { type: 'action-skipped'; action: PlannedAction; reason: SkipReason; cause?: string }
  | { type: 'retry'; method: string; path: string; attempt: number; delayMs: number; reason: string }
  | { type: 'interrupt' }
  | { type: 'apply-done'; summary: ApplySummary };

export type ReconcileEvent = ReconcileEventBody & { seq: number; time: number };

export type EventListener = (event: ReconcileEvent) => void;

/** A minimal typed emitter: the engine emits, reporters listen. */
export class EventStream {
  #seq = 0;
  #listeners: EventListener[] = [];

  on(listener: EventListener): () => void {
    this.#listeners.push(listener);
    return () => {
      this.#listeners = this.#listeners.filter((l) => l !== listener);
    };
  }

  emit(body: ReconcileEventBody): void {
    const event = { ...body, seq: ++this.#seq, time: Date.now() } as ReconcileEvent;
    for (const listener of this.#listeners) listener(event);
  }
}
