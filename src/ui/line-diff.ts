/**
 * A multi-line value (an LDIF template, a PEM certificate, a policy) as a
 * unified line diff, for every report that shows values to people: the plan
 * and the drift report as text and as Markdown, and the drift report's JUnit
 * bodies. A changed template line is one `-`/`+` pair under an `@@` hunk
 * header, with a few lines of context, instead of two cut-off one-liners.
 * The JSON documents keep the values as they are. Pure.
 *
 * A value's lines are someone else's text (a live object's): every control
 * character in them is shown as ./terminal-text.ts shows it, in Markdown too,
 * so a diff can neither run an escape sequence nor hide a carriage return.
 */
import { formatPatch, OMIT_HEADERS, type StructuredPatchHunk, structuredPatch } from 'diff';
import type { Json } from '../reconcile/types.ts';
import type { Colors } from './colors.ts';
import { changeMarks } from './format-value.ts';
import { escapeMarkdownHtml, fieldCell } from './markdown.ts';
import { terminalLine } from './terminal-text.ts';

/** Lines of unchanged context around each change: enough to place it, few enough to see it. */
const CONTEXT = 3;

/** Diff lines a text report shows per field before saying how many more there are. */
const TEXT_DIFF_LINES = 200;

/**
 * The most added and removed lines the diff aligns. Its work grows with the
 * square of that number: two unrelated values of 2,000 lines took seconds,
 * of 10,000 lines over a minute. Past it, a value is shown whole (every live
 * line removed, every planned one added): a report shows no more diff lines
 * than this of a field anyway.
 */
const MAX_EDITS = TEXT_DIFF_LINES;

type DiffLineKind = 'hunk' | 'add' | 'remove' | 'context' | 'marker';

export interface LineDiff {
  /** Lines only the planned (desired) value has, and lines only the live value has. */
  added: number;
  removed: number;
  /** A change of line-end style, which the lines themselves do not show: `CRLF -> LF`. */
  lineEnds?: string;
  /** Too many changes to align (MAX_EDITS): every live line is removed and every planned one added. */
  whole?: true;
  /** The diff, control characters shown, at most as many lines as asked for. */
  lines: Array<{ kind: DiffLineKind; text: string }>;
  /** Diff lines left out. */
  more: number;
}

/** A string with a line end in it, shown as lines rather than as one quoted value. */
function isMultiLine(value: unknown): value is string {
  return typeof value === 'string' && value.includes('\n');
}

/**
 * A change shown as a line diff: not a secret (which has no values to show),
 * text with a line end on either side, and not a value the service will make.
 */
export function showsAsLines(change: { secret?: boolean; before?: Json; after?: Json; note?: string }): boolean {
  if (change.secret) return false;
  if (change.after === undefined && change.note !== undefined) return false;
  return isMultiLine(change.before) || isMultiLine(change.after);
}

/**
 * The diff of a live value and a planned one, at most `maxLines` diff lines.
 * An absent value diffs as empty: a create shows every line added. So does a
 * null one, the APIs' unset field (a SAML certificate set for the first time
 * is its lines added, not a line `null` removed). Any other value that is not
 * a string diffs as its JSON.
 */
