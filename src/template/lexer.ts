/**
 * Splits template text into literal text and `{{ }}` actions, and an action
 * into tokens, following Go's text/template lexer: trim markers are `{{- `
 * and ` -}}` (the space is required, so `{{-3}}` prints -3), a comment must
 * sit right inside the delimiters (`{{/* ... *\/}}`), newlines are allowed
 * inside actions. Every token keeps its offset so errors can name line:col.
 */
import { TemplateError } from './template-error.ts';

export type TokenKind =
  | 'field' // .Username (chains such as .A.B are one token)
  | 'dot' // a bare .
  | 'identifier' // a function name, a keyword, true/false/nil
  | 'string' // "..." with Go escapes
  | 'rawString' // `...`
  | 'char' // 'a'
  | 'number'
  | 'pipe'
  | 'leftParen'
  | 'rightParen'
  | 'variable' // $x
  | 'declare' // :=
  | 'assign'; // =

export interface Token {
  kind: TokenKind;
  text: string;
  offset: number;
}

export type Segment = { kind: 'text'; text: string } | { kind: 'action'; tokens: Token[]; offset: number; end: number };

const isSpace = (c: string | undefined): boolean => c === ' ' || c === '\t' || c === '\r' || c === '\n';
const isIdentStart = (c: string | undefined): boolean => c !== undefined && /^[\p{L}_]$/u.test(c);
const isIdentPart = (c: string | undefined): boolean => c !== undefined && /^[\p{L}\p{Nd}_]$/u.test(c);
const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';

const trailingSpace = /[ \t\r\n]+$/;
const leadingSpace = /^[ \t\r\n]+/;

/** The right delimiter at `i`, with or without its trim marker (a space, then `-}}`). */
function rightDelimAt(source: string, i: number): { length: number; trim: boolean } | undefined {
  if (isSpace(source[i]) && source.startsWith('-}}', i + 1)) return { length: 4, trim: true };
  if (source.startsWith('}}', i)) return { length: 2, trim: false };
  return undefined;
}

export function lex(source: string): Segment[] {
  const segments: Segment[] = [];
  let pos = 0;
  let trimNextText = false;
  const pushText = (text: string): void => {
    const t = trimNextText ? text.replace(leadingSpace, '') : text;
    trimNextText = false;
    segments.push({ kind: 'text', text: t });
  };
  const trimPreviousText = (): void => {
    const last = segments[segments.length - 1];
    if (last?.kind === 'text') last.text = last.text.replace(trailingSpace, '');
  };

  while (pos < source.length) {
    const open = source.indexOf('{{', pos);
    if (open < 0) {
      pushText(source.slice(pos));
      break;
    }
    pushText(source.slice(pos, open));
    let inner = open + 2;
    if (source[inner] === '-' && isSpace(source[inner + 1])) {
      trimPreviousText();
      inner += 2;
    }
    if (source.startsWith('/*', inner)) {
      const comment = skipComment(source, open, inner);
      pos = comment.end;
      trimNextText = comment.trimRight;
      continue;
    }
    const action = lexAction(source, open, inner);
    segments.push({ kind: 'action', tokens: action.tokens, offset: open, end: action.end });
    trimNextText = action.trimRight;
    pos = action.end;
  }
  return segments;
}

/** Skips `/* ... *\/}}`: where the text goes on, and whether it is trimmed. */
function skipComment(source: string, open: number, inner: number): { end: number; trimRight: boolean } {
  const close = source.indexOf('*/', inner + 2);
  if (close < 0) throw new TemplateError('unclosed comment', source, open);
  const delim = rightDelimAt(source, close + 2);
  if (!delim) {
    throw new TemplateError('comment ends before closing delimiter: write */}} with nothing in between', source, close);
  }
  return { end: close + 2 + delim.length, trimRight: delim.trim };
}

