/**
 * Typed errors of the module-test emulation. Each one ends a single run (or a
 * single file) with status `error`; none escapes `decideTestRun`, which must
 * never throw because of what an uploaded test file contains.
 */

/** A test file that hcl2json cannot parse, or that Terraform would reject (duplicate run names). */
export class TestFileError extends Error {
  override readonly name = 'TestFileError';
}

/** A `var.<name>` read by a run that no variable source sets. */
export class MissingVariableError extends Error {
  override readonly name = 'MissingVariableError';
  readonly variable: string;
  constructor(variable: string) {
    super(`variable ${variable} has no value`);
    this.variable = variable;
  }
}

/** A variable whose value was given but cannot be used (an API value that is not a literal, a failed expression). */
export class InvalidVariableError extends Error {
  override readonly name = 'InvalidVariableError';
  readonly variable: string;
  constructor(variable: string, reason: string) {
    super(`variable ${variable}: ${reason}`);
    this.variable = variable;
  }
}

/** An expression Terraform itself would reject while evaluating it (wrong operand types, non-bool condition). */
export class EvaluationError extends Error {
  override readonly name = 'EvaluationError';
}