export function lineDiff(before: Json | undefined, after: Json | undefined, maxLines: number): LineDiff {
  let live = asText(before);
  let planned = asText(after);
  const styles = [lineEndStyle(live), lineEndStyle(planned)] as const;
  // uniform line ends are compared as lines, and a change of style said once rather than on every line;
  // with mixed ones on a side, each line keeps its carriage return, shown as ␍
  if (!styles.includes('mixed')) {
    live = live.replaceAll('\r\n', '\n');
    planned = planned.replaceAll('\r\n', '\n');
  }
  // a missing final line end is news only when the other value has one ("\ No newline at end of file");
  // otherwise both get one, so that a line added after the last one leaves that line unchanged
  if (before === undefined || after === undefined || live.endsWith('\n') === planned.endsWith('\n')) {
    live = withFinalEnd(live);
    planned = withFinalEnd(planned);
  }
  const options = { context: CONTEXT, maxEditLength: MAX_EDITS };
  const aligned = structuredPatch('live', 'planned', live, planned, undefined, undefined, options);
  const patch = aligned ?? {
    oldFileName: 'live',
    newFileName: 'planned',
    oldHeader: undefined,
    newHeader: undefined,
    hunks: [wholeHunk(live, planned)],
  };
  const all = patch.hunks.length === 0 ? [] : formatPatch(patch, OMIT_HEADERS).split('\n').slice(0, -1);
  const shown = all.slice(0, Math.max(0, maxLines));
  const lineEnds = lineEndChange(styles, before !== undefined, after !== undefined);
  return {
    added: all.filter((line) => line.startsWith('+')).length,
    removed: all.filter((line) => line.startsWith('-')).length,
    ...(lineEnds && { lineEnds }),
    ...(aligned === undefined && { whole: true }),
    lines: shown.map((line) => ({ kind: kindOf(line), text: terminalLine(line) })),
    more: all.length - shown.length,
  };
}

/** `1 line added, 1 removed`, `12 lines added`, `line ends CRLF -> LF`: what changed, in a few words. */
export function diffSummary(diff: LineDiff): string {
  const lines = (n: number) => `${n} line${n === 1 ? '' : 's'}`;
  const counts =
    diff.added > 0 && diff.removed > 0
      ? `${lines(diff.added)} added, ${diff.removed} removed`
      : diff.added > 0
        ? `${lines(diff.added)} added`
        : diff.removed > 0
          ? `${lines(diff.removed)} removed`
          : '';
  const ends = diff.lineEnds ? `line ends ${diff.lineEnds}` : '';
  const whole = diff.whole ? 'too many changes to align: shown whole' : '';
  return [counts, ends, whole].filter((part) => part !== '').join('; ') || 'no line differs';
}

/**
 * A field's change as text lines: `path: 1 line added, 1 removed` and the
 * diff under it, two spaces in, `+`/`-` coloured when `colors` colour.
 */
export function changeDiffText(
  change: { path: string; replace?: boolean; default?: boolean },
  diff: LineDiff,
  colors: Colors,
): string[] {
  const paint: Record<DiffLineKind, (s: string) => string> = {
    hunk: colors.cyan,
    add: colors.green,
    remove: colors.red,
    context: (s) => s,
    marker: colors.dim,
  };
  const lines = [terminalLine(`${change.path}: ${diffSummary(diff)}${changeMarks(change)}`)];
  for (const line of diff.lines) lines.push(`  ${paint[line.kind](line.text)}`);
  if (diff.more > 0) lines.push(`  ${colors.dim(`… and ${diff.more} more diff line(s)`)}`);
  return lines;
}

/** A field change as the reports have it: a secret's values are never shown. */
interface ShownChange {
  path: string;
  secret?: boolean;
  before?: Json;
  after?: Json;
  replace?: boolean;
  default?: boolean;
  note?: string;
}

/**
 * A field's change as text lines (the text plan, the drift report as text
 * and in JUnit bodies): one line as `line` writes it, control characters
 * shown, or a multi-line value's line diff (`changeDiffText`). A created
 * object's value diffs from nothing.
 */
export function changeTextLines<Change extends ShownChange>(
  change: Change,
  options: { created: boolean; line: (change: Change) => string; colors: Colors },
): string[] {
  if (!showsAsLines(change)) return [terminalLine(options.line(change))];
  const diff = lineDiff(options.created ? undefined : change.before, change.after, TEXT_DIFF_LINES);
  return changeDiffText(change, diff, options.colors);
}

/**
 * An object's field changes in a Markdown report (the plan's and the drift
 * report's sections), its first `fields` of them: a `field | live | planned`
 * table of the one-line values (each row as `row` writes it), then each
 * multi-line value's line diff, then how many fields are left out. A created
 * object's values diff from nothing.
 */
