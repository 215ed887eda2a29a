/**
 * Which files run: `*.tftest.hcl` in the root and directly in the test
 * directory, in path order, runs in file order; filters skip the other files.
 */

import { describe, expect, it } from 'vitest';
import { decideTestRun } from '../../../src/emulator/registry/tests/index.ts';
import { input, oneAssertFile } from './helpers.ts';

const passing = (name: string) => oneAssertFile('true').replace('"check"', `"${name}"`);

const files = [
  { path: 'tests/b.tftest.hcl', text: passing('b1') },
  { path: 'tests/a.tftest.hcl', text: passing('a1') },
  { path: 'root.tftest.hcl', text: passing('r1') },
  { path: 'tests/nested/deep.tftest.hcl', text: passing('deep') },
  { path: 'other/x.tftest.hcl', text: passing('other') },
  { path: 'tests/readme.md', text: '# not a test' },
  { path: 'main.tf', text: 'variable "x" {}' },
];

describe('test files', () => {
  it('are the root and test-directory *.tftest.hcl files, in path order', async () => {
    const outcome = await decideTestRun(input({ files }));
    expect(outcome.files.map((f) => f.path)).toEqual(['root.tftest.hcl', 'tests/a.tftest.hcl', 'tests/b.tftest.hcl']);
    expect(outcome).toMatchObject({ testStatus: 'pass', passed: 3, failed: 0, errored: 0, skipped: 0 });
  });

  it('follow a custom test directory (leading ./ and trailing / ignored)', async () => {
    const outcome = await decideTestRun(input({ files, testDirectory: './other/' }));
    expect(outcome.files.map((f) => f.path)).toEqual(['other/x.tftest.hcl', 'root.tftest.hcl']);
  });

  it('default to "tests" when the test directory is empty', async () => {
    const outcome = await decideTestRun(input({ files, testDirectory: '' }));
    expect(outcome.files.map((f) => f.path)).toEqual(['root.tftest.hcl', 'tests/a.tftest.hcl', 'tests/b.tftest.hcl']);
  });

  it('run their run blocks in the order written, not alphabetically', async () => {
    const text = [passing('zeta'), passing('alpha'), passing('mid')].join('\n');
    const outcome = await decideTestRun(input({ files: [{ path: 'tests/order.tftest.hcl', text }] }));
    expect(outcome.files[0]!.runs.map((r) => r.name)).toEqual(['zeta', 'alpha', 'mid']);
  });
});

describe('filters', () => {
  it('run only the named files; the runs of the others are skipped', async () => {
    const outcome = await decideTestRun(input({ files, filters: ['tests/b.tftest.hcl'] }));
    expect(outcome.files).toEqual([
      { path: 'root.tftest.hcl', runs: [{ name: 'r1', status: 'skip' }] },
      { path: 'tests/a.tftest.hcl', runs: [{ name: 'a1', status: 'skip' }] },
      { path: 'tests/b.tftest.hcl', runs: [{ name: 'b1', status: 'pass' }] },
    ]);
    expect(outcome).toMatchObject({ testStatus: 'pass', passed: 1, failed: 0, errored: 0, skipped: 2 });
    expect(outcome.log).toBe(
      [
        'root.tftest.hcl... skip',
        '  run "r1"... skip',
        'tests/a.tftest.hcl... skip',
        '  run "a1"... skip',
        'tests/b.tftest.hcl... in progress',
        '  run "b1"... pass',
        'tests/b.tftest.hcl... tearing down',
        'tests/b.tftest.hcl... pass',
        '',
        'Success! 1 passed, 0 failed, 2 skipped.',
        '',
      ].join('\n'),
    );
  });

  it('match paths written with a leading ./', async () => {
    const outcome = await decideTestRun(input({ files, filters: ['./tests/a.tftest.hcl'] }));
    expect(outcome.files.map((f) => f.runs[0]!.status)).toEqual(['skip', 'pass', 'skip']);
  });

  it('skip a filtered-out file even when its HCL is invalid', async () => {
    const outcome = await decideTestRun(
      input({
        files: [
          { path: 'tests/bad.tftest.hcl', text: 'run "broken" {\n  assert {\n' },
          { path: 'tests/good.tftest.hcl', text: passing('good') },
        ],
        filters: ['tests/good.tftest.hcl'],
      }),
    );
    expect(outcome.files[0]).toEqual({ path: 'tests/bad.tftest.hcl', runs: [{ name: 'broken', status: 'skip' }] });
    expect(outcome).toMatchObject({ testStatus: 'pass', passed: 1, skipped: 1, errored: 0 });
  });
});
