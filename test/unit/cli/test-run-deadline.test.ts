/**
 * `converge test run --timeout`: one deadline for every request of the command
 * (src/cli/run/test-run-deadline.ts); the request in flight at the deadline ends there, and the
 * error says what was left undone.
 */
import { describe, expect, it } from 'vitest';
import { Deadline } from '../../../src/cli/run/test-run-deadline.ts';
import { ConvergeError } from '../../../src/errors.ts';

/** A request the server never answers: it ends only when its signal aborts. */
const heldOpen = (signal: AbortSignal) =>
  new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }));

describe('the deadline of converge test run', () => {
  it('ends a request held open at the deadline, with what was left undone', async () => {
    const deadline = new Deadline(Date.now() + 50, '50ms');
    const error = await deadline.within('nothing was uploaded', heldOpen).catch((e: unknown) => e);
    expect(ConvergeError.is(error)).toBe(true);
    expect(error).toMatchObject({
      code: 'INTERRUPTED',
      message: 'converge test run did not end within --timeout 50ms: nothing was uploaded',
      hint: 'give the command more time with --timeout (e.g. --timeout 2h)',
    });
    expect(deadline.passed()).toBe(true);
    expect(deadline.remainingMs).toBe(0);
  });

  it('gives what the work gave, and lets its own errors through, before the deadline', async () => {
    const deadline = new Deadline(Date.now() + 60_000, '1m');
    await expect(deadline.within('x', async () => 'answer')).resolves.toBe('answer');
    const own = new ConvergeError('API_ERROR', 'POST /x: 404');
    await expect(
      deadline.within('x', async () => {
        throw own;
      }),
    ).rejects.toBe(own);
    expect(deadline.passed()).toBe(false);
    expect(deadline.remainingMs).toBeGreaterThan(50_000);
  });

  it('refuses work once the deadline has passed: the signal is already aborted', async () => {
    const deadline = new Deadline(Date.now() - 1, '1s');
    let started = false;
    const error = await deadline
      .within('the upload to cv-1 did not finish', async (signal) => {
        signal.throwIfAborted();
        started = true;
      })
      .catch((e: unknown) => e);
    expect(started).toBe(false);
    expect((error as Error).message).toBe(
      'converge test run did not end within --timeout 1s: the upload to cv-1 did not finish',
    );
  });
});
