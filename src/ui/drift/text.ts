/**
 * Drift as text for a terminal or a CI log: like the plan output, headed
 * "Drift", with fields shown as `live -> manifest`. Pure: returns lines.
 */
import { policyTextLines } from '../../policy/report.ts';
import type { Colors } from '../colors.ts';
import { defaultLegendText } from '../format-value.ts';
import { terminalLine } from '../terminal-text.ts';
import {
  changeLines,
  type DriftObject,
  type DriftReport,
  type DriftState,
  driftedObjects,
  reportNotes,
  STATE_LABEL,
  serverUrls,
  summarize,
} from './report.ts';

const SYMBOL: Record<DriftState, string> = { drifted: '~', missing: '+', 'to-delete': '-', 'in-sync': ' ' };

export function formatDriftText(report: DriftReport, colors: Colors): string[] {
  const paint: Record<DriftState, (s: string) => string> = {
    drifted: colors.yellow,
    missing: colors.green,
    'to-delete': colors.red,
    'in-sync': colors.dim,
  };
  const servers = serverUrls(report);
  const lines = [
    colors.bold(`Drift${servers.length > 0 ? ` against ${servers.join(', ')}` : ''} at ${report.generatedAt}`),
  ];
  const drifted = driftedObjects(report);
  if (drifted.length > 0) lines.push(colors.dim('Fields show the live value -> the value in the manifests.'));
  for (const object of drifted) lines.push(...formatObject(object, paint[object.state], colors));
  lines.push(...defaultLegendText(drifted, colors));
  if (report.unmanaged.length > 0) {
    lines.push('', colors.bold(`Unmanaged (${report.unmanaged.length}): live objects that no manifest mentions`));
    for (const u of report.unmanaged) {
      const mark = u.prunable ? colors.red(' (in an ownership scope: --prune deletes it)') : '';
      lines.push(`  ? ${terminalLine(u.key)}${mark}`);
    }
  }
  const notes = reportNotes(report);
  if (notes.length > 0)
    lines.push('', colors.bold('Not compared'), ...notes.map((n) => `  ${terminalLine(`${n.key}: ${n.note}`)}`));
  if (report.policies && report.policies.evaluated > 0) lines.push('', ...policyTextLines(report.policies));
  lines.push('', colors.bold(report.inSync ? colors.green(summarize(report)) : summarize(report)));
  return lines;
}

function formatObject(object: DriftObject, paint: (s: string) => string, colors: Colors): string[] {
  const what = object.action === 'replace' ? 'drifted (replacement needed)' : STATE_LABEL[object.state];
  // keys, reasons and values may be a live object's: made safe for the terminal (../terminal-text.ts)
  const reason = object.reason ? ` (${terminalLine(object.reason)})` : '';
  const head = `${paint(`${SYMBOL[object.state].padStart(3)} ${what} ${terminalLine(object.key)}`)}${reason}`;
  return [head, ...object.changes.flatMap((c) => changeLines(c, object.state, 80, colors)).map((l) => `        ${l}`)];
}
