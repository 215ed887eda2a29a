/**
 * A plan as Markdown for a pull-request comment (GitHub flavour): a title
 * that says it is a plan, counts by action, the destructive actions first and
 * marked, one collapsible section per changed object with its field changes,
 * then any sections the caller adds (policy results), the notes and the
 * unmanaged objects. Secrets show as markers (the plan holds no values), and
 * multi-line values as line diffs. Everything server- or user-provided is
 * escaped as in the drift report (src/ui/markdown.ts).
 *
 * A comment holds at most 65,536 characters: past that the plan is told in
 * less detail, level by level, and the comment says that it was shortened and
 * where the whole plan is. Pure.
 */
import type { Action, FieldChange, Plan, PlannedAction } from '../../reconcile/types.ts';
import { planSummary } from '../format-plan.ts';
import { afterText, formatValue } from '../format-value.ts';
import { changesMarkdown } from '../line-diff.ts';
import {
  defaultLegendMarkdown,
  detailsList,
  escapeMarkdownHtml,
  fieldCell,
  fitToLimit,
  GITHUB_COMMENT_LIMIT,
  mdCode,
} from '../markdown.ts';

export interface PlanMarkdownOptions {
  /** Upper bound of the result's length; the default leaves room under GitHub's limit for a bot's own header. */
  maxChars?: number;
  /**
   * Sections shown after the changes and before the notes, in this order (the
   * policy results: src/policy/report.ts, policyMarkdown): Markdown lines with
   * their own `###` heading, as is; the caller escapes what it did not write itself.
   * A section that may be long is a function of the rows it may list, which shrink
   * with the plan's detail: 400 policy warnings must not crowd out the changes.
   */
  sections?: readonly Section[];
}

export type Section = readonly string[] | ((rows: number) => readonly string[]);

/** How much of the plan a rendering shows; the first that fits is used. */
interface Detail {
  /** Objects with a collapsible section of their fields; the others get one line each. */
  detailed: number;
  fields: number;
  diffLines: number;
  valueChars: number;
  /** Objects named one per line past the detailed ones; the rest are only counted. */
  listed: number;
  notes: number;
  unmanaged: number;
  /** Rows of a section that may be long (the policy results' table). */
  rows: number;
}

const LEVELS: readonly Detail[] = [
  { detailed: 500, fields: 50, diffLines: 200, valueChars: 120, listed: 2000, notes: 200, unmanaged: 500, rows: 200 },
  { detailed: 100, fields: 20, diffLines: 40, valueChars: 80, listed: 1000, notes: 50, unmanaged: 100, rows: 50 },
  { detailed: 20, fields: 5, diffLines: 10, valueChars: 60, listed: 500, notes: 20, unmanaged: 20, rows: 20 },
  { detailed: 0, fields: 0, diffLines: 0, valueChars: 0, listed: 200, notes: 5, unmanaged: 5, rows: 5 },
  { detailed: 0, fields: 0, diffLines: 0, valueChars: 0, listed: 0, notes: 0, unmanaged: 0, rows: 0 },
];

/** Deletes and replacements lose live state: they come first, marked. */
const ORDER: readonly Action[] = ['delete', 'replace', 'create', 'update'];
const DESTRUCTIVE: ReadonlySet<Action> = new Set(['delete', 'replace']);
const LABEL: Record<Action, string> = {
  create: 'create',
  update: 'update',
  replace: 'replace',
  delete: 'delete',
  noop: 'unchanged',
};

export function formatPlanMarkdown(plan: Plan, options: PlanMarkdownOptions = {}): string {
  const maxChars = options.maxChars ?? GITHUB_COMMENT_LIMIT - 5_536;
  const sections = options.sections ?? [];
  // only thousands of extra lines or unmanaged kinds are still too long at the last level: cut at a line end, and say so
  const note = `\n\n${SHORTENED} It was cut here.\n`;
  return fitToLimit(LEVELS, (detail, index) => render(plan, sections, detail, index > 0), maxChars, note);
}

const SHORTENED =
  "_This plan was shortened to fit GitHub's comment limit (65,536 characters): " +
  'run `converge plan --format json`, or open the saved plan, for every object and field._';

