/**
 * Drift as Markdown for a pull-request or issue comment (GitHub flavour): a
 * title, a table by kind, then one collapsible section per object that
 * differs, grouped by kind, and the unmanaged objects. Everything server- or
 * user-provided is escaped (src/ui/markdown.ts). A comment is limited to 65,536
 * characters and a wall of 500 sections helps nobody, so each kind shows its
 * first objects only and the caps shrink until the whole fits. Pure.
 */

import { policyMarkdown } from '../../policy/report.ts';
import { groupByKind } from '../../reconcile/group-by-kind.ts';
import { afterText, formatValue } from '../format-value.ts';
import { changesMarkdown } from '../line-diff.ts';
import { defaultLegendMarkdown, detailsList, escapeMarkdownHtml, fieldCell, fitToLimit, mdCode } from '../markdown.ts';
import {
  type DriftChange,
  type DriftCounts,
  type DriftObject,
  type DriftReport,
  differing,
  driftedObjects,
  type KindCounts,
  reportNotes,
  serverUrls,
  stateLabel,
} from './report.ts';

export interface MarkdownOptions {
  /** Upper bound of the result's length; default leaves room under GitHub's limit for a bot's own header. */
  maxChars?: number;
  /** Objects shown per kind before "and N more" (shrinks automatically to fit maxChars). */
  objectsPerKind?: number;
  /** Field rows per object before "and N more". */
  fieldsPerObject?: number;
  /** Unmanaged names listed per kind. */
  unmanagedPerKind?: number;
  /** Values longer than this are cut with an ellipsis. */
  valueChars?: number;
  /** Diff lines per multi-line value before "and N more". */
  diffLines?: number;
  /** Rows of the policy results' table, denials first, before "and N more". */
  policyRows?: number;
}

interface Caps {
  objects: number;
  fields: number;
  unmanaged: number;
  valueChars: number;
  diffLines: number;
  policyRows: number;
}

const DEFAULTS = {
  maxChars: 60_000,
  objectsPerKind: 50,
  fieldsPerObject: 30,
  unmanagedPerKind: 100,
  valueChars: 80,
  diffLines: 200,
  policyRows: 100,
};

export function formatDriftMarkdown(report: DriftReport, options: MarkdownOptions = {}): string {
  const o = { ...DEFAULTS, ...options };
  const first: Caps = {
    objects: o.objectsPerKind,
    fields: o.fieldsPerObject,
    unmanaged: o.unmanagedPerKind,
    valueChars: o.valueChars,
    diffLines: o.diffLines,
    policyRows: o.policyRows,
  };
  const steps: Caps[] = [first];
  for (const [objects, fields, unmanaged, diffLines, policyRows] of [
    [20, 20, 50, 40, 50],
    [10, 10, 20, 20, 20],
    [5, 5, 10, 10, 10],
    [1, 5, 5, 10, 5],
    [0, 0, 0, 0, 0],
  ] as const) {
    steps.push({
      objects: Math.min(objects, first.objects),
      fields: Math.min(fields, first.fields),
      unmanaged: Math.min(unmanaged, first.unmanaged),
      valueChars: Math.min(60, first.valueChars),
      diffLines: Math.min(diffLines, first.diffLines),
      policyRows: Math.min(policyRows, first.policyRows),
    });
  }
  // only a summary table of thousands of kinds is still too long at the last step: it is cut at a line end
  const note = '\n\n_The report was cut to fit; run `converge drift --format json` for all of it._\n';
  return fitToLimit(steps, (caps) => render(report, caps), o.maxChars, note);
}

function render(report: DriftReport, caps: Caps): string {
  const out: string[] = [];
  const c = report.counts;
  const differs = differing(c);
  const title = report.inSync
    ? `No drift: ${c.objects} object(s) match the manifests`
    : differs > 0
      ? `Drift: ${differs} of ${c.objects} object(s) differ from the manifests`
      : `Drift: ${c.unmanaged} unmanaged object(s)`;
  out.push(`## ${title}`, '');
  const servers = serverUrls(report);
  const unmanaged = c.unmanaged > 0 ? `; ${c.unmanaged} unmanaged` : '';
  out.push(
    `converge ${escapeMarkdownHtml(report.converge)} compared the manifests with ` +
      `${servers.length > 0 ? servers.map(mdCode).join(', ') : 'live state'} at ${escapeMarkdownHtml(report.generatedAt)}: ` +
      `${c.drifted} drifted, ${c.missing} missing, ${c.toDelete} to delete, ${c.inSync} in sync${unmanaged}.`,
    '',
  );
  if (report.kinds.length > 0) out.push(...kindTable(report.kinds, c), '');
  if (report.policies && report.policies.evaluated > 0)
    out.push(...policyMarkdown(report.policies, { rows: caps.policyRows }), '');

  const drifted = driftedObjects(report);
  if (drifted.length > 0) {
    out.push('Each section shows the live value and the value the manifests declare.', '');
    for (const [kind, objects] of groupByKind(drifted)) out.push(...kindSection(kind, objects, caps));
    out.push(...defaultLegendMarkdown(drifted));
  }
  if (report.unmanaged.length > 0) out.push(...unmanagedSection(report, caps));
  const notes = reportNotes(report);
  out.push(
    ...detailsList(
      `Not compared (${notes.length})`,
      notes,
      Math.max(caps.objects, 5),
      (n) => `${mdCode(n.key)}: ${escapeMarkdownHtml(n.note)}`,
    ),
  );
  return `${out.join('\n').trimEnd()}\n`;
}

