/**
 * The patterns `matches` runs on JavaScript's own RegExp instead of loading RE2 (src/policy/re2-matches.ts):
 * those written in a small part of RE2's syntax that RegExp (with the `u` flag) reads the same way
 * and matches in time linear in the string's length. Most rules' patterns are of this part: a
 * name's shape (`^[a-z][a-z0-9-]*$`), a host or a scheme (`^https://releases\.example\.com/`).
 *
 * The part: literal characters; punctuation escaped to stand for itself; classes of literal
 * characters and ranges, negated or not; `^` first and `$` last; and one `*`, `+` or `?` after a
 * character or a class, only in a pattern that starts with `^`. Anything else is left to RE2:
 * some constructs read differently in the two (`.` and `\s` match other characters, `[]a]` is a
 * class in RE2 and a syntax error in RegExp, `[[:space:]]` a POSIX class in RE2 only), some let
 * RegExp backtrack without bound (a group `^(a+)+$`, alternation, a second quantifier `a*a*b`), and
 * the rest (`\d`, `{n}`) are left out to keep the part small enough to argue about.
 *
 * Why linear: without a quantifier, a match tried at each position of the string costs at most the
 * pattern's length. With one, only the first position can match (`^`), and the quantifier gives back
 * at most one character per position of the string, each tried against the rest of the pattern,
 * which has no quantifier. The two engines' verdicts are compared on random patterns and strings
 * in test/unit/policy/plain-pattern.test.ts.
 */

/** What may follow `\` for a literal outside a class: the characters RegExp's `u` mode lets be escaped. */
const ESCAPABLE = new Set('^$\\.*+?()[]{}|/');
/** Inside a class, `-` too. */
const CLASS_ESCAPABLE = new Set([...ESCAPABLE, '-']);
/** Characters that are not literals outside a class, in one engine or the other. */
const SPECIAL = new Set('\\.*+?()[]{}|^$');

/** The RegExp that reads `pattern` as RE2 does, in linear time; undefined when it is not of the part above. */
export function plainPattern(pattern: string): RegExp | undefined {
  const chars = [...pattern];
  if (chars.some(loneSurrogate)) return undefined;
  const anchored = chars[0] === '^';
  let i = anchored ? 1 : 0;
  let quantifiers = 0;
  // whether the item before is a character or a class, which a quantifier may follow
  let atom = false;
  while (i < chars.length) {
    const c = chars[i] as string;
    if (c === '\\') {
      if (!ESCAPABLE.has(chars[i + 1] ?? '')) return undefined;
      i += 2;
      atom = true;
    } else if (c === '[') {
      const next = classEnd(chars, i + 1);
      if (next === undefined) return undefined;
      i = next;
      atom = true;
    } else if (c === '*' || c === '+' || c === '?') {
      if (!atom) return undefined;
      quantifiers++;
      atom = false;
      i++;
    } else if (c === '$' && i === chars.length - 1) {
      atom = false;
      i++;
    } else if (SPECIAL.has(c)) {
      return undefined;
    } else {
      atom = true;
      i++;
    }
  }
  if (quantifiers > (anchored ? 1 : 0)) return undefined;
  return new RegExp(pattern, 'u');
}

/**
 * Where the class opened before `start` ends (the index after its `]`), when it holds only literal
 * characters, escaped punctuation and ranges in order; undefined otherwise. An empty class is
 * refused: `[]a]` is a class of `]` and `a` in RE2.
 */
function classEnd(chars: readonly string[], start: number): number | undefined {
  let i = chars[start] === '^' ? start + 1 : start;
  let members = 0;
  while (i < chars.length) {
    const c = chars[i] as string;
    if (c === ']') return members > 0 ? i + 1 : undefined;
    if (c === '\\') {
      if (!CLASS_ESCAPABLE.has(chars[i + 1] ?? '')) return undefined;
      i += 2;
    } else if (c === '[' || c === '-' || c === '^') {
      // `[` opens a POSIX class in RE2 (`[[:space:]]`); `-` and `^` are kept to their plain places
      return undefined;
    } else if (chars[i + 1] === '-' && chars[i + 2] !== ']') {
      const to = chars[i + 2];
      if (to === undefined || to === '\\' || to === '[' || to === '^' || to === '-') return undefined;
      if ((c.codePointAt(0) as number) > (to.codePointAt(0) as number)) return undefined;
      i += 3;
    } else {
      i++;
    }
    members++;
  }
  return undefined;
}

function loneSurrogate(c: string): boolean {
  const code = c.charCodeAt(0);
  return c.length === 1 && code >= 0xd800 && code <= 0xdfff;
}
