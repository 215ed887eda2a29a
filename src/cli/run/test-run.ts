/**
 * `converge test run ORG/NAME/PROVIDER`: packs the module directory with its
 * tests, uploads it as a configuration version of the module's tests, follows
 * the test run to its end and reports it (the log, JUnit XML or JSON). Exit 0
 * only for a finished run whose tests passed. Ctrl-C cancels the run, a second
 * one force-cancels it, a third quits (130). docs/commands.md has the details.
 */
import { mkdir, stat, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, posix, resolve } from 'node:path';
import { sleep } from '../../api/sleep.ts';
import { ConvergeError } from '../../errors.ts';
import { durationSeconds } from '../../manifest/duration.ts';
import { packModule } from '../../registry/pack.ts';
import { colorsFor } from '../../ui/colors.ts';
import { formatDuration } from '../../ui/ink/theme.ts';
import { type Output, processOutput } from '../../ui/output.ts';
import { terminalLine, terminalLines } from '../../ui/terminal-text.ts';
import {
  formatCounts,
  outcomeOf,
  passed,
  type TestRunEvent,
  type TestRunEventBody,
  type TestRunState,
} from '../../ui/test-run/events.ts';
import { formatTestRunJunit, parseTestLog } from '../../ui/test-run/junit.ts';
import { chooseTestRunReporter, terminalRun } from '../../ui/test-run/reporter.ts';
import { EXIT_ERROR, EXIT_OK } from '../run-main.ts';
import { loadCommandConfig } from '../session.ts';
import { checkWritable } from '../writable.ts';
import { isFinal, platformClient, TestRunApi } from './test-run-api.ts';
import {
  checkRunVariables,
  type ModuleAddress,
  parseModuleAddress,
  parseRunVariables,
  type RunVariable,
} from './test-run-args.ts';
import { Deadline } from './test-run-deadline.ts';

export const TEST_RUN_FORMATS = ['text', 'junit', 'json'] as const;
export type TestRunFormat = (typeof TEST_RUN_FORMATS)[number];

export interface TestRunFlags {
  config?: string;
  allowCodeConfig?: boolean;
  color: boolean;
  moduleDir: string;
  dir: string;
  var: string[];
  filter: string[];
  verbose: boolean;
  wait: boolean;
  format: TestRunFormat;
  json: boolean;
  output?: string;
  progress: boolean;
  /** The longest the whole command may take, as a duration (`30m`). */
  timeout: string;
}

/** The most of a run's log that is read and reported; the rest is cut with a note. */
export const MAX_LOG_BYTES = 10 * 1024 * 1024;

/** The test directory the platform reads when none is named (and a run the upload queues uses). */
const DEFAULT_TEST_DIRECTORY = 'tests';

/** How long to look for the run an upload queued before giving up. */
const AUTOMATIC_RUN_TIMEOUT_MS = 60_000;
/** Polling: quick at first and after every change, then slower, at most every 2 s. */
const POLL_FIRST_MS = 250;
const POLL_MAX_MS = 2000;

