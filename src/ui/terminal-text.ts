/**
 * Text from a server or a module, made safe for a terminal. Names of live
 * objects, API error messages and a test run's log are written by someone
 * else; raw, an escape sequence in them could write the clipboard (OSC 52),
 * clear the screen, move the cursor, or overwrite a line with a forged
 * "Success!" after a carriage return. Every control character is shown
 * instead: C0 controls as their Unicode control pictures (ESC as `␛`, CR as
 * `␍`), DEL as `␡`, and C1 controls, line separators and bidirectional
 * overrides as `\u009b`-style escapes. A tab stays a tab. Pure.
 *
 * Text reporters (plain lines, Ink, `test run`) call this where server text
 * enters them; JSON, JUnit and Markdown have escaping of their own.
 */

/** C0 but tab, DEL, C1, the line and paragraph separators, and the bidi embeddings, overrides and isolates. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const UNSAFE = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

function visible(ch: string): string {
  const code = ch.codePointAt(0) ?? 0;
  if (code < 0x20) return String.fromCodePoint(0x2400 + code);
  if (code === 0x7f) return '\u2421';
  return `\\u${code.toString(16).padStart(4, '0')}`;
}

/** One line: a line end inside is shown too (`␊`), so it cannot start a line of its own. */
export function terminalLine(text: string): string {
  return text.replace(UNSAFE, visible);
}

/**
 * Several lines (a log): line ends stay, CRLF counts as one, and a bare CR
 * is shown, so that no line can be overwritten on screen.
 */
export function terminalLines(text: string): string {
  return text
    .split(/\r?\n/)
    .map((line) => terminalLine(line))
    .join('\n');
}
