/**
 * The drift report formats, chosen in one place. Each is a pure function of
 * the report model (report.ts), which holds no secret values.
 */
import type { Colors } from '../colors.ts';
import { formatDriftJson } from './json.ts';
import { formatDriftJunit } from './junit.ts';
import { formatDriftMarkdown } from './markdown.ts';
import type { DriftReport } from './report.ts';
import { formatDriftText } from './text.ts';

export const DRIFT_FORMATS = ['text', 'json', 'markdown', 'junit'] as const;
export type DriftFormat = (typeof DRIFT_FORMATS)[number];

/** The whole report as one string ending in a newline. */
export function renderDrift(format: DriftFormat, report: DriftReport, colors: Colors): string {
  switch (format) {
    case 'json':
      return formatDriftJson(report);
    case 'markdown':
      return formatDriftMarkdown(report);
    case 'junit':
      return formatDriftJunit(report);
    case 'text':
      return `${formatDriftText(report, colors).join('\n')}\n`;
  }
}

export { buildDriftReport, type DriftMeta, type DriftReport, displayUrl, summarize } from './report.ts';
