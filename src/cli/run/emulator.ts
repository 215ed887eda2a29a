/**
 * `converge emulator`: start the emulator, print the one start-up line
 * (docs/emulator.md) on stdout, log to stderr, and stop cleanly on SIGINT/SIGTERM.
 */

import { FAULT_KINDS, type FaultKind, type FaultSettings } from '../../emulator/faults.ts';
import { startEmulator } from '../../emulator/server.ts';
import { ConvergeError } from '../../errors.ts';
import type { EmulatorFlags } from '../commands/emulator.ts';
import { EXIT_OK } from '../run-main.ts';

/** How long a stop may take once the signal came. */
const STOP_GRACE_MS = 2_000;

export async function runEmulator(flags: EmulatorFlags): Promise<number> {
  const port = number(
    '--port',
    flags.port,
    (n) => Number.isInteger(n) && n >= 0 && n <= 65535,
    'a port from 0 to 65535',
  );
  const latencyMs =
    flags.latency === undefined ? undefined : number('--latency', flags.latency, (n) => n >= 0, 'milliseconds >= 0');
  const faults = faultSettings(flags);
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const emulator = await startEmulator({
    host: flags.host,
    port,
    ...(flags.seed !== undefined && { seed: flags.seed }),
    ...(flags.state !== undefined && { statePath: flags.state }),
    ...(latencyMs !== undefined && { latencyMs }),
    ...(faults !== undefined && { faults }),
    rateLimit: flags.rateLimit,
    log,
  });
  // handlers first: a supervisor may signal as soon as it reads the line, and a signal
  // that arrives before Node has armed its handler kills the process without a clean stop
  const stopped = new Promise<void>((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      log(`${signal}: stopping`);
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  process.stdout.write(`${JSON.stringify({ url: emulator.url, tokens: emulator.tokens })}\n`);
  await stopped;
  // closing aborts what is in flight (connections cut, directory calls failed); whatever would
  // still hold the process (a timer of a call to a hung directory) does not keep it past the grace
  setTimeout(() => process.exit(EXIT_OK), STOP_GRACE_MS).unref();
  await emulator.close();
  return EXIT_OK;
}

function faultSettings(flags: EmulatorFlags): FaultSettings | undefined {
  if (flags.faultRate === undefined) return undefined;
  const rate = number('--fault-rate', flags.faultRate, (n) => n >= 0 && n <= 1, 'a number from 0 to 1');
  const kinds = flags.faultKinds
    .split(',')
    .map((k) => k.trim())
    .filter((k) => k !== '');
  const unknown = kinds.filter((k) => !FAULT_KINDS.includes(k as FaultKind));
  if (kinds.length === 0 || unknown.length > 0) {
    throw usage(
      `--fault-kinds: unknown kind(s) ${unknown.join(', ') || '(none given)'}`,
      `use a comma list of ${FAULT_KINDS.join(',')}`,
    );
  }
  return { rate, kinds: kinds as FaultKind[] };
}

function number(flag: string, value: string, ok: (n: number) => boolean, expected: string): number {
  const n = value.trim() === '' ? Number.NaN : Number(value);
  if (!Number.isFinite(n) || !ok(n)) throw usage(`${flag}: expected ${expected}, got "${value}"`);
  return n;
}

function usage(message: string, hint?: string): ConvergeError {
  return new ConvergeError('INPUT_INVALID', message, hint === undefined ? {} : { hint });
}
