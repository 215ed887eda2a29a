/**
 * A variable's `type` as the one-line text the registry shows, e.g.
 * `object({ name = string, size = optional(number, 10) })`. hcl2json hands
 * the type over as its source text wrapped in `${...}`, and for a type written
 * over several lines that text still holds the newlines, indentation and
 * comments. This re-spaces it from its tokens: comments dropped, one space
 * after commas and inside braces, and the newlines that separate an object's
 * attributes turned into commas. Quoted legacy types (`type = "string"`) come
 * without the wrapper and pass through unchanged.
 */
import { unwrapExpression } from './hcl-json.ts';

type Token = { kind: 'atom' | 'punct'; text: string } | { kind: 'space' } | { kind: 'newline' };

const PUNCTUATION = new Set(['(', ')', '[', ']', '{', '}', ',', '=', ':']);
const OPENERS = new Set(['(', '[', '{']);
const CLOSERS = new Set([')', ']', '}']);

export function renderTypeExpression(raw: unknown): string {
  if (raw === undefined || raw === null) return '';
  const text = typeof raw === 'string' ? unwrapExpression(raw) : JSON.stringify(raw);
  return render(tokenize(text));
}

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '\n') {
      tokens.push({ kind: 'newline' });
      i += 1;
    } else if (/\s/.test(c)) {
      tokens.push({ kind: 'space' });
      i += 1;
    } else if (c === '#' || text.startsWith('//', i)) {
      // a line comment: the newline that ends it still separates attributes
      while (i < text.length && text[i] !== '\n') i += 1;
    } else if (text.startsWith('/*', i)) {
      const end = text.indexOf('*/', i + 2);
      i = end === -1 ? text.length : end + 2;
      tokens.push({ kind: 'space' });
    } else if (c === '"') {
      const start = i;
      i += 1;
      while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
      i += 1;
      tokens.push({ kind: 'atom', text: text.slice(start, i) });
    } else if (PUNCTUATION.has(c)) {
      tokens.push({ kind: 'punct', text: c });
      i += 1;
    } else {
      const start = i;
      while (i < text.length && !/\s/.test(text[i]!) && !PUNCTUATION.has(text[i]!) && text[i] !== '"') i += 1;
      tokens.push({ kind: 'atom', text: text.slice(start, i) });
    }
  }
  return tokens;
}

function render(tokens: Token[]): string {
  const parts: Array<{ separator: string; text: string }> = [];
  const open: string[] = [];
  let space = false;
  let newline = false;
  for (const token of tokens) {
    if (token.kind === 'space') {
      space = true;
      continue;
    }
    if (token.kind === 'newline') {
      space = true;
      newline = true;
      continue;
    }
    const text = token.text;
    if (CLOSERS.has(text) && parts.at(-1)?.text === ',') parts.pop(); // a trailing comma
    const previous = parts.at(-1)?.text;
    // In an object, a newline ends an attribute as a comma would.
    const endsAttribute =
      newline &&
      open.at(-1) === '{' &&
      previous !== undefined &&
      !OPENERS.has(previous) &&
      previous !== ',' &&
      previous !== '=' &&
      !CLOSERS.has(text) &&
      text !== ',';
    const separator = previous === undefined ? '' : endsAttribute ? ', ' : spacing(previous, text, space);
    parts.push({ separator, text });
    if (OPENERS.has(text)) open.push(text);
    if (CLOSERS.has(text)) open.pop();
    space = false;
    newline = false;
  }
  return parts.map((part) => part.separator + part.text).join('');
}

/** The spacing `terraform fmt` would put between `previous` and `next` on one line. */
function spacing(previous: string, next: string, hadSpace: boolean): string {
  if (next === ')' || next === ']' || next === ',' || next === ':') return '';
  if (previous === '(' || previous === '[') return '';
  if (previous === '{') return next === '}' ? '' : ' ';
  if (next === '}' || previous === ',' || previous === ':' || previous === '=' || next === '=') return ' ';
  if (next === '(' || next === '[') return '';
  return hadSpace ? ' ' : '';
}
