/**
 * The apply view's state, outside React: folds ReconcileEvents into counts,
 * the actions in flight, failures and the finished rows not yet printed, and
 * publishes an immutable snapshot at most once per interval. Folding is O(1)
 * per event and a snapshot costs O(visible rows), so 5,000 actions cost a few
 * dozen renders, not 5,000. Every string is redacted and made safe for the
 * terminal here (../terminal-text.ts), before any component can see it.
 */
import { redact } from '../../api/redact.ts';
import type { ApplySummary, ReconcileEvent } from '../../reconcile/events.ts';
import type { Action, ActionCounts, Plan, PlannedAction } from '../../reconcile/types.ts';
import { terminalLine } from '../terminal-text.ts';

/** A key or a server's message as the view may show it: no secret, no control character. */
const shown = (text: string): string => terminalLine(redact(text));

export interface InFlightRow {
  key: string;
  kind: string;
  action: Action;
  startedAt: number;
}

export interface FinishedRow {
  /** `unknown`: the answer was lost and the read-back could not tell whether the write happened. */
  outcome: 'done' | 'failed' | 'skipped' | 'unknown';
  action: Action;
  key: string;
  elapsedMs?: number;
  recovered?: boolean;
  /** The API's message for a failure; the failed dependency for a skip. */
  message?: string;
}

/** What `<Static>` prints once: the plan header, then batches of finished rows. */
export type StaticItem =
  | { id: string; type: 'header'; total: number; counts: ActionCounts }
  | { id: string; type: 'rows'; rows: FinishedRow[] };

export interface KindGroup {
  kind: string;
  /** Non-noop actions of this kind in the plan; undefined when no plan was seen. */
  total: number | undefined;
  finished: number;
  running: number;
  /** The visible in-flight rows (capped across all groups). */
  rows: InFlightRow[];
}

export interface FailureRow {
  key: string;
  action: Action;
  message: string;
  /** The write may have been applied (ActionFailure.outcome `unknown`). */
  unknown?: true;
}

export interface ViewSnapshot {
  phase: 'waiting' | 'applying' | 'done';
  now: number;
  elapsedMs: number;
  /** Finished actions per second since apply started. */
  throughput: number;
  total: number;
  finished: number;
  done: number;
  failed: number;
  skipped: number;
  running: number;
  doneByAction: ActionCounts;
  groups: KindGroup[];
  /** In-flight rows not shown because of the row cap. */
  hiddenRunning: number;
  /** The most recent failures (the rest are in the static log above). */
  failures: FailureRow[];
  hiddenFailures: number;
  staticItems: StaticItem[];
  retries: number;
  lastRetry: string | undefined;
  interrupted: boolean;
  /** The engine's summary, redacted and made safe for the terminal; set on apply-done. */
  summary: ApplySummary | undefined;
}

export interface StoreOptions {
  /** Minimum time between two snapshots (default 100 ms). */
  intervalMs?: number;
  /** In-flight rows shown at most (default 8). */
  maxRows?: number;
  /** Failure rows shown at most in the live region (default 3). */
  maxFailures?: number;
  now?: () => number;
}

interface KindCounts {
  total: number | undefined;
  finished: number;
  running: Map<string, InFlightRow>;
}

export class ApplyViewStore {
  readonly #intervalMs: number;
  readonly #maxRows: number;
  readonly #maxFailures: number;
  readonly #now: () => number;
  readonly #listeners = new Set<() => void>();
  #timer: ReturnType<typeof setInterval> | undefined;
  #dirty = false;

  #phase: ViewSnapshot['phase'] = 'waiting';
  #startedAt = 0;
  #endedAt: number | undefined;
  #total = 0;
  #planCounts: ActionCounts = {};
  #kinds = new Map<string, KindCounts>();
  #skipped = 0;
  #doneByAction: ActionCounts = {};
  /** Every failure; the live region shows the latest. */
  #failures: FailureRow[] = [];
  #pending: FinishedRow[] = [];
  #staticItems: StaticItem[] = [];
  #retries = 0;
  #lastRetry: string | undefined;
  #interrupted = false;
  #summary: ApplySummary | undefined;
  #snapshot: ViewSnapshot;

  constructor(options: StoreOptions = {}) {
    this.#intervalMs = options.intervalMs ?? 100;
    this.#maxRows = options.maxRows ?? 8;
    this.#maxFailures = options.maxFailures ?? 3;
    this.#now = options.now ?? (() => Date.now());
    this.#snapshot = this.#build();
  }

