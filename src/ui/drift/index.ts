/**
 * The drift report formats, chosen in one place. Each is a pure function of
 * the report model (report.ts), which holds no secret values.
 */
import type { Colors } from '../colors.ts';
import type { DriftFormat } from './formats.ts';
import { formatDriftJson } from './json.ts';
import { formatDriftJunit } from './junit.ts';
import { formatDriftMarkdown } from './markdown.ts';
import type { DriftReport } from './report.ts';
import { formatDriftText } from './text.ts';

const RENDERERS: Record<DriftFormat, (report: DriftReport, colors: Colors) => string> = {
  text: (report, colors) => `${formatDriftText(report, colors).join('\n')}\n`,
  json: formatDriftJson,
  markdown: (report) => formatDriftMarkdown(report),
  junit: formatDriftJunit,
};

/** The whole report as one string ending in a newline. */
export function renderDrift(format: DriftFormat, report: DriftReport, colors: Colors): string {
  return RENDERERS[format](report, colors);
}

export { DRIFT_FORMATS, type DriftFormat } from './formats.ts';
export { buildDriftReport, type DriftMeta, type DriftReport, displayUrl, summarize } from './report.ts';
