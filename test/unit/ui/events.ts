/** Builders for reporter tests: planned actions and events with seq and time. */
import { vi } from 'vitest';
import type { ApplySummary, ReconcileEvent, ReconcileEventBody } from '../../../src/reconcile/events.ts';
import type { Action, Plan, PlannedAction } from '../../../src/reconcile/types.ts';

export function planned(key: string, action: Action = 'update'): PlannedAction {
  const [kind = key, name = ''] = key.split('/');
  return { key, kind, address: { kind, name }, action, changes: [], dependsOn: [] };
}

export function planOf(actions: PlannedAction[]): Plan {
  const counts: Plan['counts'] = {};
  for (const a of actions) counts[a.action] = (counts[a.action] ?? 0) + 1;
  return { actions, unmanaged: [], counts };
}

let seq = 0;
export function ev(body: ReconcileEventBody): ReconcileEvent {
  seq++;
  return { ...body, seq, time: Date.now() } as ReconcileEvent;
}

export function summary(extra: Partial<ApplySummary> = {}): ApplySummary {
  return { done: {}, failed: [], skipped: [], interrupted: false, elapsedMs: 0, ...extra };
}

/** Removes ANSI escape sequences (colour, cursor) from a frame. */
export function unstyled(text: string | undefined): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching escape sequences is the point
  return (text ?? '').replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '');
}

/**
 * Says the terminal's size in the environment, for Ink. ink-testing-library's stdout has columns but
 * no rows, so Ink asks the terminal-size package, which finds no terminal in a test worker and runs
 * `tput cols` and `tput lines` as processes at every render and layout: most of the CPU of the Ink
 * tests. Off a terminal they answer 80 x 24, its default, the size said here; in a developer's
 * terminal (/dev/tty) the rows no longer follow the window. Undone by vi.unstubAllEnvs().
 */
export function stubTerminalSize(): void {
  vi.stubEnv('COLUMNS', '80');
  vi.stubEnv('LINES', '24');
}
