/**
 * The policy check runs without V8's optimizing compiler, which is on again after it, and when it
 * is the run's last work without starting an incremental marking of the heap
 * (src/policy/without-turbofan.ts; what it saves: docs/policies.md, "Cost"). V8 gives no way to
 * read a flag back, so this checks the calls made to set them.
 */
import v8 from 'node:v8';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { withoutTurbofan } from '../../../src/policy/without-turbofan.ts';

// the module converge loads is this one (node:v8 is one object): its calls are recorded, not made
const setFlags = vi.spyOn(v8, 'setFlagsFromString').mockImplementation(() => {});
afterAll(() => setFlags.mockRestore());

describe('withoutTurbofan', () => {
  const execArgv = process.execArgv;
  const nodeOptions = process.env.NODE_OPTIONS;
  beforeEach(() => {
    setFlags.mockClear();
    process.execArgv = [];
    delete process.env.NODE_OPTIONS;
  });
  afterEach(() => {
    process.execArgv = execArgv;
    if (nodeOptions === undefined) delete process.env.NODE_OPTIONS;
    else process.env.NODE_OPTIONS = nodeOptions;
  });

  it('turns Turbofan off for the work, on after it, and returns what the work gave', () => {
    const seen: unknown[][] = [];
    const result = withoutTurbofan(1, () => {
      seen.push(...setFlags.mock.calls);
      return 42;
    });
    expect(result).toBe(42);
    expect(seen).toEqual([['--no-turbofan']]);
    expect(setFlags.mock.calls).toEqual([['--no-turbofan'], ['--turbofan']]);
  });

  it('turns it on again when the work throws, and the error goes on', () => {
    expect(() =>
      withoutTurbofan(1, () => {
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(setFlags.mock.calls).toEqual([['--no-turbofan'], ['--turbofan']]);
  });

  it.each([
    ['node flags', () => (process.execArgv = ['--max-opt=2'])],
    ['node flags', () => (process.execArgv = ['--jitless'])],
    ['node flags', () => (process.execArgv = ['--no_turbofan'])],
    ['NODE_OPTIONS', () => (process.env.NODE_OPTIONS = '--max_opt=0')],
    ['NODE_OPTIONS', () => (process.env.NODE_OPTIONS = '--no-opt --enable-source-maps')],
    ['NODE_OPTIONS', () => (process.env.NODE_OPTIONS = '--turbofan')],
  ])('leaves the compilers alone when the user chose them (%s)', (_where, choose) => {
    choose();
    expect(withoutTurbofan(1, () => 'done')).toBe('done');
    expect(setFlags).not.toHaveBeenCalled();
  });

  it('changes nothing when the check runs no policy', () => {
    expect(withoutTurbofan(0, () => 'nothing to check')).toBe('nothing to check');
    expect(setFlags).not.toHaveBeenCalled();
  });

  it('turns incremental marking off for good when the check ends the run, and only then', () => {
    withoutTurbofan(1, () => undefined, { endsRun: true });
    expect(setFlags.mock.calls).toEqual([['--no-incremental-marking'], ['--no-turbofan'], ['--turbofan']]);
    setFlags.mockClear();
    withoutTurbofan(0, () => undefined, { endsRun: true });
    expect(setFlags).not.toHaveBeenCalled();
  });

  it.each([
    ['--single-threaded-gc', [['--no-turbofan'], ['--turbofan']]],
    ['--no_incremental_marking', [['--no-turbofan'], ['--turbofan']]],
    ['--no-opt', [['--no-incremental-marking']]],
  ])('leaves to the user what they chose (%s) and does the rest', (flag, calls) => {
    process.env.NODE_OPTIONS = flag;
    expect(withoutTurbofan(1, () => 'done', { endsRun: true })).toBe('done');
    expect(setFlags.mock.calls).toEqual(calls);
  });

  it('does not take other flags for a choice of compilers', () => {
    process.execArgv = ['--trace-opt', '--optimize-for-size'];
    process.env.NODE_OPTIONS = '--max-old-space-size=4096';
    withoutTurbofan(1, () => undefined);
    expect(setFlags.mock.calls).toEqual([['--no-turbofan'], ['--turbofan']]);
  });
});
