/**
 * Decides the outcome of an emulated module test run (`terraform test`). The
 * emulator cannot run Terraform, so a run's outcome comes from the asserts it
 * can evaluate from variables alone. The rule, end to end:
 *
 * Files: the `*.tftest.hcl` files directly in the root and in the test
 * directory (default `tests`), in path order (select-files.ts). A file the
 * filters exclude is reported with every run `skip`. A file hcl2json cannot
 * parse (or with duplicate run names, a bad `command`, an assert without
 * condition) fails: each run found in it is `error`, the parse error is logged.
 *
 * Variables of a run, lowest precedence first (variables.ts): the module's
 * test variables of category `env` named `TF_VAR_<name>`; the test run's API
 * `variables` (literals); the file's `variables { }` block; the run's own
 * `variables { }` block.
 *
 * Asserts (expression.ts, run-decision.ts): a condition built from literals
 * (string, number, bool, null, lists), `var.<name>`, `length(...)`, `==`, `!=`,
 * `<`, `<=`, `>`, `>=`, `&&`, `||`, `!`, unary `-`, parentheses and templates
 * is evaluated; any other part (resource attributes, `output.*`, `run.*`,
 * other functions, conditionals, arithmetic, `var.x[0]`) makes it unknown, and
 * an unknown condition is assumed to pass (`false && <unknown>` is still false).
 * A run with `expect_failures` passes without evaluating its asserts. Reading
 * a variable that no source sets ("variable x has no value"), or a value
 * Terraform would reject, errors the run. `command = plan` and `apply` runs are
 * decided alike. A run is `error` if anything errored, else `fail` if an
 * evaluated assert is false, else `pass`.
 *
 * testStatus is `pass` only when no run failed or errored and every selected
 * file could be read.
 *
 * The log never shows a sensitive test variable's value, nor one computed from
 * it: `(sensitive value)` stands in its place, as in Terraform's messages.
 */

import { TestFileError } from './errors.ts';
import { type FileReport, type RunReport, renderLog } from './log.ts';
import { decideRun } from './run-decision.ts';
import type { Scope } from './scope.ts';
import { isSelected, isTestFile, normalizePath } from './select-files.ts';
import { parseTestFile, runNamesInSource } from './test-file.ts';
import { inputScope, type ModuleVariable, withVariablesBlock } from './variables.ts';

export interface TestFile {
  path: string;
  text: string;
}

export interface RunInput {
  files: TestFile[];
  /** Default 'tests'. */
  testDirectory: string;
  /** File paths; empty: all. */
  filters: string[];
  moduleVariables: ModuleVariable[];
  runVariables: Array<{ key: string; value: string }>;
  verbose: boolean;
}

export interface RunOutcome {
  testStatus: 'pass' | 'fail';
  passed: number;
  failed: number;
  errored: number;
  skipped: number;
  log: string;
  files: Array<{ path: string; runs: Array<{ name: string; status: 'pass' | 'fail' | 'error' | 'skip' }> }>;
}

export async function decideTestRun(input: RunInput): Promise<RunOutcome> {
  const testFiles = input.files
    .filter((file) => isTestFile(file.path, input.testDirectory))
    .map((file) => ({ path: normalizePath(file.path), text: file.text }))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const scope = await inputScope(input.moduleVariables, input.runVariables);
  const reports: FileReport[] = [];
  for (const file of testFiles) {
    reports.push(isSelected(file.path, input.filters) ? await runFile(file, scope) : await skipFile(file));
  }
  const runs = reports.flatMap((report) => report.runs);
  const count = (status: RunReport['status']) => runs.filter((run) => run.status === status).length;
  const counts = { passed: count('pass'), failed: count('fail'), errored: count('error'), skipped: count('skip') };
  const success = counts.failed === 0 && counts.errored === 0 && reports.every((r) => r.error === undefined);
  return {
    testStatus: success ? 'pass' : 'fail',
    ...counts,
    log: renderLog(reports, counts, success, input.verbose),
    files: reports.map((report) => ({
      path: report.path,
      runs: report.runs.map((run) => ({ name: run.name, status: run.status })),
    })),
  };
}

async function runFile(file: TestFile, scope: Scope): Promise<FileReport> {
  let parsed: Awaited<ReturnType<typeof parseTestFile>>;
  try {
    parsed = await parseTestFile(file.path, file.text);
  } catch (error) {
    if (!(error instanceof TestFileError)) throw error;
    const runs = uniqueRunNames(file.text).map((name) => ({ name, status: 'error' as const }));
    return { path: file.path, status: 'fail', error: error.message, runs };
  }
  const fileScope = await withVariablesBlock(scope, parsed.variables, 'file variables block');
  const runs: RunReport[] = [];
  for (const run of parsed.runs) runs.push(await decideRun(run, fileScope));
  const failed = runs.some((run) => run.status === 'fail' || run.status === 'error');
  return { path: file.path, status: failed ? 'fail' : 'pass', runs };
}

/** A filtered-out file: its runs are listed as skipped, named from hcl2json when it parses. */
async function skipFile(file: TestFile): Promise<FileReport> {
  let names: string[];
  try {
    names = (await parseTestFile(file.path, file.text)).runs.map((run) => run.name);
  } catch {
    names = uniqueRunNames(file.text);
  }
  return { path: file.path, status: 'skip', runs: names.map((name) => ({ name, status: 'skip' as const })) };
}

function uniqueRunNames(text: string): string[] {
  return [...new Set(runNamesInSource(text))];
}
