/**
 * Where a run's variables come from and which source wins: module test
 * variables (env, TF_VAR_<name>) < the run's API variables < the file's
 * `variables` block < the run block's `variables` block.
 */

import { describe, expect, it } from 'vitest';
import { decideOne } from './helpers.ts';

/** A file asserting var.region equals `expected`; optional file- and run-level variables blocks. */
function regionFile(expected: string, blocks: { file?: string; run?: string }): string {
  return [
    ...(blocks.file ? ['variables {', `  region = ${blocks.file}`, '}'] : []),
    'run "check" {',
    ...(blocks.run ? ['  variables {', `    region = ${blocks.run}`, '  }'] : []),
    '  assert {',
    `    condition     = var.region == "${expected}"`,
    '    error_message = "wrong region"',
    '  }',
    '}',
  ].join('\n');
}

const env = (value: string) => [{ key: 'TF_VAR_region', value, category: 'env' }];
const api = (value: string) => [{ key: 'region', value }];

async function statusFor(expected: string, sources: { env?: string; api?: string; file?: string; run?: string }) {
  const outcome = await decideOne(regionFile(expected, sources), {
    moduleVariables: sources.env === undefined ? [] : env(sources.env),
    runVariables: sources.api === undefined ? [] : api(sources.api),
  });
  return outcome.files[0]!.runs[0]!.status;
}

describe('precedence of the four variable sources', () => {
  const all = { env: 'from-env', api: '"from-api"', file: '"from-file"', run: '"from-run"' };

  it('the run block wins over everything', async () => {
    expect(await statusFor('from-run', all)).toBe('pass');
    expect(await statusFor('from-file', all)).toBe('fail');
  });

  it('without a run block value, the file block wins over API and env', async () => {
    expect(await statusFor('from-file', { ...all, run: undefined })).toBe('pass');
    expect(await statusFor('from-api', { ...all, run: undefined })).toBe('fail');
  });

  it('without test-file values, the API variables win over env', async () => {
    expect(await statusFor('from-api', { env: 'from-env', api: '"from-api"' })).toBe('pass');
    expect(await statusFor('from-env', { env: 'from-env', api: '"from-api"' })).toBe('fail');
  });

  it('env alone is used', async () => {
    expect(await statusFor('from-env', { env: 'from-env' })).toBe('pass');
  });

  it('a file-level value can be computed from an API variable', async () => {
    const text = [
      'variables {',
      `  name = "web-\${var.env}"`,
      '}',
      'run "check" {',
      '  assert {',
      '    condition     = var.name == "web-prod"',
      '    error_message = "bad name"',
      '  }',
      '}',
    ].join('\n');
    const outcome = await decideOne(text, { runVariables: [{ key: 'env', value: '"prod"' }] });
    expect(outcome.files[0]!.runs[0]!.status).toBe('pass');
  });
});

describe('TF_VAR_ mapping from module test variables', () => {
  it('only category env variables named TF_VAR_<name> set var.<name>', async () => {
    const text = [
      'run "check" {',
      '  assert {',
      '    condition     = var.region == "eu-west-1" && var.count == 3 && var.zones == ["a", "b"]',
      '    error_message = "bad"',
      '  }',
      '}',
    ].join('\n');
    const outcome = await decideOne(text, {
      moduleVariables: [
        { key: 'TF_VAR_region', value: 'eu-west-1', category: 'env' },
        { key: 'TF_VAR_count', value: '3', category: 'env' },
        { key: 'TF_VAR_zones', value: '["a", "b"]', category: 'env' },
        { key: 'region', value: '"us-east-1"', category: 'terraform' },
        { key: 'AWS_REGION', value: 'us-east-1', category: 'env' },
      ],
    });
    expect(outcome.files[0]!.runs).toEqual([{ name: 'check', status: 'pass' }]);
  });

  it('a terraform-category variable does not set var.<name>', async () => {
    const text = 'run "check" {\n  assert {\n    condition = var.region == "x"\n    error_message = "m"\n  }\n}\n';
    const outcome = await decideOne(text, {
      moduleVariables: [{ key: 'region', value: '"x"', category: 'terraform' }],
    });
    expect(outcome.files[0]!.runs).toEqual([{ name: 'check', status: 'error' }]);
    expect(outcome.log).toContain('    Error: variable region has no value\n');
  });

  it('an env value is the raw string, not parsed: TF_VAR_name="quoted" keeps its quotes', async () => {
    const text =
      'run "check" {\n  assert {\n    condition = var.name == "\\"quoted\\""\n    error_message = "m"\n  }\n}\n';
    const outcome = await decideOne(text, {
      moduleVariables: [{ key: 'TF_VAR_name', value: '"quoted"', category: 'env' }],
    });
    expect(outcome.files[0]!.runs[0]!.status).toBe('pass');
  });
});

describe('API variable values are configuration-language literals', () => {
  it.each([
    ['"eu-west-1"', 'var.v == "eu-west-1"'],
    ['3', 'var.v == 3'],
    ['true', 'var.v == true'],
    ['["a","b"]', 'length(var.v) == 2 && var.v == ["a", "b"]'],
    ['{ env = "dev" }', 'length(var.v) == 1'],
  ])('%s', async (value, condition) => {
    const text = `run "check" {\n  assert {\n    condition = ${condition}\n    error_message = "m"\n  }\n}\n`;
    const outcome = await decideOne(text, { runVariables: [{ key: 'v', value }] });
    expect(outcome.files[0]!.runs[0]!.status).toBe('pass');
  });

  it('a value that is not a literal errors the runs that read it', async () => {
    const text = 'run "check" {\n  assert {\n    condition = var.v == "x"\n    error_message = "m"\n  }\n}\n';
    const outcome = await decideOne(text, { runVariables: [{ key: 'v', value: 'eu-west-1' }] });
    expect(outcome.files[0]!.runs[0]!.status).toBe('error');
    expect(outcome.log).toContain('Error: variable v: value "eu-west-1" is an expression, not a literal');
  });
});
