/**
 * Go's rules for string and character literals (strconv.Unquote) and for
 * printf's %q (strconv.Quote), over byte strings. Templates written for Vault
 * use Go escapes such as "\"%s\"" (Active Directory's quoted unicodePwd), so
 * the literals must decode exactly as Go decodes them.
 */
import { fromBytes, toBytes } from './values.ts';

/** A problem in a literal, `at` characters into its raw text (for the error column). */
export class LiteralError extends Error {
  readonly at: number;

  constructor(message: string, at: number) {
    super(message);
    this.name = 'LiteralError';
    this.at = at;
  }
}

const simpleEscapes: Readonly<Record<string, number>> = {
  a: 7,
  b: 8,
  f: 12,
  n: 10,
  r: 13,
  t: 9,
  v: 11,
  '\\': 92,
};

const encoder = new TextEncoder();

/**
 * Decodes one escape starting at raw[i] === '\\'. Returns the bytes it stands
 * for and where it ends. `quote` is the delimiter, the only quote that may be
 * escaped ("\'" is an error in a string, "\"" in a character, as in Go).
 */
function decodeEscape(raw: string, i: number, quote: string): { bytes: number[]; rune?: number; end: number } {
  const c = raw[i + 1];
  if (c === undefined) throw new LiteralError('unterminated escape sequence', i);
  const simple = simpleEscapes[c];
  if (simple !== undefined) return { bytes: [simple], rune: simple, end: i + 2 };
  if (c === quote) return { bytes: [c.charCodeAt(0)], rune: c.charCodeAt(0), end: i + 2 };
  if (c === 'x' || c === 'u' || c === 'U') {
    const digits = c === 'x' ? 2 : c === 'u' ? 4 : 8;
    const hex = raw.slice(i + 2, i + 2 + digits);
    if (!new RegExp(`^[0-9a-fA-F]{${digits}}$`).test(hex)) {
      throw new LiteralError(`invalid escape \\${c}: want ${digits} hexadecimal digits`, i);
    }
    const n = Number.parseInt(hex, 16);
    if (c === 'x') return { bytes: [n], rune: n, end: i + 2 + digits };
    if (n > 0x10ffff || (n >= 0xd800 && n <= 0xdfff)) {
      throw new LiteralError(`invalid escape \\${c}${hex}: not a Unicode code point`, i);
    }
    return { bytes: [...encoder.encode(String.fromCodePoint(n))], rune: n, end: i + 2 + digits };
  }
  if (c >= '0' && c <= '7') {
    const oct = raw.slice(i + 1, i + 4);
    if (!/^[0-7]{3}$/.test(oct)) throw new LiteralError('invalid octal escape: want 3 octal digits', i);
    const n = Number.parseInt(oct, 8);
    if (n > 255) throw new LiteralError(`invalid octal escape \\${oct}: above \\377`, i);
    return { bytes: [n], rune: n, end: i + 4 };
  }
  throw new LiteralError(`unknown escape sequence \\${c}`, i);
}

/** The value of a Go "interpreted" or `raw` string literal, quotes included in `raw`. */
export function unquoteString(raw: string): string | Uint8Array {
  if (raw.startsWith('`')) {
    // Go drops carriage returns from raw strings so that CRLF files read the same.
    return raw.slice(1, -1).replaceAll('\r', '');
  }
  const bytes: number[] = [];
  let i = 1;
  const end = raw.length - 1;
  while (i < end) {
    if (raw[i] === '\\') {
      const e = decodeEscape(raw, i, '"');
      bytes.push(...e.bytes);
      i = e.end;
    } else {
      const cp = raw.codePointAt(i)!;
      const ch = String.fromCodePoint(cp);
      bytes.push(...encoder.encode(ch));
      i += ch.length;
    }
  }
  return fromBytes(Uint8Array.from(bytes));
}

