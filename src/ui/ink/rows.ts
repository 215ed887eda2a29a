/**
 * The rows of the apply view: finished lines (printed once through
 * `<Static>`), in-flight rows grouped by kind, and recent failures.
 */
import { Box, Static, Text } from 'ink';
import pc from 'picocolors';
import React from 'react';
import type { FailureRow, FinishedRow, KindGroup, StaticItem } from './store.ts';
import { ACTION_COLOR, formatDuration, spinnerFrame, tone } from './theme.ts';

const h = React.createElement;

const MARK: Record<FinishedRow['outcome'], { symbol: string; color: 'green' | 'red' | 'yellow' }> = {
  done: { symbol: '✓', color: 'green' },
  failed: { symbol: '✗', color: 'red' },
  skipped: { symbol: '↷', color: 'yellow' },
  // the write may have been applied: neither a success nor a failure (ActionFailure.outcome)
  unknown: { symbol: '?', color: 'yellow' },
};

const FINISHED_WORDS: Record<Exclude<FinishedRow['outcome'], 'done'>, string> = {
  failed: 'failed',
  skipped: 'skipped',
  unknown: 'outcome unknown (may have been applied)',
};

const PAINT = { on: pc.createColors(true), off: pc.createColors(false) };

/**
 * `✓ update  GeneralSettings  120ms`, `✗ create  AdminUser/bob  failed: 422 …` as one string. The log
 * is the one place that is not styled with `<Text color>`: a batch of rows is a single prebuilt
 * string in a single `<Text>`, because Ink's cost is per node and thousands of rows add up.
 */
export function finishedLine(row: FinishedRow, colors: boolean): string {
  const paint = colors ? PAINT.on : PAINT.off;
  const mark = MARK[row.outcome];
  const detail =
    row.outcome === 'done'
      ? paint.dim(`${formatDuration(row.elapsedMs ?? 0)}${row.recovered ? ' (recovered after a lost answer)' : ''}`)
      : paint[mark.color](`${FINISHED_WORDS[row.outcome]}: ${row.message ?? ''}`);
  const action = paint[ACTION_COLOR[row.action]](row.action.padEnd(7));
  return `${paint[mark.color](mark.symbol)} ${action} ${row.key}  ${detail}`;
}

/** The permanent log above the live region: Ink prints each item once and never re-renders it. */
export function StaticLog(props: { items: StaticItem[]; colors: boolean }): React.ReactElement {
  const { colors } = props;
  return h(Static<StaticItem>, {
    items: props.items,
    children: (item: StaticItem) =>
      item.type === 'header'
        ? h(
            Text,
            { key: item.id, ...tone(colors, { bold: true }) },
            `Applying ${item.total} change(s)${headerCounts(item.counts)}`,
          )
        : h(Text, { key: item.id }, item.rows.map((row) => finishedLine(row, colors)).join('\n')),
  });
}

function headerCounts(counts: Partial<Record<string, number>>): string {
  const parts = Object.entries(counts)
    .filter(([, n]) => (n ?? 0) > 0)
    .map(([action, n]) => `${n} ${action}`);
  return parts.length > 0 ? `: ${parts.join(', ')}` : '';
}

/** Actions in flight, under a header per kind: spinner, action, key, time so far. */
export function InFlight(props: {
  groups: KindGroup[];
  hidden: number;
  now: number;
  colors: boolean;
}): React.ReactElement | null {
  const { groups, hidden, now, colors } = props;
  if (groups.length === 0) return null;
  const frame = spinnerFrame(now);
  return h(
    Box,
    { flexDirection: 'column' },
    groups.map((g) =>
      h(
        Box,
        { key: g.kind, flexDirection: 'column' },
        h(
          Text,
          null,
          h(Text, tone(colors, { bold: true }), g.kind),
          h(
            Text,
            tone(colors, { dimColor: true }),
            `  ${g.finished}${g.total === undefined ? '' : `/${g.total}`} finished, ${g.running} running`,
          ),
        ),
        g.rows.map((row) =>
          h(
            Text,
            { key: row.key, wrap: 'truncate-end' },
            '  ',
            h(Text, tone(colors, { color: 'cyan' }), frame),
            ' ',
            h(Text, tone(colors, { color: ACTION_COLOR[row.action] }), row.action.padEnd(7)),
            ` ${row.key}  `,
            h(Text, tone(colors, { dimColor: true }), formatDuration(now - row.startedAt)),
          ),
        ),
      ),
    ),
    hidden > 0 ? h(Text, tone(colors, { dimColor: true }), `  +${hidden} more running`) : null,
  );
}

/** The latest failures with the API's message; older ones stay in the log above. */
export function Failures(props: {
  failures: FailureRow[];
  hidden: number;
  colors: boolean;
}): React.ReactElement | null {
  const { failures, hidden, colors } = props;
  if (failures.length === 0) return null;
  return h(
    Box,
    { flexDirection: 'column' },
    h(Text, tone(colors, { color: 'red', bold: true }), `Failed (${failures.length + hidden})`),
    hidden > 0 ? h(Text, tone(colors, { dimColor: true }), `  +${hidden} earlier, listed above`) : null,
    failures.map((f, i) =>
      h(
        Text,
        { key: `${f.key}-${i}` },
        h(Text, tone(colors, { color: f.unknown ? 'yellow' : 'red' }), f.unknown ? '  ? ' : '  ✗ '),
        `${f.action} ${f.key}${f.unknown ? ' (outcome unknown: may have been applied)' : ''}: `,
        h(Text, tone(colors, { color: 'red' }), f.message),
      ),
    ),
  );
}
