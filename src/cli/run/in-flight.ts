/**
 * The actions an apply has started and not yet finished, from its events: what a second Ctrl-C
 * (or SIGTERM) leaves unknown when it ends the process at once (docs/commands.md, "apply").
 * A replacement is named apart: past its delete and before its create, its object is absent.
 */
import type { EventStream } from '../../reconcile/events.ts';
import type { PlannedAction } from '../../reconcile/types.ts';
import { terminalLine } from '../../ui/terminal-text.ts';

export function actionsInFlight(events: EventStream): ReadonlyMap<string, PlannedAction> {
  const started = new Map<string, PlannedAction>();
  events.on((event) => {
    if (event.type === 'action-start') started.set(event.action.key, event.action);
    else if (event.type === 'action-done' || event.type === 'action-failed' || event.type === 'action-skipped') {
      started.delete(event.action.key);
    }
  });
  return started;
}

/** What to say as the process ends with actions in flight: each, and what may be true of it now. */
export function inFlightLines(inFlight: ReadonlyMap<string, PlannedAction>): string[] {
  if (inFlight.size === 0) return [];
  const lines = [`Ended at once with ${inFlight.size} action(s) in flight, their outcome unknown:`];
  for (const action of inFlight.values()) {
    const what =
      action.action === 'replace'
        ? 'it may have been deleted and not created again: it may be absent now'
        : 'it may have been applied';
    // a live object's name, written by whoever made it: its control characters shown, never run
    lines.push(terminalLine(`  ? ${action.action} ${action.key}: ${what}`));
  }
  lines.push('Plan again to see what is live.');
  return lines;
}
