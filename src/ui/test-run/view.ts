/**
 * The test-run view on a terminal: the steps done (packed, uploaded), then
 * one live line with the run's id, status and elapsed time under a spinner,
 * which becomes the outcome with the counts when the run ends.
 */
import { Box, Text } from 'ink';
import React, { useSyncExternalStore } from 'react';
import { formatDuration, spinnerFrame, tone } from '../ink/theme.ts';
import { formatCounts, outcomeOf } from './events.ts';
import type { TestRunSnapshot, TestRunViewStore } from './store.ts';

const h = React.createElement;

const OUTCOME_COLOR: Record<string, string> = { pass: 'green', canceled: 'yellow' };

/** Pure: renders one snapshot. */
export function TestRunView(props: { view: TestRunSnapshot; colors: boolean }): React.ReactElement {
  const { view, colors } = props;
  const dim = tone(colors, { dimColor: true });
  const steps = view.steps.map((step, i) => h(Text, { key: `step-${i}`, ...dim }, `✓ ${step}`));
  const elapsed = formatDuration((view.done?.elapsedMs ?? view.now - view.startedAt) || 0);
  let line: React.ReactElement;
  if (view.done) {
    const outcome = outcomeOf(view.done.run);
    const counts = view.done.run.counts ? ` · ${formatCounts(view.done.run.counts)}` : '';
    line = h(
      Text,
      null,
      h(
        Text,
        tone(colors, { color: OUTCOME_COLOR[outcome] ?? 'red', bold: true }),
        `${outcome === 'pass' ? '✓' : '✗'} ${view.done.run.id} ${view.done.run.status}${view.done.run.status === 'finished' ? `: ${outcome}` : ''}`,
      ),
      counts,
      h(Text, dim, ` · ${elapsed}`),
    );
  } else {
    const what = view.run
      ? `${view.run.id} ${view.run.status}${view.created ? '' : ' (queued by the upload)'}`
      : view.steps.length === 0
        ? 'packing the module'
        : view.steps.length === 1
          ? 'uploading'
          : 'waiting for the test run';
    line = h(
      Text,
      null,
      h(Text, tone(colors, { color: 'cyan' }), spinnerFrame(view.now)),
      ` ${what}`,
      h(Text, dim, ` · ${elapsed}`),
    );
  }
  return h(
    Box,
    { flexDirection: 'column' },
    ...steps,
    line,
    view.cancel ? h(Text, tone(colors, { color: 'yellow' }), view.cancel) : null,
    view.retries > 0 && view.lastRetry
      ? h(Text, dim, `${view.retries} request(s) retried; last: ${view.lastRetry}`)
      : null,
  );
}

/** Subscribes to the store; re-renders when it publishes. */
export function LiveTestRunView(props: { store: TestRunViewStore; colors: boolean }): React.ReactElement {
  const view = useSyncExternalStore(props.store.subscribe, props.store.getSnapshot);
  return h(TestRunView, { view, colors: props.colors });
}
