/**
 * Plain progress lines of `converge test run` for CI, pipes and
 * --no-progress: one line per step and per status change, on stderr, so that
 * stdout carries only the report (the log, JUnit XML or JSON).
 */
import type { Colors } from '../colors.ts';
import { formatDuration } from '../ink/theme.ts';
import type { Output } from '../output.ts';
import { formatCounts, outcomeOf, type TestRunEvent } from './events.ts';

export function plainTestRunReporter(output: Output, colors: Colors): (event: TestRunEvent) => void {
  let last = '';
  return (event) => {
    switch (event.type) {
      case 'packed':
        output.err(
          `Packed ${event.module}: ${event.files} file(s), ${event.bytes} bytes; ` +
            `${event.testFiles.length} test file(s): ${event.testFiles.join(', ')}`,
        );
        break;
      case 'uploaded':
        output.err(`Uploaded configuration version ${event.configurationVersion}`);
        break;
      case 'run':
        last = event.run.status;
        output.err(
          `Test run ${event.run.id} ${event.run.status} ` +
            colors.dim(event.created ? '(started with the given options)' : '(queued by the upload)'),
        );
        break;
      case 'status':
        if (event.run.status === last) break;
        last = event.run.status;
        output.err(
          `Test run ${event.run.id} ${event.run.status} ${colors.dim(`(${formatDuration(event.elapsedMs)})`)}`,
        );
        break;
      case 'cancel':
        output.err(colors.yellow(cancelWords(event.force, event.outcome)));
        break;
      case 'retry':
        output.err(colors.dim(`retrying ${event.method} ${event.path} in ${event.delayMs} ms (${event.reason})`));
        break;
      case 'done': {
        const outcome = outcomeOf(event.run);
        const paint = outcome === 'pass' ? colors.green : outcome === 'canceled' ? colors.yellow : colors.red;
        const counts = event.run.counts ? `: ${formatCounts(event.run.counts)}` : '';
        output.err(
          paint(
            `Test run ${event.run.id} ${event.run.status}${event.run.status === 'finished' ? ` (${outcome})` : ''}${counts}`,
          ) + colors.dim(` in ${formatDuration(event.elapsedMs)}`),
        );
        break;
      }
    }
  };
}

/** What a Ctrl-C did, in the words both views use. */
export function cancelWords(force: boolean, outcome: 'sent' | 'pending' | 'refused'): string {
  const what = force ? 'Force-cancel' : 'Cancel';
  switch (outcome) {
    case 'sent':
      return force
        ? 'Force-cancel sent: the run stops now (Ctrl-C again to quit without waiting)'
        : 'Cancel sent: waiting for the run to stop (Ctrl-C again to force-cancel)';
    case 'pending':
      return `${what} requested: sent once the run leaves the queue (Ctrl-C again to ${force ? 'quit' : 'force-cancel'})`;
    case 'refused':
      return `${what} refused: the run is no longer running`;
  }
}
