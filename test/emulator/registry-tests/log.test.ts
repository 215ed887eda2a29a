/**
 * The exact log text: shaped like `terraform test` output, plus what the
 * emulator evaluated and assumed; verbose adds command, variables and asserts.
 */

import { describe, expect, it } from 'vitest';
import { decideTestRun } from '../../../src/emulator/registry/tests/index.ts';
import { input } from './helpers.ts';

const network = [
  'variables {',
  '  cidr_block = "10.0.0.0/16"',
  '}',
  '',
  'run "defaults" {',
  '  command = plan',
  '',
  '  assert {',
  '    condition     = var.cidr_block == "10.0.0.0/16"',
  '    error_message = "unexpected CIDR block"',
  '  }',
  '}',
  '',
  'run "bad_cidr" {',
  '  variables {',
  '    cidr_block = "10.1.0.0/16"',
  '  }',
  '',
  '  assert {',
  '    condition     = var.cidr_block == "10.0.0.0/16"',
  `    error_message = "CIDR \${var.cidr_block} is not the default"`,
  '  }',
  '',
  '  assert {',
  '    condition     = aws_vpc.this.cidr_block == "10.0.0.0/16"',
  '    error_message = "VPC has the wrong CIDR block"',
  '  }',
  '}',
].join('\n');

const files = [{ path: 'tests/network.tftest.hcl', text: network }];

describe('log', () => {
  it('prints the small example exactly', async () => {
    const outcome = await decideTestRun(input({ files }));
    expect(outcome.log).toBe(
      [
        'tests/network.tftest.hcl... in progress',
        '  run "defaults"... pass',
        '  run "bad_cidr"... fail',
        '    Error: Test assertion failed (var.cidr_block == "10.0.0.0/16": "10.1.0.0/16" == "10.0.0.0/16")',
        '    (evaluated: 1 assert; assumed to pass: 1 assert that reads resource attributes)',
        'tests/network.tftest.hcl... tearing down',
        'tests/network.tftest.hcl... fail',
        '',
        'Failure! 1 passed, 1 failed.',
        '',
      ].join('\n'),
    );
    expect(outcome).toMatchObject({ testStatus: 'fail', passed: 1, failed: 1, errored: 0, skipped: 0 });
  });

  it('verbose adds the command, the variables with their sources, and each assert', async () => {
    const outcome = await decideTestRun(
      input({ files, verbose: true, moduleVariables: [{ key: 'TF_VAR_region', value: 'eu-west-1', category: 'env' }] }),
    );
    expect(outcome.log).toBe(
      [
        'tests/network.tftest.hcl... in progress',
        '  run "defaults"... pass',
        '    (evaluated: 1 assert)',
        '    command: plan',
        '    variables: cidr_block = "10.0.0.0/16" (file variables block), region = "eu-west-1" (TF_VAR_region)',
        '    assert 1 passed: var.cidr_block == "10.0.0.0/16"',
        '  run "bad_cidr"... fail',
        '    Error: Test assertion failed (var.cidr_block == "10.0.0.0/16": "10.1.0.0/16" == "10.0.0.0/16")',
        '    (evaluated: 1 assert; assumed to pass: 1 assert that reads resource attributes)',
        '    command: apply',
        '    variables: cidr_block = "10.1.0.0/16" (run variables block), region = "eu-west-1" (TF_VAR_region)',
        '    assert 1 failed: var.cidr_block == "10.0.0.0/16": "10.1.0.0/16" == "10.0.0.0/16"; error_message: CIDR 10.1.0.0/16 is not the default',
        '    assert 2 assumed to pass (reads resource attributes): aws_vpc.this.cidr_block == "10.0.0.0/16"',
        'tests/network.tftest.hcl... tearing down',
        'tests/network.tftest.hcl... fail',
        '',
        'Failure! 1 passed, 1 failed.',
        '',
      ].join('\n'),
    );
  });

  it('substitutes every variable read in a failed compound condition', async () => {
    const text = [
      'run "compound" {',
      '  variables {',
      '    name  = "web"',
      '    zones = ["a"]',
      '  }',
      '  assert {',
      '    condition     = var.name == "web" && length(var.zones) > 1',
      '    error_message = "need two zones"',
      '  }',
      '}',
    ].join('\n');
    const outcome = await decideTestRun(input({ files: [{ path: 'tests/c.tftest.hcl', text }] }));
    expect(outcome.log).toContain(
      '    Error: Test assertion failed (var.name == "web" && length(var.zones) > 1: "web" == "web" && length(["a"]) > 1)\n',
    );
  });

  it('with no test files: only the summary', async () => {
    const outcome = await decideTestRun(input());
    expect(outcome).toEqual({
      testStatus: 'pass',
      passed: 0,
      failed: 0,
      errored: 0,
      skipped: 0,
      log: 'Success! 0 passed, 0 failed.\n',
      files: [],
    });
  });
});
