/**
 * One "name: value" line of LDIF (RFC 2849 attrval-spec): the three value
 * forms are plain ("cn: Jane"), base64 ("cn:: SmFuZQ==") and URL
 * ("jpegPhoto:< file:///..."). URLs are refused: the emulator must never
 * read local files or fetch anything on behalf of a role's LDIF.
 *
 * Base64 values are decoded as UTF-8 text, and a value whose bytes are not
 * valid UTF-8 is an error rather than being smuggled through as a latin1
 * string: every consumer (the LDAP engine, ldapts, offline validation)
 * handles values as text, and a silently re-encoded binary value would be
 * written back to a real directory as different bytes.
 */
import type { LogicalLine } from './lines.ts';

export interface AttrValue {
  name: string;
  value: string;
  /** Offset of the value in the logical line, for errors about the value. */
  valueOffset: number;
}

/** An attribute description: a name or OID, then options (";lang-en", ";binary"). */
const ATTRIBUTE_DESCRIPTION = /^(?:[A-Za-z][A-Za-z0-9-]*|\d+(?:\.\d+)*)(?:;[A-Za-z0-9-]+)*$/;

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Base64 text to UTF-8, or undefined when it is not strict base64 of UTF-8 text. */
export function decodeBase64Text(encoded: string): string | undefined {
  if (!BASE64.test(encoded)) return undefined;
  try {
    return utf8.decode(Buffer.from(encoded, 'base64'));
  } catch {
    return undefined;
  }
}

export function isAttributeDescription(name: string): boolean {
  return ATTRIBUTE_DESCRIPTION.test(name);
}

/** Parses a logical line as "name: value"; `what` names the expected line in errors. */
export function parseAttrValue(line: LogicalLine, what = '"attribute: value"'): AttrValue {
  const text = line.text;
  const colon = text.indexOf(':');
  if (colon < 0) throw line.error(`expected ${what}, found no ":"`);
  const name = text.slice(0, colon);
  if (!isAttributeDescription(name)) throw line.error(`invalid attribute name "${name}"`);
  const marker = text[colon + 1];
  if (marker === '<') throw line.error(`URL values ("${name}:< url") are not supported`, colon + 1);
  if (marker === ':') {
    const start = skipSpaces(text, colon + 2);
    const encoded = text.slice(start).trimEnd();
    const value = decodeBase64Text(encoded);
    if (value === undefined) {
      const reason = BASE64.test(encoded)
        ? 'is not UTF-8 text (binary values are not supported)'
        : 'is not valid base64';
      throw line.error(`base64 value of "${name}" ${reason}`, start);
    }
    return { name, value, valueOffset: start };
  }
  // RFC 2849 FILL: the spaces after the colon are not part of the value.
  const start = skipSpaces(text, colon + 1);
  return { name, value: text.slice(start), valueOffset: start };
}

function skipSpaces(text: string, from: number): number {
  let index = from;
  while (text[index] === ' ') index++;
  return index;
}