function kindTable(kinds: readonly KindCounts[], total: DriftCounts): string[] {
  const row = (name: string, k: DriftCounts) =>
    `| ${name} | ${k.inSync} | ${k.drifted} | ${k.missing} | ${k.toDelete} | ${k.unmanaged} |`;
  const lines = ['| kind | in sync | drifted | missing | to delete | unmanaged |', '|---|--:|--:|--:|--:|--:|'];
  for (const k of kinds) lines.push(row(escapeMarkdownHtml(k.kind), k));
  if (kinds.length > 1) lines.push(row('**total**', total));
  return lines;
}

function kindSection(kind: string, objects: readonly DriftObject[], caps: Caps): string[] {
  const lines = [`### ${escapeMarkdownHtml(kind)} (${objects.length})`, ''];
  const shown = objects.slice(0, caps.objects);
  for (const object of shown) lines.push(...objectSection(object, caps));
  const rest = objects.length - shown.length;
  if (rest > 0) {
    lines.push(
      `_${shown.length > 0 ? 'and ' : ''}${rest} ${shown.length > 0 ? 'more ' : ''}${escapeMarkdownHtml(kind)} object(s) ` +
        'not shown here; run `converge drift --format json` for every field._',
      '',
    );
  }
  return lines;
}

function objectSection(object: DriftObject, caps: Caps): string[] {
  const what = stateLabel(object);
  const fields = object.changes.length > 0 ? `, ${object.changes.length} field(s)` : '';
  const reason = object.reason ? ` (${escapeMarkdownHtml(object.reason)})` : '';
  const lines = [`<details><summary>${mdCode(object.key)}: ${what}${fields}${reason}</summary>`, ''];
  const row = (change: DriftChange) => fieldRow(change, object, caps.valueChars);
  lines.push(
    ...changesMarkdown(object.changes, caps, { planned: 'desired', created: object.state === 'missing', row }),
  );
  if (object.changes.length === 0) {
    lines.push(object.state === 'to-delete' ? 'The live object would be deleted.' : 'No field details.', '');
  }
  lines.push('</details>', '');
  return lines;
}

function fieldRow(change: DriftChange, object: DriftObject, max: number): string {
  const field = fieldCell(change);
  if (change.secret) {
    const note = change.note ? ` ${escapeMarkdownHtml(change.note)}` : '';
    return `| ${field} | _(sensitive)_ | _(sensitive)_${note} |`;
  }
  const live =
    object.state === 'missing' ? '_(absent)_' : change.before === undefined ? '_(unset)_' : value(change.before, max);
  // no value with a note: what the manifest asks for in words (`a new one, made by the service`), as the text says it
  const desired =
    change.after === undefined && change.note === undefined
      ? '_(unset)_'
      : mdCode(afterText(change.after, change.note, max));
  return `| ${field} | ${live} | ${desired} |`;
}

function value(v: DriftChange['before'], max: number): string {
  return mdCode(formatValue(v, max));
}

function unmanagedSection(report: DriftReport, caps: Caps): string[] {
  const lines = [
    `<details><summary>Unmanaged: ${report.unmanaged.length} live object(s) that no manifest mentions</summary>`,
    '',
  ];
  const prunable = report.unmanaged.filter((u) => u.prunable).length;
  if (prunable > 0) {
    const which = prunable === 1 ? 'One of them is' : `${prunable} of them are`;
    lines.push(`${which} inside an ownership scope: \`--prune\` would delete ${prunable === 1 ? 'it' : 'them'}.`, '');
  }
  for (const [kind, objects] of groupByKind(report.unmanaged)) {
    const shown = objects.slice(0, caps.unmanaged);
    const names = shown.map((u) => mdCode(u.key.slice(u.kind.length + 1) || u.key) + (u.prunable ? ' (prunable)' : ''));
    const rest = objects.length - shown.length;
    if (rest > 0) names.push(`and ${rest} more`);
    lines.push(`- **${escapeMarkdownHtml(kind)}** (${objects.length}): ${names.join(', ')}`);
  }
  lines.push('', '</details>', '');
  return lines;
}