  /** Folds one event. Never renders: a snapshot is published on the next tick. */
  fold = (event: ReconcileEvent): void => {
    switch (event.type) {
      case 'plan-ready':
        this.#planned(event.plan);
        break;
      case 'apply-start':
        this.#start(event.total);
        break;
      case 'action-start':
        this.#kind(event.action.kind).running.set(event.action.key, {
          key: shown(event.action.key),
          kind: event.action.kind,
          action: event.action.action,
          startedAt: this.#now(),
        });
        break;
      case 'action-done':
        this.#finish(event.action);
        this.#doneByAction[event.action.action] = (this.#doneByAction[event.action.action] ?? 0) + 1;
        this.#pending.push({
          outcome: 'done',
          action: event.action.action,
          key: shown(event.action.key),
          elapsedMs: event.elapsedMs,
          ...(event.recovered && { recovered: true }),
        });
        break;
      case 'action-failed': {
        this.#finish(event.action);
        const unknown = event.error.outcome === 'unknown';
        const failure: FailureRow = {
          key: shown(event.action.key),
          action: event.action.action,
          message: shown(event.error.message),
          ...(unknown && { unknown: true as const }),
        };
        this.#failures.push(failure);
        this.#pending.push({
          outcome: unknown ? 'unknown' : 'failed',
          key: failure.key,
          action: failure.action,
          message: failure.message,
        });
        break;
      }
      case 'action-skipped':
        this.#kind(event.action.kind).finished++;
        this.#skipped++;
        // an interrupt skips everything not started: counted in the summary, not listed row by row
        if (event.reason === 'dependency-failed') {
          this.#pending.push({
            outcome: 'skipped',
            action: event.action.action,
            key: shown(event.action.key),
            message: shown(`depends on ${event.cause ?? 'an action'} which failed`),
          });
        }
        break;
      case 'retry':
        this.#retries++;
        this.#lastRetry = shown(`${event.method} ${event.path}: ${event.reason}`);
        break;
      case 'interrupt':
        this.#interrupted = true;
        break;
      case 'apply-done':
        this.#summary = shownSummary(event.summary);
        this.#interrupted = event.summary.interrupted;
        this.#phase = 'done';
        this.#endedAt = this.#now();
        this.#stop();
        this.#dirty = true;
        this.#publish();
        return;
      default:
        return;
    }
    this.#dirty = true;
  };

  subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  getSnapshot = (): ViewSnapshot => this.#snapshot;

  /** Stops the ticker (the view is going away). */
  dispose(): void {
    this.#stop();
  }

  #planned(plan: Plan): void {
    // the header lists what changes; unchanged objects are not applied
    const { noop: _unchanged, ...changes } = plan.counts;
    this.#planCounts = changes;
    for (const a of plan.actions) {
      if (a.action === 'noop') continue;
      const kind = this.#kind(a.kind);
      kind.total = (kind.total ?? 0) + 1;
    }
  }

  #start(total: number): void {
    this.#phase = 'applying';
    this.#total = total;
    this.#startedAt = this.#now();
    // retries while reading were printed as lines already; the view counts those of the apply
    this.#retries = 0;
    this.#lastRetry = undefined;
    this.#staticItems = [{ id: 'header', type: 'header', total, counts: this.#planCounts }];
    this.#stop();
    this.#timer = setInterval(this.#tick, this.#intervalMs);
    this.#timer.unref?.();
  }

  #kind(kind: string): KindCounts {
    let counts = this.#kinds.get(kind);
    if (!counts) {
      counts = { total: undefined, finished: 0, running: new Map() };
      this.#kinds.set(kind, counts);
    }
    return counts;
  }

  #finish(action: PlannedAction): void {
    const kind = this.#kind(action.kind);
    kind.running.delete(action.key);
    kind.finished++;
  }

  /** Actions in flight: the sum of the per-kind maps, so the two cannot disagree. */
  #running(): number {
    let running = 0;
    for (const counts of this.#kinds.values()) running += counts.running.size;
    return running;
  }

  #tick = (): void => {
    // while something runs, its spinner and elapsed time move even without events
    if (this.#dirty || this.#running() > 0) this.#publish();
  };

  #stop(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
  }

  #publish(): void {
    if (this.#pending.length > 0) {
      this.#staticItems = [
        ...this.#staticItems,
        { id: `rows-${this.#staticItems.length}`, type: 'rows', rows: this.#pending },
      ];
      this.#pending = [];
    }
    this.#dirty = false;
    this.#snapshot = this.#build();
    for (const listener of this.#listeners) listener();
  }

  #build(): ViewSnapshot {
    const now = this.#endedAt ?? this.#now();
    const elapsedMs = this.#phase === 'waiting' ? 0 : Math.max(0, now - this.#startedAt);
    const done = sum(this.#doneByAction);
    const failed = this.#failures.length;
    const running = this.#running();
    const finished = done + failed + this.#skipped;
    const groups: KindGroup[] = [];
    let room = this.#maxRows;
    for (const [kind, counts] of this.#kinds) {
      if (counts.running.size === 0) continue;
      const rows: InFlightRow[] = [];
      for (const row of counts.running.values()) {
        if (room === 0) break;
        rows.push(row);
        room--;
      }
      groups.push({
        kind: shown(kind),
        total: counts.total,
        finished: counts.finished,
        running: counts.running.size,
        rows,
      });
    }
    const visibleRows = this.#maxRows - room;
    return {
      phase: this.#phase,
      now,
      elapsedMs,
      throughput: elapsedMs > 0 ? (finished * 1000) / elapsedMs : 0,
      total: this.#total,
      finished,
      done,
      failed,
      skipped: this.#skipped,
      running,
      doneByAction: { ...this.#doneByAction },
      groups,
      hiddenRunning: running - visibleRows,
      failures: this.#failures.slice(-this.#maxFailures),
      hiddenFailures: Math.max(0, this.#failures.length - this.#maxFailures),
      staticItems: this.#staticItems,
      retries: this.#retries,
      lastRetry: this.#lastRetry,
      interrupted: this.#interrupted,
      summary: this.#summary,
    };
  }
}

function sum(counts: ActionCounts): number {
  let total = 0;
  for (const n of Object.values(counts)) total += n ?? 0;
  return total;
}

function shownSummary(summary: ApplySummary): ApplySummary {
  return {
    ...summary,
    failed: summary.failed.map((f) => ({
      key: shown(f.key),
      action: f.action,
      error: { ...f.error, message: shown(f.error.message) },
    })),
    skipped: summary.skipped.map((s) => ({
      key: shown(s.key),
      action: s.action,
      reason: s.reason,
      ...(s.cause !== undefined && { cause: shown(s.cause) }),
    })),
  };
}
