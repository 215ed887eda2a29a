/**
 * What a terminal shows after a stream of writes, for the few sequences Ink's
 * log-update uses (erase line, cursor up, column 0); other escape sequences
 * (synchronized output, cursor visibility, colour) change nothing on screen.
 */
export function screenOf(written: string): string[] {
  const lines: string[] = [''];
  let row = 0;
  let col = 0;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: parsing escape sequences is the point
  const tokens = written.match(/\u001b\[[0-9;?]*[A-Za-z]|\n|[^\u001b\n]+/g) ?? [];
  for (const token of tokens) {
    if (token === '\n') {
      row++;
      col = 0;
      lines[row] ??= '';
    } else if (token === '\u001b[2K') lines[row] = '';
    else if (token === '\u001b[1A') row = Math.max(0, row - 1);
    else if (token === '\u001b[G') col = 0;
    else if (!token.startsWith('\u001b')) {
      const line = lines[row] ?? '';
      lines[row] = line.slice(0, col).padEnd(col) + token + line.slice(col + token.length);
      col += token.length;
    }
  }
  // what is below the cursor was erased or never written
  return lines.slice(0, row + (col > 0 ? 1 : 0)).concat(lines.slice(row + 1).filter((l) => l !== ''));
}
