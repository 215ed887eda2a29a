/**
 * Every line converge prints goes through here, so the redactor sees it: a
 * registered secret value never reaches a terminal, a CI log or a file.
 */
import { redact } from '../api/redact.ts';

export interface Output {
  out(line: string): void;
  err(line: string): void;
}

export function processOutput(stdout: NodeJS.WritableStream = process.stdout, stderr = process.stderr): Output {
  return {
    out: (line) => stdout.write(`${redact(line)}\n`),
    err: (line) => stderr.write(`${redact(line)}\n`),
  };
}

export interface TurnOutput extends Output {
  /** Writes what is held now (before the process exits, or before anything else writes to stdout). */
  flush(): void;
}

/**
 * The process's output, with the lines written to stdout in one turn of the
 * event loop leaving in one write. A plan prints a line per object and an
 * apply a line per action too: thousands of lines, each a system call of its
 * own on a pipe, a file or a terminal, on the same thread that sends the
 * requests. Corked, a turn's lines go out together at its end.
 */
export function turnOutput(stdout: NodeJS.WriteStream = process.stdout, stderr = process.stderr): TurnOutput {
  const output = processOutput(stdout, stderr);
  let held: NodeJS.Immediate | undefined;
  const flush = () => {
    if (held === undefined) return;
    clearImmediate(held);
    held = undefined;
    stdout.uncork();
  };
  return {
    out: (line) => {
      if (held === undefined) {
        stdout.cork();
        held = setImmediate(flush);
      }
      output.out(line);
    },
    // stdout's held lines first, so that both streams keep their order on a terminal
    err: (line) => {
      flush();
      output.err(line);
    },
    flush,
  };
}

/** Collects lines (tests, and commands that write reports to files). */
export function memoryOutput(): Output & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return { stdout, stderr, out: (l) => stdout.push(redact(l)), err: (l) => stderr.push(redact(l)) };
}
