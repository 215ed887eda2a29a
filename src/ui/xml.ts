/**
 * Escaping for the XML reports (JUnit) that embed user and server text. Pure but for the
 * redactor's registered secrets: text is masked before it is escaped, as escaped (`&amp;`) a
 * secret no longer matches the redactor's forms of it (docs/security.md).
 */
import { redact } from '../api/redact.ts';

/** Text and attribute values in XML 1.0: the five entities, and no characters XML forbids. */
export function escapeXml(text: string): string {
  let out = '';
  for (const ch of redact(text)) {
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
