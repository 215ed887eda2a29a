/**
 * A sensitive module test variable's value never reaches a test run's log: the emulator shows
 * `(sensitive value)` where it would show the value, as Terraform does, in a failed assert's
 * detail, in every error, in the verbose variables line, and for every value computed from it.
 */

import { describe, expect, it } from 'vitest';
import type { ModuleVariable } from '../../../src/emulator/registry/tests/variables.ts';
import { decideOne, oneAssertFile } from './helpers.ts';

const SECRET = 'TestVarSecret_888zz';

/** TF_VAR_<name> set to `value`, sensitive unless said otherwise. */
const variable = (name: string, value: string, sensitive = true): ModuleVariable => ({
  key: `TF_VAR_${name}`,
  value,
  category: 'env',
  sensitive,
});

/** The log of one run "check" asserting `condition`, its `variables` block given, over the module variables. */
async function logOf(condition: string, moduleVariables: ModuleVariable[], blockVariables: string[] = []) {
  const outcome = await decideOne(oneAssertFile(condition, blockVariables), { moduleVariables, verbose: true });
  return outcome.log;
}

describe('a sensitive module test variable', () => {
  it('is shown as (sensitive value) in a failed assert, and in the verbose variables line', async () => {
    const log = await logOf('var.cidr_block == "10.0.0.0/16"', [variable('cidr_block', SECRET)]);
    expect(log).toContain(
      '    Error: Test assertion failed (var.cidr_block == "10.0.0.0/16": (sensitive value) == "10.0.0.0/16")\n',
    );
    expect(log).toContain('    variables: cidr_block = (sensitive value) (TF_VAR_cidr_block)\n');
    expect(log).not.toContain(SECRET);
  });

  it('is shown as it is when the variable is not sensitive', async () => {
    const log = await logOf('var.cidr_block == "10.0.0.0/16"', [variable('cidr_block', SECRET, false)]);
    expect(log).toContain(`(var.cidr_block == "10.0.0.0/16": "${SECRET}" == "10.0.0.0/16")`);
  });

  it('keeps a list or map literal sensitive', async () => {
    const log = await logOf('length(var.zones) == 1', [variable('zones', `["${SECRET}", "b"]`)]);
    expect(log).toContain('(length(var.zones) == 1: length((sensitive value)) == 1)');
    expect(log).not.toContain(SECRET);
  });

  it('makes a value computed from it sensitive: a block variable, a template', async () => {
    const log = await logOf(
      'var.label == "x" || var.copy == "y"',
      [variable('cidr_block', SECRET)],
      [`label = "net-\${var.cidr_block}"`, 'copy = var.cidr_block'],
    );
    expect(log).toContain(
      '(var.label == "x" || var.copy == "y": (sensitive value) == "x" || (sensitive value) == "y")',
    );
    expect(log).toContain('copy = (sensitive value) (run variables block)');
    expect(log).toContain('label = (sensitive value) (run variables block)');
    expect(log).not.toContain(SECRET);
  });

  it('leaves an error_message that reads it as written, not interpolated', async () => {
    const text = oneAssertFile('var.cidr_block == "10.0.0.0/16"').replace(
      '"condition is false"',
      `"CIDR \${var.cidr_block} is not the default"`,
    );
    const outcome = await decideOne(text, { moduleVariables: [variable('cidr_block', SECRET)], verbose: true });
    expect(outcome.log).toContain(`error_message: CIDR \${var.cidr_block} is not the default`);
    expect(outcome.log).not.toContain(SECRET);
  });

  it.each([
    ['var.secret > 1', 'Error: Invalid operand for >: a number is required, got string (sensitive value)'],
    ['!var.secret', 'Error: Invalid operand for !: a bool is required, got string (sensitive value)'],
    ['var.secret', 'Error: Invalid condition result (var.secret): the condition must be a bool, got (sensitive value)'],
    [
      // a number computed from it (its length) is sensitive too
      'length(var.size) == 1',
      'Error: Invalid function argument for length(): a string, list or object is required, got number (sensitive value)',
    ],
    [`"a-\${var.list}" == "x"`, 'Error: Invalid template interpolation value: cannot include list (sensitive value)'],
  ])('is not told in an error: %s', async (condition, message) => {
    const moduleVariables = [variable('secret', SECRET), variable('list', `["${SECRET}"]`)];
    const outcome = await decideOne(oneAssertFile(condition, ['size = length(var.secret)']), { moduleVariables });
    expect(outcome.files[0]!.runs[0]!.status).toBe('error');
    expect(outcome.log).toContain(message);
    expect(outcome.log).not.toMatch(new RegExp(`${SECRET}|${SECRET.length}`));
  });

  it('is not told when it is no valid literal', async () => {
    const outcome = await decideOne(oneAssertFile('length(var.zones) == 1'), {
      moduleVariables: [variable('zones', `["${SECRET}"`)],
    });
    expect(outcome.log).toContain('Error: variable zones: value (sensitive value) is not a valid literal\n');
    expect(outcome.log).not.toContain(SECRET);
  });
});