function lexAction(source: string, open: number, start: number): { tokens: Token[]; end: number; trimRight: boolean } {
  const tokens: Token[] = [];
  let i = start;
  const fail = (message: string, at: number): never => {
    throw new TemplateError(message, source, at);
  };
  for (;;) {
    const delim = rightDelimAt(source, i);
    if (delim) return { tokens, end: i + delim.length, trimRight: delim.trim };
    if (i >= source.length) fail('unclosed action: no matching }}', open);
    const c = source[i]!;
    if (isSpace(c)) {
      i++;
      continue;
    }
    const at = i;
    const push = (kind: TokenKind, end: number): void => {
      tokens.push({ kind, text: source.slice(at, end), offset: at });
      i = end;
    };
    if (c === '{' && source[i + 1] === '{') fail('unclosed action: {{ inside an action (missing }}?)', open);
    if (c === '|') push('pipe', i + 1);
    else if (c === '(') push('leftParen', i + 1);
    else if (c === ')') push('rightParen', i + 1);
    else if (c === ':' && source[i + 1] === '=') push('declare', i + 2);
    else if (c === '=') push('assign', i + 1);
    else if (c === '"') push('string', scanQuoted(source, i, '"', 'unterminated quoted string', fail));
    else if (c === "'") push('char', scanQuoted(source, i, "'", 'unterminated character constant', fail));
    else if (c === '`') {
      const close = source.indexOf('`', i + 1);
      if (close < 0) fail('unterminated raw quoted string', at);
      push('rawString', close + 1);
    } else if (c === '.' && isDigit(source[i + 1])) push('number', scanNumber(source, i, fail));
    else if (c === '.') {
      let j = i;
      while (source[j] === '.' && isIdentStart(source[j + 1])) {
        j += 2;
        while (isIdentPart(source[j])) j++;
      }
      if (j === i) push('dot', i + 1);
      else push('field', j);
    } else if (c === '$') {
      let j = i + 1;
      while (isIdentPart(source[j])) j++;
      push('variable', j);
    } else if (c === '+' || c === '-' || isDigit(c)) push('number', scanNumber(source, i, fail));
    else if (isIdentStart(c)) {
      let j = i + 1;
      while (isIdentPart(source[j])) j++;
      push('identifier', j);
    } else fail(unrecognized(source, i), at);
  }
}

/** Go's message for a stray character, with a hint for a comment written with spaces after the {{. */
function unrecognized(source: string, i: number): string {
  const cp = source.codePointAt(i)!;
  const code = `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
  const hint = cp === 0x2f ? ' (a comment must start right after {{, as in {{/* ... */}})' : '';
  return `unrecognized character in action: ${code} '${String.fromCodePoint(cp)}'${hint}`;
}

/** The end of a quoted literal starting at `i`; a newline or the end of the text before the quote is an error. */
function scanQuoted(
  source: string,
  i: number,
  quote: string,
  message: string,
  fail: (message: string, at: number) => never,
): number {
  let j = i + 1;
  for (;;) {
    const c = source[j];
    if (c === undefined || c === '\n') return fail(message, i);
    if (c === '\\') {
      if (source[j + 1] === undefined || source[j + 1] === '\n') return fail(message, i);
      j += 2;
      continue;
    }
    if (c === quote) return j + 1;
    j++;
  }
}

/**
 * The end of a number: Go scans a sign, digits of any base, a fraction, an
 * exponent and an imaginary suffix here, and rejects a number glued to a
 * letter ("10px"). Which numbers are accepted is the parser's business.
 */
function scanNumber(source: string, i: number, fail: (message: string, at: number) => never): number {
  const match =
    /^[+-]?(0[xX][0-9a-fA-F_]*(\.[0-9a-fA-F_]*)?([pP][+-]?[0-9_]+)?|0[oObB][0-9_]*|[0-9_]*(\.[0-9_]*)?([eE][+-]?[0-9_]+)?)i?/.exec(
      source.slice(i),
    );
  const end = i + (match?.[0].length ?? 0);
  const digits = source.slice(i, end).replace(/^[+-]/, '');
  if (!/[0-9]/.test(digits) || isIdentPart(source[end]) || source[end] === '.') {
    let j = end;
    while (isIdentPart(source[j]) || source[j] === '.') j++;
    fail(`bad number syntax: ${JSON.stringify(source.slice(i, Math.max(j, i + 1)))}`, i);
  }
  return end;
}
