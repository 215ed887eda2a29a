/**
 * What `converge test run` tells its progress view (src/cli/run/test-run.ts
 * emits, a reporter renders), and the run as converge reads it. The view on a
 * terminal is ./render.ts, the plain lines ./plain.ts.
 */

/** `attributes.status` of a test run; `finished`, `errored` and `canceled` are final. */
export type TestRunStatus = 'pending' | 'queued' | 'running' | 'finished' | 'errored' | 'canceled';

export interface TestCounts {
  passed: number;
  failed: number;
  errored: number;
  skipped: number;
}

/** One test run as the API last showed it. */
export interface TestRunState {
  id: string;
  status: TestRunStatus;
  /** `pass` or `fail` once the run ended, else null. */
  testStatus: 'pass' | 'fail' | null;
  /** Null until the run ended. */
  counts: TestCounts | null;
  source: string;
  logReadUrl?: string;
  configurationVersionId?: string;
}

export type TestRunEventBody =
  | { type: 'packed'; module: string; files: number; bytes: number; testFiles: string[] }
  | { type: 'uploaded'; configurationVersion: string }
  /** `created`: converge started the run (with --var/--filter/...); otherwise the upload queued it. */
  | { type: 'run'; run: TestRunState; created: boolean }
  | { type: 'status'; run: TestRunState; elapsedMs: number }
  /** Ctrl-C: `pending` while the run is still queued (cancel is only taken by a running run). */
  | { type: 'cancel'; force: boolean; outcome: 'sent' | 'pending' | 'refused' }
  | { type: 'retry'; method: string; path: string; attempt: number; delayMs: number; reason: string }
  | { type: 'done'; run: TestRunState; elapsedMs: number };

export type TestRunEvent = TestRunEventBody & { time: number };

export interface TestRunReporter {
  listener: (event: TestRunEvent) => void;
  /** Resolves once the view's last frame is out (Ink: unmounted). */
  close(): Promise<void>;
}

/** `2 passed, 1 failed, 0 errored, 0 skipped`. */
export function formatCounts(counts: TestCounts): string {
  return `${counts.passed} passed, ${counts.failed} failed, ${counts.errored} errored, ${counts.skipped} skipped`;
}

/** The outcome in a few words: `pass`, `fail`, `errored`, `canceled`. */
export function outcomeOf(run: TestRunState): 'pass' | 'fail' | 'errored' | 'canceled' | TestRunStatus {
  if (run.status === 'finished') return run.testStatus ?? 'fail';
  return run.status;
}

/** True only for a finished run whose tests all passed: the exit code 0. */
export const passed = (run: TestRunState): boolean => run.status === 'finished' && run.testStatus === 'pass';