export async function runTestRun(address: string, flags: TestRunFlags): Promise<number> {
  const started = Date.now();
  const deadline = new Deadline(started + timeoutOf(flags.timeout) * 1000, flags.timeout);
  const output = processOutput();
  const format: TestRunFormat = flags.json ? 'json' : flags.format;
  const module = parseModuleAddress(address);
  const variables = parseRunVariables(flags.var);
  await checkRunVariables(flags.var);
  const testDirectory = testDirectoryOf(flags.dir);
  const filters = flags.filter.map(normalizePath);
  if (!flags.wait && format === 'junit') {
    throw new ConvergeError('INPUT_INVALID', '--format junit needs the run to finish', {
      hint: 'leave out --no-wait, or use --format json for the queued run',
    });
  }
  if (flags.output) checkWritable(flags.output, '--output');
  const moduleDir = resolve(flags.moduleDir);
  await checkDirectory(moduleDir, '--module-dir');
  // the default may be absent: a module's tests may all be in its root, as the platform reads them
  // (no test file at all is said by checkTests); another directory must exist
  if (testDirectory !== DEFAULT_TEST_DIRECTORY) {
    await checkDirectory(resolve(moduleDir, testDirectory), '--dir', `${testDirectory} in ${flags.moduleDir}`);
  }
  const config = await loadCommandConfig(flags);

  // the explicit start is needed for anything the automatic run (default options) would not do
  const explicit =
    variables.length > 0 || filters.length > 0 || flags.verbose || testDirectory !== DEFAULT_TEST_DIRECTORY;
  const reporter = await chooseTestRunReporter({
    progress: flags.progress,
    stream: process.stderr,
    env: process.env,
    output,
    colors: colorsFor(process.stderr, flags.color),
  });
  const emit = (body: TestRunEventBody) => reporter.listener({ ...body, time: Date.now() } as TestRunEvent);
  const client = platformClient(config, (info) => emit({ type: 'retry', ...info }));
  const interrupts = new Interrupts();
  // SIGTERM (a CI runner's cancel) counts as a Ctrl-C: the run on the platform is canceled too
  process.on('SIGINT', interrupts.onSignal);
  process.on('SIGTERM', interrupts.onSignal);
  let closed = false;
  const closeReporter = async () => {
    if (closed) return;
    closed = true;
    await reporter.close();
  };
  try {
    const packed = await packModule(moduleDir);
    const testFiles = packed.files.filter((f) => isTestFile(f, testDirectory));
    checkTests(testFiles, filters, testDirectory, flags.moduleDir);
    emit({ type: 'packed', module: moduleName(module), files: packed.files.length, bytes: packed.size, testFiles });
    interrupts.beforeStart();

    const api = new TestRunApi(client, module);
    // every request below ends at --timeout's deadline, not only the following of the run
    const cv = await deadline.within('nothing was uploaded', (signal) => api.createConfigurationVersion(signal));
    interrupts.beforeStart();
    await deadline.within(
      `the upload to ${cv.id} did not finish (had the platform received it, it may queue a test run)`,
      (signal) => api.upload(cv.uploadUrl, packed.bytes, signal),
    );
    emit({ type: 'uploaded', configurationVersion: cv.id });
    // the upload queues a run with the default options (as the platform does); with options, converge
    // starts its own and follows only that one
    const run = explicit
      ? await deadline.within(
          'the start of the test run was not answered: a run may have started on the platform',
          (signal) => api.startRun(cv.id, { variables, filters, testDirectory, verbose: flags.verbose }, signal),
        )
      : await deadline.within(`no test run that the upload of ${cv.id} queued was found yet`, (signal) =>
          api.automaticRun(cv.id, AUTOMATIC_RUN_TIMEOUT_MS, signal),
        );
    emit({ type: 'run', run, created: explicit });

    if (!flags.wait) {
      await closeReporter();
      await report({ output, flags, format, module, run, log: '', elapsedMs: Date.now() - started, variables });
      return EXIT_OK;
    }

    const last = await follow(api, run, interrupts, emit, started, deadline);
    const log = last.logReadUrl ? await readLogSafely(api, last.logReadUrl, output, deadline) : '';
    const elapsedMs = Date.now() - started;
    emit({ type: 'done', run: last, elapsedMs });
    await closeReporter();
    await report({ output, flags, format, module, run: last, log, elapsedMs, variables });
    return passed(last) ? EXIT_OK : EXIT_ERROR;
  } finally {
    process.off('SIGINT', interrupts.onSignal);
    process.off('SIGTERM', interrupts.onSignal);
    await closeReporter();
    await client.close();
  }
}

/**
 * Ctrl-C while converge follows a run: the first asks for a cancel, the
 * second for a force-cancel, the third quits with 130. Before anything was
 * started the first one stops the command.
 */
