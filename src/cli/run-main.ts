import type { Command } from 'commander';
import { CommanderError } from 'commander';
import { ConvergeError, formatProblem, InputError } from '../errors.ts';
import { processOutput } from '../ui/output.ts';
import { terminalLines } from '../ui/terminal-text.ts';

/** Exit codes (docs/commands.md). */
export const EXIT_OK = 0;
export const EXIT_ERROR = 1;
export const EXIT_CHANGES = 2;

/**
 * The one top-level handler: user-fixable errors print their message and hint
 * and exit 1; anything else is a bug and prints its stack.
 */
export async function runMain(program: Command, argv: string[]): Promise<void> {
  program.exitOverride();
  for (const stream of [process.stdout, process.stderr]) stream.on('error', ignoreClosedReader);
  try {
    await program.parseAsync(argv);
  } catch (error) {
    process.exitCode = reportError(error);
  }
}

/**
 * A reader that stops early (`converge schema | head -1`) closes the pipe: what is left to print
 * is not wanted, and the run goes on to its end rather than stopping half-way (an apply cut short
 * by a pager would be worse). Any other error of the stream stays an error.
 */
function ignoreClosedReader(error: NodeJS.ErrnoException): void {
  if (error.code === 'EPIPE' || error.code === 'ERR_STREAM_DESTROYED') return;
  throw error;
}

function reportError(error: unknown): number {
  // an API's error text may quote what was sent: it passes the redactor like every other line; it
  // may hold a server's or a file's control characters too, shown rather than run by the terminal
  const err = processOutput().err;
  const write = (line: string) => err(terminalLines(line));
  if (error instanceof CommanderError) {
    // commander already printed help, the version or the usage error
    return error.exitCode === 0 ? EXIT_OK : EXIT_ERROR;
  }
  if (error instanceof InputError) {
    for (const p of error.problems) write(formatProblem(p));
    write(`${error.problems.length} problem(s); nothing was sent to any API`);
    return EXIT_ERROR;
  }
  if (ConvergeError.is(error)) {
    write(`error [${error.code}]: ${error.message}`);
    if (error.hint) write(`hint: ${error.hint}`);
    return EXIT_ERROR;
  }
  write(`converge hit a bug: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  return EXIT_ERROR;
}
