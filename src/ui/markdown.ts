/**
 * The pieces every Markdown report shares (the plan's and the drift report's
 * comment, the policy section): escaping of user and server text, the
 * comment-size limit and the level-by-level shortening that keeps a report
 * under it, collapsible lists, a field's name cell and the `(default)` legend. Pure but for the
 * redactor's registered secrets, masked in text before it is escaped.
 */

import { redact } from '../api/redact.ts';
import { changeMarks, DEFAULT_LEGEND, hasDefaults, type ObjectsWithChanges } from './format-value.ts';

/** GitHub's limit on a comment body. */
export const GITHUB_COMMENT_LIMIT = 65_536;

/**
 * Characters that stay as they are inside Markdown-embedded HTML text. Every
 * other ASCII character becomes a numeric entity, which Markdown treats as
 * literal text: `|` cannot split a table cell, a backtick cannot open a code
 * span, `<` cannot open a tag, `*`, `_`, `[`, `$` and `\` cannot format.
 */
const MD_SAFE = /[A-Za-z0-9 .,:/=@+\-"'(){}%?;#]/;

export function escapeMarkdownHtml(text: string): string {
  let out = '';
  // masked before it is escaped: escaped, a secret (`p&ss_w!`) no longer matches the redactor's
  // forms of it, and the report's last pass through the redactor would miss it (docs/security.md)
  for (const ch of redact(text)) {
    const code = ch.codePointAt(0) ?? 0;
    if (code < 0x20 || code === 0x7f) out += ' ';
    else if (code < 0x80 && !MD_SAFE.test(ch)) out += `&#${code};`;
    else out += ch;
  }
  return out;
}

/** A value in a Markdown table cell or a `<summary>`: literal, one line. */
export function mdCode(text: string): string {
  return `<code>${escapeMarkdownHtml(text)}</code>`;
}

/**
 * The first rendering, level by level (less detail each), that fits in `max`
 * characters; when even the last does not, it is cut at a line end and
 * `note` (which says so) appended.
 */
export function fitToLimit<Level>(
  levels: readonly Level[],
  render: (level: Level, index: number) => string,
  max: number,
  note: string,
): string {
  let text = '';
  for (const [index, level] of levels.entries()) {
    text = render(level, index);
    if (text.length <= max) return text;
  }
  const cut = text.lastIndexOf('\n', max - note.length);
  return text.slice(0, Math.max(0, cut)) + note;
}

/**
 * A collapsible bullet list: its first `cap` items (each as `line` writes
 * it), then how many more there are; nothing for no items.
 */
export function detailsList<Item>(
  summary: string,
  items: readonly Item[],
  cap: number,
  line: (item: Item) => string,
): string[] {
  if (items.length === 0) return [];
  const shown = items.slice(0, cap);
  const lines = [`<details><summary>${summary}</summary>`, ''];
  for (const item of shown) lines.push(`- ${line(item)}`);
  if (items.length > shown.length) lines.push(`- and ${items.length - shown.length} more`);
  lines.push('', '</details>', '');
  return lines;
}

/** A field change's name cell: its path, whether changing it replaces the object, whether its value is a default. */
export function fieldCell(change: { path: string; replace?: boolean; default?: boolean }): string {
  return mdCode(change.path) + changeMarks(change);
}

/** The Markdown reports' legend under their objects' changes (plan, drift): emphasised, when used. */
export function defaultLegendMarkdown(objects: ObjectsWithChanges): string[] {
  return hasDefaults(objects) ? [`_${escapeMarkdownHtml(DEFAULT_LEGEND)}_`, ''] : [];
}
