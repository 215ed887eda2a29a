/**
 * Escaping for the report formats that embed user and server text: HTML
 * inside Markdown, and XML. Pure.
 */

/**
 * Characters that stay as they are inside Markdown-embedded HTML text. Every
 * other ASCII character becomes a numeric entity, which Markdown treats as
 * literal text: `|` cannot split a table cell, a backtick cannot open a code
 * span, `<` cannot open a tag, `*`, `_`, `[`, `$` and `\` cannot format.
 */
const MD_SAFE = /[A-Za-z0-9 .,:/=@+\-"'(){}%?;#]/;

export function escapeMarkdownHtml(text: string): string {
  let out = '';
  for (const ch of text) {
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

/** Text and attribute values in XML 1.0: the five entities, and no characters XML forbids. */
export function escapeXml(text: string): string {
  let out = '';
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    if (ch === '&') out += '&amp;';
    else if (ch === '<') out += '&lt;';
    else if (ch === '>') out += '&gt;';
    else if (ch === '"') out += '&quot;';
    else if (ch === "'") out += '&apos;';
    else out += allowedInXml(code) ? ch : '\uFFFD';
  }
  return out;
}

/** XML 1.0 Char: tab, newline, carriage return, and the rest minus surrogates and U+FFFE/U+FFFF. */
function allowedInXml(code: number): boolean {
  if (code < 0x20) return code === 0x09 || code === 0x0a || code === 0x0d;
  if (code >= 0xd800 && code <= 0xdfff) return false; // a lone surrogate (pairs arrive as one code point)
  return code !== 0xfffe && code !== 0xffff;
}

/** An attribute value on one line: newlines and tabs as character references, so parsers keep them. */
export function escapeXmlAttribute(text: string): string {
  return escapeXml(text).replace(/\n/g, '&#10;').replace(/\r/g, '&#13;').replace(/\t/g, '&#9;');
}
