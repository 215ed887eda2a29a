/**
 * The outcome of one `run` block, decided without Terraform:
 * - a run with `expect_failures` passes; the emulator cannot tell whether the
 *   listed objects would fail, so its asserts are not evaluated (the log says so);
 * - otherwise each assert's condition is evaluated (see expression.ts); one
 *   that cannot be evaluated is assumed to pass, with its reasons kept for the log;
 * - reading a variable with no value (or an unusable value), or a condition
 *   Terraform would reject (wrong operand types, a non-bool result), errors the run;
 * - status: `error` if anything errored, else `fail` if an assert is false, else `pass`.
 * `command = plan` and `command = apply` runs are decided the same way.
 * A value from a sensitive variable is never written into a verdict: the failed
 * assert's detail and an error say `(sensitive value)` in its place, and an
 * error_message that reads one is shown as written, not interpolated (Terraform
 * will not display such a message either).
 */

import { EvaluationError, InvalidVariableError, MissingVariableError } from './errors.ts';
import { evaluate, evaluateHclJson, type Outcome, type Substitution } from './expression.ts';
import { expressionOf, hasInterpolation, literalText } from './hcl-values.ts';
import { type Reason, reason } from './reasons.ts';
import type { Scope } from './scope.ts';
import type { AssertBlock, RunBlock } from './test-file.ts';
import { renderValue, shownValue, type Value } from './values.ts';
import { withVariablesBlock } from './variables.ts';

export type AssertVerdict = { number: number; condition: string } & (
  | { result: 'passed' }
  | { result: 'failed'; detail: string; errorMessage: string }
  | { result: 'assumed'; reasons: Reason[] }
  | { result: 'error'; message: string }
);

export interface RunDecision {
  name: string;
  status: 'pass' | 'fail' | 'error' | 'skip';
  command: 'plan' | 'apply';
  /** Distinct error messages, in the order met. */
  errors: string[];
  asserts: AssertVerdict[];
  expectFailures: string[];
  /** The variables the run could read, for the verbose log. */
  scope: Scope;
}

const EXPECTS_FAILURES = reason('is in a run with expect_failures');

export async function decideRun(run: RunBlock, fileScope: Scope): Promise<RunDecision> {
  const scope = await withVariablesBlock(fileScope, run.variables, 'run variables block');
  const asserts: AssertVerdict[] = [];
  for (const [i, assert] of run.asserts.entries()) {
    const number = i + 1;
    if (run.expectFailures.length > 0) {
      asserts.push({ number, condition: await conditionText(assert), result: 'assumed', reasons: [EXPECTS_FAILURES] });
    } else {
      asserts.push(await judgeAssert(number, assert, scope));
    }
  }
  const errors = [...new Set(asserts.flatMap((a) => (a.result === 'error' ? [a.message] : [])))];
  const status = errors.length > 0 ? 'error' : asserts.some((a) => a.result === 'failed') ? 'fail' : 'pass';
  return { name: run.name, status, command: run.command, errors, asserts, expectFailures: run.expectFailures, scope };
}

async function conditionText(assert: AssertBlock): Promise<string> {
  const { condition } = assert;
  if (typeof condition !== 'string') return renderValue(condition as Value);
  if (!hasInterpolation(condition)) return JSON.stringify(literalText(condition));
  return (await expressionOf(condition))?.text ?? condition;
}

async function judgeAssert(number: number, assert: AssertBlock, scope: Scope): Promise<AssertVerdict> {
  const { condition } = assert;
  const substitutions: Substitution[] = [];
  let text: string;
  let outcome: Outcome;
  try {
    if (typeof condition === 'string' && hasInterpolation(condition)) {
      const expression = await expressionOf(condition);
      if (!expression) {
        return { number, condition, result: 'assumed', reasons: [reason('could not be read by the emulator')] };
      }
      text = expression.text;
      outcome = evaluate(expression.ast, { scope, substitutions });
    } else {
      text = await conditionText(assert);
      outcome = await evaluateHclJson(condition, scope);
    }
  } catch (error) {
    if (!isRunError(error)) throw error;
    return { number, condition: await conditionText(assert), result: 'error', message: error.message };
  }
  if (!outcome.known) return { number, condition: text, result: 'assumed', reasons: outcome.reasons };
  const value = outcome.value;
  if (value !== true && value !== false && value !== 'true' && value !== 'false') {
    const message = `Invalid condition result (${text}): the condition must be a bool, got ${shownValue(value, outcome.sensitive)}`;
    return { number, condition: text, result: 'error', message };
  }
  if (value === true || value === 'true') return { number, condition: text, result: 'passed' };
  const detail = substitutions.length > 0 ? `${text}: ${substitute(text, substitutions)}` : text;
  return { number, condition: text, result: 'failed', detail, errorMessage: await errorMessageText(assert, scope) };
}

function isRunError(error: unknown): error is Error {
  return (
    error instanceof MissingVariableError || error instanceof InvalidVariableError || error instanceof EvaluationError
  );
}

/** The condition with each variable read replaced by its value; AST ranges are byte offsets. */
function substitute(text: string, substitutions: Substitution[]): string {
  const bytes = Buffer.from(text, 'utf8');
  const parts: string[] = [];
  let at = 0;
  for (const { start, end, text: value } of [...substitutions].sort((a, b) => a.start - b.start)) {
    if (start < at) continue;
    parts.push(bytes.subarray(at, start).toString('utf8'), value);
    at = end;
  }
  parts.push(bytes.subarray(at).toString('utf8'));
  return parts.join('');
}

/** The assert's error_message, interpolated when the emulator can and it reads no sensitive value; as written otherwise. */
async function errorMessageText(assert: AssertBlock, scope: Scope): Promise<string> {
  const message = assert.errorMessage;
  if (typeof message !== 'string') return message === undefined ? '' : renderValue(message as Value);
  try {
    const outcome = await evaluateHclJson(message, scope);
    if (outcome.known && !outcome.sensitive && typeof outcome.value === 'string') return outcome.value;
  } catch {
    // An error_message that cannot be interpolated is shown as written.
  }
  return message;
}