export function changesMarkdown<Change extends ShownChange>(
  changes: readonly Change[],
  limits: { fields: number; diffLines: number },
  options: { planned: string; created: boolean; row: (change: Change) => string },
): string[] {
  const lines: string[] = [];
  const shown = changes.slice(0, limits.fields);
  const oneLine = shown.filter((change) => !showsAsLines(change));
  if (oneLine.length > 0) {
    lines.push(`| field | live | ${options.planned} |`, '|---|---|---|', ...oneLine.map(options.row), '');
  }
  for (const change of shown.filter(showsAsLines)) {
    const diff = lineDiff(options.created ? undefined : change.before, change.after, limits.diffLines);
    lines.push(...changeDiffMarkdown(change, diff));
  }
  const rest = changes.length - shown.length;
  if (rest > 0) lines.push(`_and ${rest} more field(s)_`, '');
  return lines;
}

/**
 * A field's change as Markdown: its name cell and what changed, then the
 * diff in a fenced `diff` block, which GitHub colours; blank lines around
 * it, so that it renders inside `<details>`.
 */
export function changeDiffMarkdown(
  change: { path: string; replace?: boolean; default?: boolean },
  diff: LineDiff,
): string[] {
  const lines = [`${fieldCell(change)}: ${escapeMarkdownHtml(diffSummary(diff))}`, ''];
  if (diff.lines.length > 0) {
    const texts = diff.lines.map((line) => line.text);
    const fence = fenceFor(texts);
    lines.push(`${fence}diff`, ...texts, fence, '');
  }
  if (diff.more > 0) lines.push(`_and ${diff.more} more diff line(s)_`, '');
  return lines;
}

/** Every line of one value removed and every line of the other added, as one hunk. */
function wholeHunk(live: string, planned: string): StructuredPatchHunk {
  const side = (text: string, sign: '-' | '+') => {
    if (text === '') return [];
    const lines = text.split('\n');
    const ended = lines.at(-1) === '';
    if (ended) lines.pop();
    return [...lines.map((line) => `${sign}${line}`), ...(ended ? [] : ['\\ No newline at end of file'])];
  };
  const removed = side(live, '-');
  const added = side(planned, '+');
  const count = (lines: string[]) => lines.filter((line) => !line.startsWith('\\')).length;
  return { oldStart: 1, oldLines: count(removed), newStart: 1, newLines: count(added), lines: [...removed, ...added] };
}

function withFinalEnd(text: string): string {
  return text === '' || text.endsWith('\n') ? text : `${text}\n`;
}

function asText(value: Json | undefined): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

type LineEndStyle = 'none' | 'LF' | 'CRLF' | 'mixed';

function lineEndStyle(text: string): LineEndStyle {
  const crlf = text.split('\r\n').length - 1;
  const lf = text.split('\n').length - 1 - crlf;
  if (crlf > 0) return lf > 0 ? 'mixed' : 'CRLF';
  return lf > 0 ? 'LF' : 'none';
}

/**
 * How the line-end style changes, when it matters and the diff lines do not
 * show it: uniform styles are compared without their carriage returns, so a
 * CRLF on either side is said here. LF is the style nobody needs told.
 */
function lineEndChange(
  styles: readonly [LineEndStyle, LineEndStyle],
  hasLive: boolean,
  hasPlanned: boolean,
): string | undefined {
  const [live, planned] = styles;
  if (styles.includes('mixed') || !styles.includes('CRLF') || live === planned) return undefined;
  return hasLive && hasPlanned ? `${live} -> ${planned}` : 'CRLF';
}

function kindOf(line: string): DiffLineKind {
  if (line.startsWith('@@')) return 'hunk';
  if (line.startsWith('+')) return 'add';
  if (line.startsWith('-')) return 'remove';
  return line.startsWith('\\') ? 'marker' : 'context';
}

/** A backtick fence longer than any run of backticks in the block, so no line can close it. */
function fenceFor(lines: readonly string[]): string {
  const longest = Math.max(0, ...lines.flatMap((line) => (line.match(/`+/g) ?? []).map((run) => run.length)));
  return '`'.repeat(Math.max(3, longest + 1));
}
