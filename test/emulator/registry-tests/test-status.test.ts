/**
 * testStatus is `pass` only when no run failed or errored; skipped runs and
 * asserts assumed to pass do not fail it. `command = plan` and `apply` both run.
 */

import { describe, expect, it } from 'vitest';
import { decideTestRun } from '../../../src/emulator/registry/tests/index.ts';
import { input, oneAssertFile } from './helpers.ts';

const named = (name: string, condition: string, variables: string[] = []) =>
  oneAssertFile(condition, variables).replace('"check"', `"${name}"`);

async function outcomeOf(...runs: string[]) {
  return decideTestRun(input({ files: [{ path: 'tests/s.tftest.hcl', text: runs.join('\n') }] }));
}

describe('testStatus', () => {
  it('pass when every run passes', async () => {
    const outcome = await outcomeOf(named('a', 'true'), named('b', 'aws_s3_bucket.b.id != ""'));
    expect(outcome).toMatchObject({ testStatus: 'pass', passed: 2, failed: 0, errored: 0, skipped: 0 });
    expect(outcome.log.endsWith('tests/s.tftest.hcl... pass\n\nSuccess! 2 passed, 0 failed.\n')).toBe(true);
  });

  it('fail when one run failed', async () => {
    const outcome = await outcomeOf(named('a', 'true'), named('b', 'false'));
    expect(outcome).toMatchObject({ testStatus: 'fail', passed: 1, failed: 1, errored: 0, skipped: 0 });
    expect(outcome.log.endsWith('tests/s.tftest.hcl... fail\n\nFailure! 1 passed, 1 failed.\n')).toBe(true);
  });

  it('fail when one run errored, though none failed', async () => {
    const outcome = await outcomeOf(named('a', 'true'), named('b', 'var.unset == 1'));
    expect(outcome).toMatchObject({ testStatus: 'fail', passed: 1, failed: 0, errored: 1, skipped: 0 });
    expect(outcome.log.endsWith('Failure! 1 passed, 0 failed, 1 errored.\n')).toBe(true);
  });

  it('pass when the only other runs are skipped by filters', async () => {
    const outcome = await decideTestRun(
      input({
        files: [
          { path: 'tests/a.tftest.hcl', text: named('a', 'true') },
          { path: 'tests/b.tftest.hcl', text: named('b', 'false') },
        ],
        filters: ['tests/a.tftest.hcl'],
      }),
    );
    expect(outcome).toMatchObject({ testStatus: 'pass', passed: 1, failed: 0, errored: 0, skipped: 1 });
  });

  it('plan and apply runs are both decided', async () => {
    const plan = named('p', 'false').replace('run "p" {', 'run "p" {\n  command = plan');
    const apply = named('a', 'true').replace('run "a" {', 'run "a" {\n  command = apply');
    const outcome = await outcomeOf(plan, apply);
    expect(outcome.files[0]!.runs).toEqual([
      { name: 'p', status: 'fail' },
      { name: 'a', status: 'pass' },
    ]);
  });

  it('a file with no runs passes', async () => {
    const outcome = await outcomeOf('variables {\n  x = 1\n}\n');
    expect(outcome).toMatchObject({
      testStatus: 'pass',
      passed: 0,
      failed: 0,
      files: [{ path: 'tests/s.tftest.hcl', runs: [] }],
    });
  });
});
