/**
 * Plain lines for CI, pipes and --no-progress: one line per finished action,
 * retries and interrupts as they happen, and a summary at the end.
 */
import type { ActionFailure, ApplySummary, ReconcileEvent, SkipReason } from '../reconcile/events.ts';
import { applyHeadline, PAST } from './apply-summary.ts';
import type { Colors } from './colors.ts';
import type { Output } from './output.ts';
import { terminalLine } from './terminal-text.ts';

export function plainReporter(output: Output, colors: Colors): (event: ReconcileEvent) => void {
  let total = 0;
  let finished = 0;
  return (event) => {
    switch (event.type) {
      case 'read-done':
        output.err(
          colors.dim(`Read ${event.objects} live object(s) in ${event.elapsedMs} ms, ${event.requests} request(s)`),
        );
        break;
      case 'apply-start':
        total = event.total;
        break;
      case 'action-done':
        finished++;
        output.out(
          `[${finished}/${total}] ${colors.green(PAST[event.action.action])} ${terminalLine(event.action.key)} ` +
            colors.dim(`(${event.elapsedMs} ms${event.recovered ? ', recovered after a lost answer' : ''})`),
        );
        break;
      case 'action-failed':
        finished++;
        output.out(
          `[${finished}/${total}] ${colors.red(failedWords(event.action.action, event.error))} ${terminalLine(event.action.key)}: ${terminalLine(event.error.message)}`,
        );
        break;
      case 'action-skipped':
        finished++;
        output.out(
          `[${finished}/${total}] ${colors.yellow('skipped')} ${terminalLine(event.action.key)}: ` +
            skipWords(event.reason, event.cause),
        );
        break;
      case 'retry':
        output.err(
          colors.dim(
            `retrying ${event.method} ${terminalLine(event.path)} in ${event.delayMs} ms (${terminalLine(event.reason)})`,
          ),
        );
        break;
      case 'interrupt':
        output.err(colors.yellow('Interrupted: no new work starts; waiting for requests in flight…'));
        break;
      case 'apply-done':
        for (const line of formatSummary(event.summary, colors)) output.out(line);
        break;
      default:
        break;
    }
  };
}

/** How a failed action is told: an outcome unknown is not a write that failed (ActionFailure.outcome). */
function failedWords(action: string, error: ActionFailure): string {
  return error.outcome === 'unknown' ? `outcome unknown (may have been applied): ${action}` : `failed to ${action}`;
}

function formatSummary(summary: ApplySummary, colors: Colors): string[] {
  const lines = ['', colors.bold(applyHeadline(summary))];
  for (const f of summary.failed) {
    const what = f.error.outcome === 'unknown' ? 'unknown' : 'failed ';
    lines.push(colors.red(`  ${what} ${terminalLine(f.key)} (${f.action}): ${terminalLine(f.error.message)}`));
  }
  for (const s of summary.skipped) {
    lines.push(colors.yellow(`  skipped ${terminalLine(s.key)} (${s.action}): ${skipWords(s.reason, s.cause)}`));
  }
  return lines;
}

/** Why an action was skipped, in words. */
function skipWords(reason: SkipReason, cause: string | undefined): string {
  if (reason === 'interrupted') return 'not started (interrupted)';
  if (reason === 'unreachable') return `not started: ${terminalLine(cause ?? 'the server is unreachable')}`;
  return `depends on ${terminalLine(cause ?? 'an action')} which failed`;
}
