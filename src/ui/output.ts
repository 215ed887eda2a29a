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

/** Collects lines (tests, and commands that write reports to files). */
export function memoryOutput(): Output & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return { stdout, stderr, out: (l) => stdout.push(redact(l)), err: (l) => stderr.push(redact(l)) };
}
