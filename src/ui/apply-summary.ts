/**
 * Words for a finished apply, shared by the plain lines and the Ink view so
 * both tell the same story. Pure, and free of Ink and React.
 */
import type { ApplySummary } from '../reconcile/events.ts';
import type { Action } from '../reconcile/types.ts';

export const PAST: Record<Action, string> = {
  create: 'created',
  update: 'updated',
  replace: 'replaced',
  delete: 'deleted',
  noop: 'unchanged',
};

export type ApplyOutcome = 'interrupted' | 'finished with failures' | 'complete';

export function applyOutcome(summary: ApplySummary): ApplyOutcome {
  if (summary.interrupted) return 'interrupted';
  return summary.failed.length > 0 ? 'finished with failures' : 'complete';
}

/**
 * `Apply complete: 3 created, 1 updated; 0 failed; 0 skipped (1.2 s)`; a failure whose outcome is
 * unknown (its answer lost, the read-back failing too) is counted apart: it may have been applied.
 */
export function applyHeadline(summary: ApplySummary): string {
  const done = (Object.entries(summary.done) as Array<[Action, number]>)
    .filter(([, n]) => n > 0)
    .map(([action, n]) => `${n} ${PAST[action]}`)
    .join(', ');
  const unknown = summary.failed.filter((f) => f.error.outcome === 'unknown').length;
  const failed = `${summary.failed.length - unknown} failed${unknown > 0 ? `; ${unknown} outcome unknown` : ''}`;
  return (
    `Apply ${applyOutcome(summary)}: ${done || 'nothing done'}; ${failed}; ` +
    `${summary.skipped.length} skipped (${(summary.elapsedMs / 1000).toFixed(1)} s)`
  );
}
