/**
 * The one error LDIF parsing throws. It carries the 1-based line and column
 * of the problem so that the emulator's secrets engine can hand an operator
 * "line 3: expected "dn:"" for a role's LDIF instead of a stack trace, and so
 * offline validation can point at the exact spot in a manifest's LDIF field.
 */

export class LdifError extends Error {
  /** 1-based line in the LDIF text (the physical line, folding taken into account). */
  readonly line: number;
  /** 1-based column in that line. */
  readonly col: number;
  /** The message without the "line N: " prefix. */
  readonly reason: string;

  constructor(reason: string, line: number, col: number) {
    super(`line ${line}: ${reason}`);
    this.name = 'LdifError';
    this.line = line;
    this.col = col;
    this.reason = reason;
  }
}
