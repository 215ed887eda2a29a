/**
 * The process's output, with the lines written to stdout in one turn of the
 * event loop leaving in one write. An apply prints a line per action (and
 * its plan, a line per object, before it): thousands of lines, each a system
 * call of its own on a pipe, a file or a terminal, on the same thread that
 * sends the requests. Corked, a turn's lines go out together at its end.
 */
import { type Output, processOutput } from '../../ui/output.ts';

export interface TurnOutput extends Output {
  /** Writes what is held now (before the process exits, or before anything else writes to stdout). */
  flush(): void;
}

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
