/**
 * Typed errors. Every error converge reports to a user carries a stable `code`
 * and, where the user can do something about it, a `hint`. Anything that is not
 * a ConvergeError reaching the top-level handler is a bug and is shown as one.
 */

export type ErrorCode =
  | 'INPUT_INVALID' // manifests or flags: file:line:col problems
  | 'CONFIG_INVALID'
  | 'API_ERROR' // the server answered with an error status
  | 'NETWORK_ERROR' // no answer (connection refused, reset, timeout)
  | 'PLAN_STALE' // a saved plan no longer matches live state
  | 'PLAN_INVALID' // a plan cannot be made (a declared user that does not exist, ...)
  | 'GUARD_REFUSED' // the mass-delete guard, a non-interactive apply without --auto-approve, a delete that would take more (a module's last version)
  | 'REPLACE_FAILED' // a replacement did not complete; its message says what is live now
  | 'POLICY_DENIED' // a deny policy's rule fails for an object (docs/policies.md)
  | 'INTERRUPTED';

const brand = Symbol.for('converge.error');

export class ConvergeError extends Error {
  readonly code: ErrorCode;
  readonly hint: string | undefined;
  readonly [brand] = true;

  constructor(code: ErrorCode, message: string, options: { hint?: string; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = 'ConvergeError';
    this.code = code;
    this.hint = options.hint;
  }

  /** Brand check instead of instanceof, so that two loaded copies still agree. */
  static is(value: unknown): value is ConvergeError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[brand] === true;
  }
}

/** One problem in the user's input, at a place in a file. */
export interface InputProblem {
  file: string;
  line: number;
  col: number;
  message: string;
}

/**
 * `file:line:col`, the one way converge writes a place in a file. A place that is no file's line
 * (a flag, an environment variable: line 0) is written by its name alone (`--var ttl`).
 */
export function formatPosition(p: { file: string; line: number; col: number }): string {
  return p.line === 0 ? p.file : `${p.file}:${p.line}:${p.col}`;
}

export function formatProblem(p: InputProblem): string {
  return `${formatPosition(p)}: ${p.message}`;
}

/** All input problems at once: the CLI prints each as `file:line:col: message` and exits 1. */
export class InputError extends ConvergeError {
  readonly problems: InputProblem[];

  constructor(problems: InputProblem[]) {
    super('INPUT_INVALID', problems.map(formatProblem).join('\n'), {
      hint: 'fix the input above; nothing was sent to any API',
    });
    this.name = 'InputError';
    this.problems = problems;
  }
}
