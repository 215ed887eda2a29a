/**
 * Asserts the emulator cannot evaluate pass, and the log says which asserts
 * were evaluated, which were assumed to pass, and why.
 */

import { describe, expect, it } from 'vitest';
import { decideOne, oneAssertFile, statusOf } from './helpers.ts';

describe('an assert that cannot be evaluated is assumed to pass', () => {
  it.each([
    ['aws_vpc.this.cidr_block == "10.0.0.0/16"', 'reads resource attributes'],
    ['output.vpc_id != ""', 'reads module outputs'],
    ['module.network.vpc_id != ""', 'reads module outputs'],
    ['run.setup.vpc_id != ""', 'reads outputs of other runs'],
    ['data.aws_region.current.name == "x"', 'reads data sources'],
    ['local.name == "x"', 'reads local values'],
    ['format("%s", var.x) == "nope"', 'calls format()'],
    ['var.list[0] == "nope"', 'reads inside a variable (var.list[0])'],
    ['var.x + 1 == 0', 'uses the + operator'],
    ['var.x == "a" ? false : false', 'uses an unsupported expression (conditional)'],
  ])('%s', async (condition, why) => {
    const outcome = await decideOne(oneAssertFile(condition, ['x = "a"', 'list = ["a"]']));
    expect(outcome.files[0]!.runs).toEqual([{ name: 'check', status: 'pass' }]);
    expect(outcome.log).toContain(
      `  run "check"... pass\n    (evaluated: 0 asserts; assumed to pass: 1 assert that ${why})\n`,
    );
  });
});

describe('mixing evaluated and unevaluable parts', () => {
  it('false && <unknown> is false: the assert is evaluated and fails', async () => {
    expect(await statusOf('var.x == "b" && aws_vpc.this.id != ""', ['x = "a"'])).toBe('fail');
  });

  it('true || <unknown> is true: the assert is evaluated and passes', async () => {
    const outcome = await decideOne(oneAssertFile('var.x == "a" || aws_vpc.this.id != ""', ['x = "a"']));
    expect(outcome.files[0]!.runs[0]!.status).toBe('pass');
    expect(outcome.log).not.toContain('assumed to pass');
  });

  it('true && <unknown> is unknown: assumed to pass', async () => {
    expect(await statusOf('var.x == "a" && aws_vpc.this.id != ""', ['x = "a"'])).toBe('pass');
  });

  it('groups the reasons and counts each kind, plural verbs included', async () => {
    const text = [
      'run "mixed" {',
      '  variables {',
      '    x = "a"',
      '  }',
      '  assert {',
      '    condition     = var.x == "a"',
      '    error_message = "x"',
      '  }',
      '  assert {',
      '    condition     = aws_vpc.this.id != ""',
      '    error_message = "vpc"',
      '  }',
      '  assert {',
      '    condition     = aws_subnet.this.id != ""',
      '    error_message = "subnet"',
      '  }',
      '  assert {',
      '    condition     = output.name == "a"',
      '    error_message = "out"',
      '  }',
      '}',
    ].join('\n');
    const outcome = await decideOne(text);
    expect(outcome.log).toContain(
      '  run "mixed"... pass\n    (evaluated: 1 assert; assumed to pass: 2 asserts that read resource attributes, 1 assert that reads module outputs)\n',
    );
  });

  it('a variable set from an unevaluable expression makes asserts reading it assumed', async () => {
    const outcome = await decideOne(oneAssertFile('var.id == "x"', ['id = run.setup.vpc_id']));
    expect(outcome.files[0]!.runs[0]!.status).toBe('pass');
    expect(outcome.log).toContain(
      'assumed to pass: 1 assert that reads var.id, set from an expression the emulator cannot evaluate)',
    );
  });
});

describe('expect_failures', () => {
  it('the run passes without evaluating its asserts, and the log says so', async () => {
    const text = [
      'run "invalid_count" {',
      '  variables {',
      '    instance_count = -1',
      '  }',
      '  expect_failures = [var.instance_count]',
      '  assert {',
      '    condition     = var.instance_count > 0',
      '    error_message = "never evaluated"',
      '  }',
      '}',
    ].join('\n');
    const outcome = await decideOne(text);
    expect(outcome.files[0]!.runs).toEqual([{ name: 'invalid_count', status: 'pass' }]);
    expect(outcome.log).toContain(
      [
        '  run "invalid_count"... pass',
        '    expect_failures (var.instance_count) cannot be checked by the emulator: assumed the expected failures occurred',
        '    (evaluated: 0 asserts; assumed to pass: 1 assert that is in a run with expect_failures)',
      ].join('\n'),
    );
  });
});