class Interrupts {
  count = 0;
  #wake: AbortController = new AbortController();

  onSignal = (): void => {
    this.count++;
    if (this.count >= 3) process.exit(130);
    this.#wake.abort();
  };

  /** Between the steps before the upload: nothing was started, so an interrupt just stops. */
  beforeStart(): void {
    if (this.count > 0) {
      throw new ConvergeError('INTERRUPTED', 'interrupted before the upload: no test run was started');
    }
  }

  /** A signal that a Ctrl-C aborts: the poll's sleep ends at once. */
  get wake(): AbortSignal {
    if (this.#wake.signal.aborted) this.#wake = new AbortController();
    return this.#wake.signal;
  }
}

/** Polls the run until it ends, sending cancel and force-cancel as Ctrl-C asks. */
async function follow(
  api: TestRunApi,
  first: TestRunState,
  interrupts: Interrupts,
  emit: (body: TestRunEventBody) => void,
  started: number,
  deadline: Deadline,
): Promise<TestRunState> {
  let run = first;
  let delay = POLL_FIRST_MS;
  const cancel = { sent: false, forced: false, pendingShown: 0 };
  while (!isFinal(run.status)) {
    if (deadline.passed()) await timedOut(api, run, deadline.flag);
    const wake = interrupts.wake;
    if (interrupts.count > 0) await requestCancel(api, run, interrupts.count, cancel, emit);
    try {
      await sleep(Math.min(delay, deadline.remainingMs), wake);
    } catch {
      // woken by Ctrl-C: act on it now
    }
    let next: TestRunState;
    try {
      next = await api.getRun(run.id, deadline.signal);
    } catch (error) {
      // a poll the platform held open past the deadline ends there, as a sleep does
      if (deadline.passed()) await timedOut(api, run, deadline.flag);
      throw error;
    }
    delay = next.status === run.status ? Math.min(Math.round(delay * 1.5), POLL_MAX_MS) : POLL_FIRST_MS;
    run = next;
    emit({ type: 'status', run, elapsedMs: Date.now() - started });
  }
  return run;
}

/**
 * The platform takes a cancel only from a running run, and a force-cancel
 * only after a cancel: what cannot be sent yet waits for the next poll.
 */
async function requestCancel(
  api: TestRunApi,
  run: TestRunState,
  interrupts: number,
  state: { sent: boolean; forced: boolean; pendingShown: number },
  emit: (body: TestRunEventBody) => void,
): Promise<void> {
  const force = interrupts >= 2;
  if (state.forced || (state.sent && !force)) return;
  if (run.status !== 'running') {
    if (state.pendingShown < interrupts) emit({ type: 'cancel', force, outcome: 'pending' });
    state.pendingShown = interrupts;
    return;
  }
  if (!state.sent) {
    const answer = await api.cancel(run.id, false);
    state.sent = answer === 'sent';
    emit({ type: 'cancel', force: false, outcome: answer });
    if (!state.sent) {
      // refused: the run ended in the meantime; nothing more to send
      state.forced = true;
      return;
    }
  }
  if (force) {
    const answer = await api.cancel(run.id, true);
    state.forced = true;
    emit({ type: 'cancel', force: true, outcome: answer });
  }
}

/** Past `--timeout`: a running run is asked to stop (a queued one cannot be), and the command ends. */
async function timedOut(api: TestRunApi, run: TestRunState, flag: string): Promise<never> {
  const answer = run.status === 'running' ? await api.cancel(run.id, false).catch(() => 'refused') : 'queued';
  const what = answer === 'sent' ? 'a cancel was sent' : `it is left ${run.status}`;
  throw new ConvergeError(
    'INTERRUPTED',
    `test run ${terminalLine(run.id)} did not end within --timeout ${flag}: ${what}`,
    {
      hint: 'give the run more time with --timeout (e.g. --timeout 2h)',
    },
  );
}

/** The longest a Node timer waits (2^31 - 1 ms): past it, it would fire at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** `--timeout`: a duration (`30m`, `1h`, `90s`, or seconds), more than 0, at most MAX_TIMER_MS. */
function timeoutOf(flag: string): number {
  const seconds = durationSeconds(flag.trim());
  if (seconds !== undefined && seconds * 1000 > MAX_TIMER_MS) {
    throw new ConvergeError('INPUT_INVALID', `--timeout ${flag}: at most ${(MAX_TIMER_MS / 3_600_000) | 0}h`, {
      hint: 'the longest wait a timer can hold is about 24 days; a test run needs far less',
    });
  }
  if (seconds === undefined || seconds <= 0 || !Number.isSafeInteger(Math.ceil(seconds))) {
    throw new ConvergeError('INPUT_INVALID', `--timeout ${flag}: expected a duration such as 30m, 1h or 90s`, {
      hint: 'the longest the command may take, from the upload to the report',
    });
  }
  return seconds;
}

/**
 * A log that cannot be read does not hide the run's outcome: a note on stderr instead. A log past
 * MAX_LOG_BYTES is cut there, and says so in its last line.
 */
async function readLogSafely(api: TestRunApi, url: string, output: Output, deadline: Deadline): Promise<string> {
  try {
    const { text, truncated } = await api.readLog(url, MAX_LOG_BYTES, deadline.signal);
    if (!truncated) return text;
    const note = `[converge: the log is longer than ${MAX_LOG_BYTES / (1024 * 1024)} MiB; the rest was not read]`;
    output.err(`warning: ${note.slice(1, -1)}`);
    return `${text.replace(/[^\n]*$/, '')}${note}\n`;
  } catch (error) {
    // the run has ended: its outcome is reported without the log that did not come in time
    if (deadline.passed()) {
      output.err(`warning: the test run's log was not read within --timeout ${deadline.flag}`);
      return '';
    }
    if (!ConvergeError.is(error)) throw error;
    output.err(`warning: the test run's log could not be read: ${terminalLine(error.message)}`);
    return '';
  }
}

interface ReportInput {
  output: Output;
  flags: TestRunFlags;
  format: TestRunFormat;
  module: ModuleAddress;
  run: TestRunState;
  log: string;
  elapsedMs: number;
  variables: RunVariable[];
}

/** The report on stdout (or in --output, with a summary line on stdout). */
async function report(input: ReportInput): Promise<void> {
  const { output, flags, format, run } = input;
  const colors = colorsFor(process.stdout, flags.color && !flags.output && format === 'text');
  const summary = summaryLine(input);
  let text: string;
  if (format === 'json') text = `${JSON.stringify(jsonReport(input), null, 2)}\n`;
  else if (format === 'junit') {
    text = formatTestRunJunit({
      module: moduleName(input.module),
      run,
      log: input.log,
      elapsedMs: input.elapsedMs,
      timestamp: new Date(Date.now() - input.elapsedMs).toISOString(),
    });
  } else if (!flags.wait) text = `${terminalLine(run.id)}\n`;
  // the log is the module's and the server's text: on a terminal or in a CI log, no escape sequence of it runs
  else text = input.log.trim() === '' ? '' : `${terminalLines(input.log.trimEnd())}\n`;

  if (flags.output) {
    const file = resolve(flags.output);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, text);
    output.out(`${summary} Report (${format}) written to ${flags.output}.`);
    return;
  }
  if (text !== '') output.out(text.replace(/\n$/, ''));
  if (format !== 'text') output.err(summary);
  else if (flags.wait) {
    const paint = passed(run) ? colors.green : run.status === 'canceled' ? colors.yellow : colors.red;
    output.out(`${text === '' ? '' : '\n'}${paint(summary)}`);
  }
}