/** The code point of a Go character literal such as 'a' or '\n'; Go treats it as an integer. */
export function unquoteChar(raw: string): number {
  const body = raw.slice(1, -1);
  if (body.length === 0) throw new LiteralError('empty character literal', 0);
  if (body.startsWith('\\')) {
    const e = decodeEscape(raw, 1, "'");
    if (e.end !== raw.length - 1) throw new LiteralError('more than one character in character literal', 0);
    return e.rune!;
  }
  const cp = body.codePointAt(0)!;
  if (String.fromCodePoint(cp).length !== body.length) {
    throw new LiteralError('more than one character in character literal', 0);
  }
  return cp;
}

/** One UTF-8 sequence at bytes[i]: its code point, or -1 for an invalid byte (size 1), as Go's utf8.DecodeRune. */
export function decodeRune(bytes: Uint8Array, i: number): { rune: number; size: number } {
  const b0 = bytes[i]!;
  if (b0 < 0x80) return { rune: b0, size: 1 };
  const cont = (k: number, lo = 0x80, hi = 0xbf): number => {
    const b = bytes[i + k];
    return b !== undefined && b >= lo && b <= hi ? b & 0x3f : -1;
  };
  if (b0 >= 0xc2 && b0 <= 0xdf) {
    const c1 = cont(1);
    if (c1 >= 0) return { rune: ((b0 & 0x1f) << 6) | c1, size: 2 };
  } else if (b0 >= 0xe0 && b0 <= 0xef) {
    const c1 = cont(1, b0 === 0xe0 ? 0xa0 : 0x80, b0 === 0xed ? 0x9f : 0xbf);
    const c2 = cont(2);
    if (c1 >= 0 && c2 >= 0) return { rune: ((b0 & 0x0f) << 12) | (c1 << 6) | c2, size: 3 };
  } else if (b0 >= 0xf0 && b0 <= 0xf4) {
    const c1 = cont(1, b0 === 0xf0 ? 0x90 : 0x80, b0 === 0xf4 ? 0x8f : 0xbf);
    const c2 = cont(2);
    const c3 = cont(3);
    if (c1 >= 0 && c2 >= 0 && c3 >= 0) return { rune: ((b0 & 0x07) << 18) | (c1 << 12) | (c2 << 6) | c3, size: 4 };
  }
  return { rune: -1, size: 1 };
}

/** Go's unicode.IsPrint, close enough: letters, marks, numbers, punctuation, symbols and the ASCII space. */
function isPrint(rune: number): boolean {
  return rune === 0x20 || /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u.test(String.fromCodePoint(rune));
}

const hex = (n: number, width: number): string => n.toString(16).padStart(width, '0');

function escapeRune(rune: number, quote: string): string {
  const ch = String.fromCodePoint(rune);
  if (ch === quote || ch === '\\') return `\\${ch}`;
  if (isPrint(rune)) return ch;
  for (const [letter, code] of Object.entries(simpleEscapes)) if (code === rune) return `\\${letter}`;
  if (rune < 0x20 || rune === 0x7f) return `\\x${hex(rune, 2)}`;
  if (rune < 0x10000) return `\\u${hex(rune, 4)}`;
  return `\\U${hex(rune, 8)}`;
}

/** strconv.Quote: a double-quoted Go literal; bytes that are not UTF-8 become \xNN. */
export function quoteString(value: string | Uint8Array): string {
  const bytes = toBytes(value);
  let out = '"';
  for (let i = 0; i < bytes.length; ) {
    const { rune, size } = decodeRune(bytes, i);
    out += rune < 0 ? `\\x${hex(bytes[i]!, 2)}` : escapeRune(rune, '"');
    i += size;
  }
  return out + '"';
}

/** strconv.QuoteRune: what %q prints for an integer. */
export function quoteRune(n: number): string {
  const valid = Number.isInteger(n) && n >= 0 && n <= 0x10ffff && !(n >= 0xd800 && n <= 0xdfff);
  return `'${escapeRune(valid ? n : 0xfffd, "'")}'`;
}
