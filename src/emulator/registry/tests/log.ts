/**
 * The log text of an emulated test run, shaped like `terraform test` output
 * (`<file>... in progress`, `  run "<name>"... <status>`, `<file>... tearing
 * down`, `<file>... <status>`, then `Success!`/`Failure!` with counts), plus
 * what only the emulator knows: which asserts it evaluated and which it
 * assumed to pass, and why. Verbose adds the command, the variables with their
 * sources, and one line per assert.
 */

import type { Reason } from './reasons.ts';
import type { AssertVerdict, RunDecision } from './run-decision.ts';
import { shownValue } from './values.ts';

export type RunReport = RunDecision | { name: string; status: 'skip' | 'error' };

export interface FileReport {
  path: string;
  status: 'pass' | 'fail' | 'skip';
  /** Why the whole file could not run (parse error); its runs are then `error`. */
  error?: string;
  runs: RunReport[];
}

export interface Counts {
  passed: number;
  failed: number;
  errored: number;
  skipped: number;
}

export function renderLog(files: FileReport[], counts: Counts, success: boolean, verbose: boolean): string {
  const lines = files.flatMap((file) => fileLines(file, verbose));
  if (lines.length > 0) lines.push('');
  lines.push(summaryLine(counts, success));
  return `${lines.join('\n')}\n`;
}

function fileLines(file: FileReport, verbose: boolean): string[] {
  const runs = file.runs.flatMap((run) => runLines(run, verbose));
  if (file.status === 'skip') return [`${file.path}... skip`, ...runs];
  const error = file.error === undefined ? [] : [`  Error: ${file.error}`];
  return [
    `${file.path}... in progress`,
    ...error,
    ...runs,
    `${file.path}... tearing down`,
    `${file.path}... ${file.status}`,
  ];
}

function runLines(run: RunReport, verbose: boolean): string[] {
  const lines = [`  run "${run.name}"... ${run.status}`];
  if (!('asserts' in run)) return lines;
  for (const assert of run.asserts) {
    if (assert.result === 'failed') lines.push(`    Error: Test assertion failed (${assert.detail})`);
  }
  for (const error of run.errors) lines.push(`    Error: ${error}`);
  if (run.expectFailures.length > 0) {
    lines.push(
      `    expect_failures (${run.expectFailures.join(', ')}) cannot be checked by the emulator: assumed the expected failures occurred`,
    );
  }
  const assumed = run.asserts.some((a) => a.result === 'assumed');
  if (verbose || assumed || run.status === 'fail') lines.push(`    (${assertSummary(run.asserts)})`);
  if (verbose) lines.push(...verboseLines(run));
  return lines;
}

/** "evaluated: 1 assert; assumed to pass: 1 assert that reads resource attributes" */
function assertSummary(asserts: AssertVerdict[]): string {
  const evaluated = asserts.filter((a) => a.result === 'passed' || a.result === 'failed').length;
  const groups = new Map<string, { reason: Reason; count: number }>();
  for (const assert of asserts) {
    if (assert.result !== 'assumed') continue;
    const first = assert.reasons[0] ?? { one: 'cannot be evaluated', many: 'cannot be evaluated' };
    const group = groups.get(first.one) ?? { reason: first, count: 0 };
    group.count += 1;
    groups.set(first.one, group);
  }
  const parts = [`evaluated: ${countAsserts(evaluated)}`];
  if (groups.size > 0) {
    const described = [...groups.values()].map(
      ({ reason, count }) => `${countAsserts(count)} that ${count === 1 ? reason.one : reason.many}`,
    );
    parts.push(`assumed to pass: ${described.join(', ')}`);
  }
  return parts.join('; ');
}

function countAsserts(count: number): string {
  return `${count} ${count === 1 ? 'assert' : 'asserts'}`;
}

function verboseLines(run: RunDecision): string[] {
  const variables = [...run.scope.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, binding]) => {
      if (binding.kind === 'value')
        return `${name} = ${shownValue(binding.value, binding.sensitive)} (${binding.source})`;
      if (binding.kind === 'unknown')
        return `${name} = (an expression the emulator cannot evaluate) (${binding.source})`;
      return `${name} = (invalid: ${binding.error.message}) (${binding.source})`;
    });
  const lines = [
    `    command: ${run.command}`,
    `    variables: ${variables.length > 0 ? variables.join(', ') : 'none'}`,
  ];
  for (const assert of run.asserts) {
    const head = `    assert ${assert.number}`;
    if (assert.result === 'passed') lines.push(`${head} passed: ${assert.condition}`);
    if (assert.result === 'failed')
      lines.push(`${head} failed: ${assert.detail}; error_message: ${assert.errorMessage}`);
    if (assert.result === 'error') lines.push(`${head} errored: ${assert.message}`);
    if (assert.result === 'assumed') {
      lines.push(`${head} assumed to pass (${assert.reasons.map((r) => r.one).join('; ')}): ${assert.condition}`);
    }
  }
  return lines;
}

function summaryLine(counts: Counts, success: boolean): string {
  const parts = [`${counts.passed} passed`, `${counts.failed} failed`];
  if (counts.errored > 0) parts.push(`${counts.errored} errored`);
  if (counts.skipped > 0) parts.push(`${counts.skipped} skipped`);
  return `${success ? 'Success!' : 'Failure!'} ${parts.join(', ')}.`;
}
