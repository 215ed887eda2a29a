/**
 * LDIF's physical layout, undone: CRLF or LF line ends, folded lines (a
 * continuation starts with one space, RFC 2849 "Notes on LDIF Syntax" 2),
 * comments (# ...) and the blank lines that separate records. The result is
 * a list of records, each a list of logical lines that still know where
 * every character came from, so an error deep inside a folded value is
 * reported at its real line and column.
 */
import { LdifError } from './errors.ts';

interface Segment {
  /** Offset in the logical line where this physical piece starts. */
  offset: number;
  line: number;
  /** Column in the physical line of the piece's first character. */
  col: number;
}

export class LogicalLine {
  readonly text: string;
  private readonly segments: Segment[];

  constructor(text: string, segments: Segment[]) {
    this.text = text;
    this.segments = segments;
  }

  /** 1-based line of the line's first physical line. */
  get line(): number {
    return this.segments[0]!.line;
  }

  /** Line and column of a character of the logical text (an offset past the end maps just after it). */
  position(offset: number): { line: number; col: number } {
    let segment = this.segments[0]!;
    for (const candidate of this.segments) if (candidate.offset <= offset) segment = candidate;
    return { line: segment.line, col: segment.col + (offset - segment.offset) };
  }

  /** An LdifError pointing at a character of this line. */
  error(reason: string, offset = 0): LdifError {
    const { line, col } = this.position(offset);
    return new LdifError(reason, line, col);
  }
}

interface Building {
  text: string;
  segments: Segment[];
  comment: boolean;
}

/**
 * Splits LDIF text into blocks of logical lines: one block per record (or
 * for the version line when it stands alone). Comment lines are dropped,
 * including their continuations; they do not end a block.
 */
export function logicalBlocks(text: string): LogicalLine[][] {
  const physical = text.split(/\r?\n/);
  const blocks: LogicalLine[][] = [];
  let block: LogicalLine[] = [];
  let current: Building | undefined;
  const finish = (): void => {
    if (current && !current.comment) block.push(new LogicalLine(current.text, current.segments));
    current = undefined;
  };
  const endBlock = (): void => {
    finish();
    if (block.length > 0) blocks.push(block);
    block = [];
  };
  physical.forEach((raw, index) => {
    const line = index + 1;
    if (raw.startsWith(' ')) {
      // Nothing to continue at the start or right after a blank line.
      if (!current) throw new LdifError('continuation line (starting with a space) has no line to continue', line, 1);
      current.segments.push({ offset: current.text.length, line, col: 2 });
      current.text += raw.slice(1);
      return;
    }
    if (raw === '') {
      endBlock();
      return;
    }
    finish();
    current = { text: raw, segments: [{ offset: 0, line, col: 1 }], comment: raw.startsWith('#') };
  });
  endBlock();
  return blocks;
}
