/**
 * `converge test run --timeout`: one deadline for the whole command, from the upload to the
 * report. Every request carries its signal, so a request the platform holds open ends at the
 * deadline as a sleep does; what was left undone is said in the error.
 */
import { ConvergeError } from '../../errors.ts';

export class Deadline {
  readonly at: number;
  /** The flag as the user wrote it (`30m`), for messages. */
  readonly flag: string;
  /** Aborted at the deadline. */
  readonly signal: AbortSignal;

  constructor(at: number, flag: string) {
    this.at = at;
    this.flag = flag;
    const left = at - Date.now();
    this.signal = left > 0 ? AbortSignal.timeout(left) : AbortSignal.abort();
  }

  get remainingMs(): number {
    return Math.max(0, this.at - Date.now());
  }

  /** Whether the deadline has come: the signal fired, or its time is past (a timer fires late on a busy loop). */
  passed(): boolean {
    return this.signal.aborted || Date.now() >= this.at;
  }

  /** `work` within the deadline; past it, the command ends with `undone` said. */
  async within<T>(undone: string, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    // past it already (a long pack): nothing more is sent
    if (this.passed()) throw this.error(undone);
    try {
      return await work(this.signal);
    } catch (error) {
      if (this.passed()) throw this.error(undone, error);
      throw error;
    }
  }

  /** The command's end at the deadline: `what` was not done. */
  error(what: string, cause?: unknown): ConvergeError {
    return new ConvergeError('INTERRUPTED', `converge test run did not end within --timeout ${this.flag}: ${what}`, {
      hint: 'give the command more time with --timeout (e.g. --timeout 2h)',
      ...(cause !== undefined && { cause }),
    });
  }
}
