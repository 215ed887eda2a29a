/**
 * A multi-line value (an LDIF template, a certificate, a policy) as a
 * unified line diff in a fenced `diff` block, so a reviewer sees which lines
 * change instead of two cut-off one-liners. Pure.
 */
import { structuredPatch } from 'diff';

/** A string with a line end in it, shown as lines rather than as one quoted value. */
export function isMultiLine(value: unknown): value is string {
  return typeof value === 'string' && value.includes('\n');
}

/**
 * The diff of two values as Markdown lines: hunks with three lines of context,
 * at most `maxLines` diff lines, then how many more there are. A value that is
 * absent diffs as empty (a create shows every line added).
 */
export function lineDiff(before: string | undefined, after: string | undefined, maxLines: number): string[] {
  const patch = structuredPatch('live', 'planned', withEnd(before), withEnd(after), undefined, undefined, {
    context: 3,
  });
  const body: string[] = [];
  for (const hunk of patch.hunks) {
    body.push(`@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`);
    // "\ No newline at end of file" says nothing about a field's value
    body.push(...hunk.lines.filter((line) => !line.startsWith('\\')).map(plainLine));
  }
  const shown = body.slice(0, maxLines);
  const fence = fenceFor(shown);
  const lines = [`${fence}diff`, ...shown, fence];
  if (body.length > shown.length) lines.push(`_and ${body.length - shown.length} more diff line(s)_`);
  return lines;
}

function withEnd(value: string | undefined): string {
  if (value === undefined || value === '') return '';
  return value.endsWith('\n') ? value : `${value}\n`;
}

/** A line of a code block shows as typed; only control characters, which would garble it, become spaces. */
function plainLine(line: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this removes
  return line.replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, ' ');
}

/** A backtick fence longer than any run of backticks in the block, so no line can close it. */
function fenceFor(lines: readonly string[]): string {
  const longest = Math.max(0, ...lines.flatMap((line) => (line.match(/`+/g) ?? []).map((run) => run.length)));
  return '`'.repeat(Math.max(3, longest + 1));
}
