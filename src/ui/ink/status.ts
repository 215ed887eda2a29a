/**
 * The bottom of the apply view: a status line while applying (counts,
 * throughput, elapsed, retries, interrupt) and the final summary.
 */
import { Box, Text } from 'ink';
import React from 'react';
import type { ApplySummary } from '../../reconcile/events.ts';
import { type ApplyOutcome, applyHeadline, applyOutcome } from '../apply-summary.ts';
import type { ViewSnapshot } from './store.ts';
import { formatDuration, formatRate, tone } from './theme.ts';

const h = React.createElement;

/** Rows listed at most per section of the final summary; the log above has them all. */
const SUMMARY_ROWS = 10;

const OUTCOME_COLOR: Record<ApplyOutcome, string> = {
  interrupted: 'yellow',
  'finished with failures': 'red',
  complete: 'green',
};

/** `[1200/5000] 1190 done · 3 failed · 7 skipped · 10 running · 85/s · 14.5s` */
export function StatusLine(props: { view: ViewSnapshot; colors: boolean }): React.ReactElement {
  const { view, colors } = props;
  const dim = tone(colors, { dimColor: true });
  return h(
    Box,
    { flexDirection: 'column' },
    view.interrupted
      ? h(
          Text,
          tone(colors, { color: 'yellow' }),
          `Interrupted: no new work starts; waiting for ${view.running} request(s) in flight… (Ctrl-C again to quit)`,
        )
      : null,
    h(
      Text,
      null,
      h(Text, tone(colors, { bold: true }), `[${view.finished}/${view.total}]`),
      ' ',
      h(Text, tone(colors, { color: 'green' }), `${view.done} done`),
      ' · ',
      h(Text, tone(colors, view.failed > 0 ? { color: 'red' } : {}), `${view.failed} failed`),
      ' · ',
      h(Text, tone(colors, view.skipped > 0 ? { color: 'yellow' } : {}), `${view.skipped} skipped`),
      ` · ${view.running} running · `,
      h(Text, dim, `${formatRate(view.throughput)} · ${formatDuration(view.elapsedMs)}`),
      view.retries > 0 ? h(Text, tone(colors, { color: 'yellow' }), ` · ${view.retries} retried`) : null,
    ),
    view.retries > 0 && view.lastRetry ? h(Text, dim, `  last retry: ${view.lastRetry}`) : null,
  );
}

/** What was done, what failed, and what was not started. */
export function FinalSummary(props: { summary: ApplySummary; colors: boolean }): React.ReactElement {
  const { summary, colors } = props;
  const interrupted = summary.skipped.filter((s) => s.reason === 'interrupted');
  const unreachable = summary.skipped.filter((s) => s.reason === 'unreachable');
  const blocked = summary.skipped.filter((s) => s.reason === 'dependency-failed');
  return h(
    Box,
    { flexDirection: 'column', marginTop: 1 },
    h(Text, tone(colors, { color: OUTCOME_COLOR[applyOutcome(summary)], bold: true }), applyHeadline(summary)),
    ...section(
      'failed',
      summary.failed.map((f) => `${f.key} (${f.action}): ${f.error.message}`),
      'red',
      colors,
    ),
    ...section(
      'skipped, a dependency failed',
      blocked.map((s) => `${s.key} (${s.action}): ${s.cause ?? 'a dependency'} failed`),
      'yellow',
      colors,
    ),
    ...section(
      'not started (interrupted)',
      interrupted.map((s) => `${s.key} (${s.action})`),
      'yellow',
      colors,
    ),
    ...section(
      'not started (the server stopped answering)',
      unreachable.map((s) => `${s.key} (${s.action})`),
      'yellow',
      colors,
    ),
  );
}

function section(title: string, lines: string[], color: string, colors: boolean): React.ReactElement[] {
  if (lines.length === 0) return [];
  const shown = lines.slice(0, SUMMARY_ROWS);
  return [
    h(Text, { key: title, ...tone(colors, { color }) }, `  ${lines.length} ${title}:`),
    ...shown.map((line, i) => h(Text, { key: `${title}-${i}`, wrap: 'truncate-end' }, `    ${line}`)),
    ...(lines.length > shown.length
      ? [
          h(
            Text,
            { key: `${title}-more`, ...tone(colors, { dimColor: true }) },
            `    +${lines.length - shown.length} more`,
          ),
        ]
      : []),
  ];
}
