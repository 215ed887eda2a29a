/**
 * A plan as text for people: a summary line, one block per change with its
 * fields, the unmanaged objects, and notes. Pure: returns lines.
 */
import { formatPosition } from '../errors.ts';
import type { Action, Plan, PlannedAction } from '../reconcile/types.ts';
import type { Colors } from './colors.ts';
import { defaultLegendText, formatChange } from './format-value.ts';
import { changeTextLines } from './line-diff.ts';
import { terminalLine } from './terminal-text.ts';

const SYMBOL: Record<Action, string> = { create: '+', update: '~', replace: '-/+', delete: '-', noop: ' ' };

/** `1 to create, 0 to update, ... 25 unchanged`: the plan in one line (text and Markdown). */
export function planSummary(plan: Plan): string {
  const c = plan.counts;
  return (
    `${c.create ?? 0} to create, ${c.update ?? 0} to update, ${c.replace ?? 0} to replace, ` +
    `${c.delete ?? 0} to delete, ${c.noop ?? 0} unchanged`
  );
}

export function formatPlan(plan: Plan, colors: Colors): string[] {
  const paint: Record<Action, (s: string) => string> = {
    create: colors.green,
    update: colors.yellow,
    replace: colors.magenta,
    delete: colors.red,
    noop: colors.dim,
  };
  const lines: string[] = [];
  const changes = plan.actions.filter((a) => a.action !== 'noop');
  if (changes.length === 0) lines.push(colors.green('No changes: live state matches the manifests.'));
  for (const action of changes) lines.push(...formatAction(action, paint[action.action], colors));
  lines.push(...defaultLegendText(changes, colors));
  if (plan.unmanaged.length > 0) {
    lines.push('', colors.bold(`Unmanaged (${plan.unmanaged.length}): live objects that no manifest mentions`));
    for (const u of plan.unmanaged) {
      const mark = u.prunable ? colors.red(' (in an ownership scope: --prune deletes it)') : '';
      lines.push(`  ? ${terminalLine(u.key)}${mark}`);
    }
  }
  const notes = plan.actions.flatMap((a) => (a.notes ?? []).map((n) => terminalLine(`${a.key}: ${n}`)));
  if (notes.length > 0) lines.push('', colors.bold('Notes'), ...notes.map((n) => `  ${n}`));
  lines.push('', colors.bold(`Plan: ${planSummary(plan)}.`));
  return lines;
}

function formatAction(action: PlannedAction, paint: (s: string) => string, colors: Colors): string[] {
  // keys, reasons and values may be a live object's: made safe for the terminal (./terminal-text.ts)
  const reason = action.reason ? ` (${terminalLine(action.reason)})` : '';
  const head = paint(`${SYMBOL[action.action].padStart(3)} ${action.action} ${terminalLine(action.key)}`) + reason;
  const how = action.action === 'create' ? 'create' : 'other';
  // a source is there only when asked for (`plan --show-sources`)
  const body = action.changes.flatMap((c) => {
    // a create shows its value's lines as added
    const [first = '', ...rest] = changeTextLines(c, {
      created: how === 'create',
      line: (change) => formatChange(change, how),
      colors,
    });
    const from = c.source ? `  (set at ${formatPosition(c.source)})` : '';
    return [first + terminalLine(from), ...rest];
  });
  return [head, ...body.map((line) => `        ${line}`)];
}