function render(plan: Plan, sections: readonly Section[], detail: Detail, shortened: boolean): string {
  const changes = ORDER.flatMap((action) => plan.actions.filter((a) => a.action === action));
  const destructive = changes.filter((a) => DESTRUCTIVE.has(a.action));
  const out = [`## Plan: ${planSummary(plan)}`, ''];
  if (shortened) out.push(SHORTENED, '');
  if (changes.length === 0) out.push('No changes: live state matches the manifests.', '');
  else out.push(...countTable(plan), '');
  if (destructive.length > 0) {
    out.push(
      `**Destructive: ${destructive.length} action(s) delete or replace a live object** ` +
        '(listed first; what is deleted cannot be read back).',
      '',
    );
  }
  out.push(...changeSections(changes, detail));
  out.push(...defaultLegendMarkdown(changes));
  for (const section of sections) out.push(...(typeof section === 'function' ? section(detail.rows) : section), '');
  out.push(...notesSection(plan, detail), ...unmanagedSection(plan, detail));
  return `${out.join('\n').trimEnd()}\n`;
}

function countTable(plan: Plan): string[] {
  const lines = ['| action | objects |', '|---|--:|'];
  for (const action of [...ORDER, 'noop'] as const) {
    const n = plan.counts[action] ?? 0;
    if (n > 0)
      lines.push(`| ${DESTRUCTIVE.has(action) ? `**${LABEL[action]}** (destructive)` : LABEL[action]} | ${n} |`);
  }
  return lines;
}

function changeSections(changes: readonly PlannedAction[], detail: Detail): string[] {
  const lines: string[] = [];
  const detailed = changes.slice(0, detail.detailed);
  const listed = changes.slice(detailed.length, detailed.length + detail.listed);
  for (const action of detailed) lines.push(...objectSection(action, detail));
  if (listed.length > 0) {
    if (detailed.length > 0) lines.push('Without their fields:', '');
    for (const action of listed) lines.push(`- ${headline(action)}`);
    lines.push('');
  }
  const rest = changes.length - detailed.length - listed.length;
  if (rest > 0) lines.push(`_and ${rest} more change(s) not listed here._`, '');
  return lines;
}

function headline(action: PlannedAction): string {
  const mark = DESTRUCTIVE.has(action.action) ? ' (destructive)' : '';
  const reason = action.reason ? ` (${escapeMarkdownHtml(action.reason)})` : '';
  const fields = action.changes.length > 0 ? `, ${action.changes.length} field(s)` : '';
  return `<b>${action.action}</b>${mark} ${mdCode(action.key)}${fields}${reason}`;
}

function objectSection(action: PlannedAction, detail: Detail): string[] {
  const lines = [`<details><summary>${headline(action)}</summary>`, ''];
  if (action.unrestorable) {
    lines.push(`**Not restorable if the create fails:** ${escapeMarkdownHtml(action.unrestorable)}`, '');
  }
  const row = (change: FieldChange) => fieldRow(change, action.action, detail.valueChars);
  lines.push(
    ...changesMarkdown(action.changes, detail, { planned: 'planned', created: action.action === 'create', row }),
  );
  if (action.changes.length === 0) {
    lines.push(action.action === 'delete' ? 'The live object is deleted.' : 'No field details.', '');
  }
  lines.push('</details>', '');
  return lines;
}

/** A secret is a marker and the reason it is sent, as in the text plan (src/ui/format-value.ts). */
function fieldRow(change: FieldChange, action: Action, max: number): string {
  const live =
    action === 'create' ? '_(absent)_' : change.secret ? '_(secret)_' : mdCode(formatValue(change.before, max));
  const planned = change.secret
    ? `_(secret)_ ${escapeMarkdownHtml(change.note ?? 'changed')}`
    : mdCode(afterText(change.after, change.note, max));
  return `| ${fieldCell(change)} | ${live} | ${planned} |`;
}

function notesSection(plan: Plan, detail: Detail): string[] {
  const notes = plan.actions.flatMap((a) => (a.notes ?? []).map((note) => ({ key: a.key, note })));
  return detailsList(
    `Notes (${notes.length})`,
    notes,
    detail.notes,
    (n) => `${mdCode(n.key)}: ${escapeMarkdownHtml(n.note)}`,
  );
}

function unmanagedSection(plan: Plan, detail: Detail): string[] {
  return detailsList(
    `Unmanaged (${plan.unmanaged.length}): live objects that no manifest mentions`,
    plan.unmanaged,
    detail.unmanaged,
    (u) => `${mdCode(u.key)}${u.prunable ? ' (in an ownership scope: `--prune` deletes it)' : ''}`,
  );
}