/** `Test run trun-x finished: pass (2 passed, 0 failed, 0 errored, 0 skipped) in 1.2s.` */
function summaryLine(input: ReportInput): string {
  const run = terminalRun(input.run);
  if (!input.flags.wait) return `Test run ${run.id} ${run.status} (not followed: --no-wait).`;
  const counts = run.counts ? ` (${formatCounts(run.counts)})` : '';
  const outcome = run.status === 'finished' ? `: ${outcomeOf(run)}` : '';
  return `Test run ${run.id} ${run.status}${outcome}${counts} in ${formatDuration(input.elapsedMs)}.`;
}

/** `--format json`: one versioned object (docs/commands.md). */
function jsonReport(input: ReportInput) {
  const { run } = input;
  return {
    format: 'converge-test-run',
    version: 1,
    module: input.module,
    run: {
      id: run.id,
      status: run.status,
      testStatus: run.testStatus,
      counts: run.counts,
      source: run.source,
      configurationVersion: run.configurationVersionId ?? null,
      variables: input.variables,
    },
    outcome: outcomeOf(run),
    passed: passed(run),
    waited: input.flags.wait,
    elapsedMs: input.elapsedMs,
    files: parseTestLog(input.log).map((f) => ({
      path: f.path,
      status: f.status ?? null,
      runs: f.cases.map((c) => ({ name: c.name, status: c.status })),
    })),
    log: input.log,
  };
}

