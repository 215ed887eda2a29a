/**
 * The apply view: the static log of finished actions on top, then the live
 * region (in-flight rows by kind, recent failures, status line), which turns
 * into the final summary when the apply is done.
 */
import { Box } from 'ink';
import React, { useSyncExternalStore } from 'react';
import { Failures, InFlight, StaticLog } from './rows.ts';
import { FinalSummary, StatusLine } from './status.ts';
import type { ApplyViewStore, ViewSnapshot } from './store.ts';

const h = React.createElement;

/** Pure: renders one snapshot. */
export function ApplyView(props: { view: ViewSnapshot; colors: boolean }): React.ReactElement {
  const { view, colors } = props;
  if (view.phase === 'waiting') return h(Box, null);
  const live =
    view.phase === 'done' && view.summary
      ? [h(FinalSummary, { key: 'summary', summary: view.summary, colors })]
      : [
          h(InFlight, { key: 'inflight', groups: view.groups, hidden: view.hiddenRunning, now: view.now, colors }),
          h(Failures, { key: 'failures', failures: view.failures, hidden: view.hiddenFailures, colors }),
          h(StatusLine, { key: 'status', view, colors }),
        ];
  return h(Box, { flexDirection: 'column' }, h(StaticLog, { items: view.staticItems, colors }), ...live);
}

/** Subscribes to the store; re-renders only when the store publishes (throttled there). */
export function LiveApplyView(props: { store: ApplyViewStore; colors: boolean }): React.ReactElement {
  const view = useSyncExternalStore(props.store.subscribe, props.store.getSnapshot);
  return h(ApplyView, { view, colors: props.colors });
}
