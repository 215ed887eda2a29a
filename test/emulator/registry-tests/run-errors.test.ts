/**
 * Runs that error rather than fail: a variable read but never set, a value
 * Terraform would reject, and test files hcl2json cannot parse.
 */

import { describe, expect, it } from 'vitest';
import { decideOne, oneAssertFile } from './helpers.ts';

describe('missing variables', () => {
  it('a variable referenced but not set errors the run', async () => {
    const outcome = await decideOne(oneAssertFile('var.region == "eu-west-1"'));
    expect(outcome.files[0]!.runs).toEqual([{ name: 'check', status: 'error' }]);
    expect(outcome).toMatchObject({ testStatus: 'fail', passed: 0, failed: 0, errored: 1, skipped: 0 });
    expect(outcome.log).toContain('  run "check"... error\n    Error: variable region has no value\n');
  });

  it('also when it is read inside a part that cannot be evaluated', async () => {
    const outcome = await decideOne(oneAssertFile('aws_instance.web.ami == var.ami'));
    expect(outcome.files[0]!.runs[0]!.status).toBe('error');
    expect(outcome.log).toContain('Error: variable ami has no value');
  });

  it('also when the other side of && already decides the result', async () => {
    const outcome = await decideOne(oneAssertFile('false && var.enabled'));
    expect(outcome.files[0]!.runs[0]!.status).toBe('error');
    expect(outcome.log).toContain('Error: variable enabled has no value');
  });

  it('a file-level value computed from an unset variable errors the runs that read it', async () => {
    const text = ['variables {', `  name = "web-\${var.env}"`, '}', oneAssertFile('var.name == "web-prod"')].join('\n');
    const outcome = await decideOne(text);
    expect(outcome.files[0]!.runs[0]!.status).toBe('error');
    expect(outcome.log).toContain('Error: variable name: variable env has no value');
  });

  it('other runs of the same file still run', async () => {
    const text = [
      oneAssertFile('var.missing == 1'),
      oneAssertFile('var.x == 1', ['x = 1']).replace('"check"', '"ok"'),
    ].join('\n');
    const outcome = await decideOne(text);
    expect(outcome.files[0]!.runs).toEqual([
      { name: 'check', status: 'error' },
      { name: 'ok', status: 'pass' },
    ]);
  });
});

describe('values Terraform would reject', () => {
  it.each([
    ['var.s > 1', 's = "abc"', 'Error: Invalid operand for >: a number is required, got string "abc"'],
    ['var.n && true', 'n = 3', 'Error: Invalid operand for &&: a bool is required, got number 3'],
    [
      'length(var.n) == 1',
      'n = 3',
      'Error: Invalid function argument for length(): a string, list or object is required, got number 3',
    ],
    ['var.s', 's = "yes"', 'Error: Invalid condition result (var.s): the condition must be a bool, got "yes"'],
  ])('%s with %s', async (condition, variable, message) => {
    const outcome = await decideOne(oneAssertFile(condition, [variable]));
    expect(outcome.files[0]!.runs[0]!.status).toBe('error');
    expect(outcome.log).toContain(`    ${message}\n`);
  });
});

describe('a test file with invalid HCL', () => {
  const broken = ['run "first" {', '  assert {', '    condition = var.x == 1', '}', '', 'run "second" {', '}'].join(
    '\n',
  );

  it('errors every run found in it, logs the parse error, and never throws', async () => {
    const outcome = await decideOne(broken);
    expect(outcome.files).toEqual([
      {
        path: 'tests/main.tftest.hcl',
        runs: [
          { name: 'first', status: 'error' },
          { name: 'second', status: 'error' },
        ],
      },
    ]);
    expect(outcome).toMatchObject({ testStatus: 'fail', passed: 0, failed: 0, errored: 2, skipped: 0 });
    expect(outcome.log).toMatch(
      /^tests\/main\.tftest\.hcl\.\.\. in progress\n {2}Error: parse config: \[tests\/main\.tftest\.hcl:\d+,\d+-\d+: .+\]\n {2}run "first"\.\.\. error\n {2}run "second"\.\.\. error\ntests\/main\.tftest\.hcl\.\.\. tearing down\ntests\/main\.tftest\.hcl\.\.\. fail\n/,
    );
  });

  it('does not stop the other files', async () => {
    const outcome = await decideOne('', {
      files: [
        { path: 'tests/a.tftest.hcl', text: broken },
        { path: 'tests/b.tftest.hcl', text: oneAssertFile('true') },
      ],
    });
    expect(outcome.files.map((f) => f.runs)).toEqual([
      [
        { name: 'first', status: 'error' },
        { name: 'second', status: 'error' },
      ],
      [{ name: 'check', status: 'pass' }],
    ]);
  });

  it('duplicate run names are an error of the file, as in Terraform', async () => {
    const outcome = await decideOne([oneAssertFile('true'), oneAssertFile('true')].join('\n'));
    expect(outcome.files[0]!.runs).toEqual([{ name: 'check', status: 'error' }]);
    expect(outcome.log).toContain('  Error: Duplicate "run" block names: a run named "check" is defined 2 times\n');
  });
});

describe('a test file that cannot be parsed and names no runs', () => {
  it('fails the test run although no run is counted', async () => {
    const outcome = await decideOne('variables {\n  x = \n}\n');
    expect(outcome).toMatchObject({ testStatus: 'fail', passed: 0, failed: 0, errored: 0, skipped: 0 });
    expect(outcome.files).toEqual([{ path: 'tests/main.tftest.hcl', runs: [] }]);
    expect(outcome.log).toContain('tests/main.tftest.hcl... fail\n\nFailure! 0 passed, 0 failed.\n');
  });
});
