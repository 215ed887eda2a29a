/**
 * The read view: while live state is read (seconds against a slow server),
 * the kinds still being read with the objects found so far, and a status
 * line of kinds read, objects, requests and elapsed time. When reading ends
 * it shrinks to one line that says what was read, and the plan follows it.
 */
import { Box, Text } from 'ink';
import React, { useSyncExternalStore } from 'react';
import type { ReadSnapshot, ReadViewStore } from './read-store.ts';
import { formatDuration, spinnerFrame, tone } from './theme.ts';

const h = React.createElement;

/** Pure: renders one snapshot. */
export function ReadView(props: { view: ReadSnapshot; colors: boolean }): React.ReactElement {
  const { view, colors } = props;
  const dim = tone(colors, { dimColor: true });
  if (view.phase === 'ended') return h(Text, dim, endLine(view));
  const frame = spinnerFrame(view.now);
  return h(
    Box,
    { flexDirection: 'column' },
    h(
      Text,
      null,
      h(Text, tone(colors, { color: 'cyan' }), frame),
      ' ',
      h(Text, tone(colors, { bold: true }), 'Reading live state'),
      `  ${view.kindsRead}/${view.kinds} kind(s) read · ${view.objects} object(s) · ${view.requests} request(s) · `,
      h(Text, dim, formatDuration(view.elapsedMs)),
      view.retries > 0 ? h(Text, tone(colors, { color: 'yellow' }), ` · ${view.retries} retried`) : null,
    ),
    ...view.reading.map((row) =>
      h(
        Text,
        { key: row.kind, wrap: 'truncate-end' },
        `  ${row.kind}  `,
        h(Text, dim, `${row.objects} object(s) so far`),
      ),
    ),
    view.hiddenReading > 0 ? h(Text, dim, `  +${view.hiddenReading} more kind(s) being read`) : null,
    view.retries > 0 && view.lastRetry ? h(Text, dim, `  last retry: ${view.lastRetry}`) : null,
  );
}

/** `Read 30 live object(s) in 1.2s, 41 request(s)`, or where a failed read stopped. */
function endLine(view: ReadSnapshot): string {
  if (view.done) {
    const { objects, elapsedMs, requests } = view.done;
    return `Read ${objects} live object(s) in ${formatDuration(elapsedMs)}, ${requests} request(s)`;
  }
  return `Reading stopped after ${formatDuration(view.elapsedMs)}: ${view.kindsRead}/${view.kinds} kind(s) read, ${view.objects} object(s), ${view.requests} request(s)`;
}

/** Subscribes to the store; re-renders when it publishes (on its ticker). */
export function LiveReadView(props: { store: ReadViewStore; colors: boolean }): React.ReactElement {
  const view = useSyncExternalStore(props.store.subscribe, props.store.getSnapshot);
  return h(ReadView, { view, colors: props.colors });
}