/**
 * A module-relative path in the platform's spelling: `/` separators, no `.` segment (`./tests`,
 * `tests/.`), no trailing `/`.
 */
const normalizePath = (path: string): string => posix.normalize(path.replaceAll('\\', '/')).replace(/\/+$/, '');

const moduleName = (m: ModuleAddress) => `${m.organization}/${m.name}/${m.provider}`;

/** `--dir`: a directory inside the module, in the platform's spelling (`tests`, no `./`, no trailing `/`). */
function testDirectoryOf(dir: string): string {
  const normalized = normalizePath(dir);
  if (normalized === '' || isAbsolute(dir) || normalized.split('/').includes('..')) {
    throw new ConvergeError('INPUT_INVALID', `--dir ${dir}: expected a directory inside the module`, {
      hint: 'the test directory is relative to --module-dir, e.g. --dir tests',
    });
  }
  return normalized;
}

async function checkDirectory(path: string, flag: string, shown = path): Promise<void> {
  const info = await stat(path).catch(() => undefined);
  if (!info?.isDirectory()) {
    throw new ConvergeError('INPUT_INVALID', `${flag}: no directory ${shown}`, {
      hint:
        flag === '--dir'
          ? 'tests live in a directory of the module (default tests); name it with --dir, or the module with --module-dir'
          : 'run converge in the module directory, or name it with --module-dir',
    });
  }
}

/** Test files, as the platform picks them: `*.tftest.hcl` in the module's root or directly in the test directory. */
function isTestFile(path: string, testDirectory: string): boolean {
  if (!path.endsWith('.tftest.hcl')) return false;
  const slash = path.lastIndexOf('/');
  const dir = slash === -1 ? '' : path.slice(0, slash);
  return dir === '' || dir === testDirectory;
}

function checkTests(
  testFiles: readonly string[],
  filters: readonly string[],
  testDirectory: string,
  moduleDir: string,
) {
  if (testFiles.length === 0) {
    throw new ConvergeError(
      'INPUT_INVALID',
      `no test files: no *.tftest.hcl in ${testDirectory}/ or the root of ${moduleDir} (after .terraformignore)`,
      { hint: 'write tests as <module>/tests/<name>.tftest.hcl, or name their directory with --dir' },
    );
  }
  const unknown = filters.filter((f) => !testFiles.includes(f));
  if (unknown.length > 0) {
    throw new ConvergeError('INPUT_INVALID', `--filter ${unknown.join(', ')}: not a test file of the upload`, {
      hint: `test files: ${testFiles.join(', ')} (paths relative to the module directory)`,
    });
  }
}
