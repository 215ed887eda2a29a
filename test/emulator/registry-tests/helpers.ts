/**
 * Builders for the module-test emulation tests: a RunInput with defaults, and
 * a one-run file whose single assert's condition is under test.
 */

import { decideTestRun, type RunInput, type RunOutcome } from '../../../src/emulator/registry/tests/index.ts';

export function input(overrides: Partial<RunInput> = {}): RunInput {
  return {
    files: [],
    testDirectory: 'tests',
    filters: [],
    moduleVariables: [],
    runVariables: [],
    verbose: false,
    ...overrides,
  };
}

/** A test file with one run "check" setting `variables` (HCL attribute lines) and asserting `condition`. */
export function oneAssertFile(condition: string, variables: string[] = []): string {
  return [
    'run "check" {',
    '  variables {',
    ...variables.map((line) => `    ${line}`),
    '  }',
    '  assert {',
    `    condition     = ${condition}`,
    '    error_message = "condition is false"',
    '  }',
    '}',
    '',
  ].join('\n');
}

export async function decideOne(text: string, overrides: Partial<RunInput> = {}): Promise<RunOutcome> {
  return decideTestRun(input({ files: [{ path: 'tests/main.tftest.hcl', text }], ...overrides }));
}

/** The status of run "check" for one condition over the given variables. */
export async function statusOf(condition: string, variables: string[] = []): Promise<string> {
  const outcome = await decideOne(oneAssertFile(condition, variables));
  return outcome.files[0]!.runs[0]!.status;
}
