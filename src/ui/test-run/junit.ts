/**
 * A test run as JUnit XML. The cases come from the run's log, which has the
 * `terraform test` layout (the emulator writes the same, see
 * src/emulator/registry/tests/log.ts):
 *
 *   tests/network.tftest.hcl... in progress
 *     run "defaults"... pass
 *     run "custom_cidr"... fail
 *       Error: Test assertion failed (...)
 *   tests/network.tftest.hcl... tearing down
 *   tests/network.tftest.hcl... fail
 *
 * A line `<file>... <state>` at the start of a line opens a file (one test
 * suite), `  run "<name>"... pass|fail|error|skip` is one case, and the more
 * indented lines after it are that case's details. The totals are the API's
 * counts; a log without run lines (an errored or canceled run) gives one case
 * for the run itself. Pure.
 */
import { escapeXml, escapeXmlAttribute } from '../xml.ts';
import { outcomeOf, type TestRunState } from './events.ts';

export type CaseStatus = 'pass' | 'fail' | 'error' | 'skip';

export interface LogCase {
  name: string;
  status: CaseStatus;
  /** The indented lines under the run line (errors, notes). */
  details: string[];
}

export interface LogFile {
  path: string;
  /** The file's last state (`pass`, `fail`, `skip`, ...), if the log got that far. */
  status?: string;
  /** File-level lines: a parse error. */
  errors: string[];
  cases: LogCase[];
}

const FILE_LINE = /^(\S.*?)\.\.\. (in progress|tearing down|pass|fail|skip|error)\s*$/;
const RUN_LINE = /^ {2}run "((?:[^"\\]|\\.)*)"\.\.\. (pass|fail|error|skip)\s*$/;

/** The files and run cases of a `terraform test` log. */
export function parseTestLog(log: string): LogFile[] {
  const files: LogFile[] = [];
  let file: LogFile | undefined;
  let current: LogCase | undefined;
  for (const raw of log.split(/\r?\n/)) {
    const line = raw.replace(/\s+$/, '');
    const fileMatch = FILE_LINE.exec(line);
    if (fileMatch) {
      const path = fileMatch[1] ?? '';
      const state = fileMatch[2] ?? '';
      if (file?.path !== path) {
        file = { path, errors: [], cases: [] };
        files.push(file);
      }
      if (state !== 'in progress' && state !== 'tearing down') file.status = state;
      current = undefined;
      continue;
    }
    const runMatch = RUN_LINE.exec(line);
    if (runMatch && file) {
      current = { name: runMatch[1] ?? '', status: runMatch[2] as CaseStatus, details: [] };
      file.cases.push(current);
      continue;
    }
    if (line.startsWith('    ') && current) current.details.push(line.trim());
    else if (line.startsWith('  ') && file && !current) file.errors.push(line.trim());
    else if (!line.startsWith(' ')) current = undefined;
  }
  return files;
}

export interface JunitInput {
  module: string;
  run: TestRunState;
  log: string;
  elapsedMs: number;
  timestamp: string;
}

export function formatTestRunJunit(input: JunitInput): string {
  const { run } = input;
  const files = parseTestLog(input.log);
  const name = `converge test run ${input.module}`;
  // the run's time is known, not each run block's: the whole time on the root, the start on every suite
  const attrs = `timestamp="${escapeXmlAttribute(input.timestamp)}"`;
  const time = `time="${(input.elapsedMs / 1000).toFixed(3)}"`;
  const counts = run.counts ?? { passed: 0, failed: 0, errored: 0, skipped: 0 };
  const fileCases = new Map(files.flatMap((f) => (fileFailed(f) ? [[f, fileCase(f)] as const] : [])));
  const cases = [...files.flatMap((f) => f.cases), ...fileCases.values()];
  const runCase = cases.length === 0 && !(run.status === 'finished' && run.testStatus === 'pass');
  // the API counts run blocks: a file that failed on its own (it does not parse) has none, and is one error more
  const own = fileCases.size;
  const totals = runCase
    ? tally([{ name: run.id, status: run.status === 'canceled' ? 'skip' : 'error', details: [] }])
    : `tests="${counts.passed + counts.failed + counts.errored + counts.skipped + own}" failures="${counts.failed}" ` +
      `errors="${counts.errored + own}" skipped="${counts.skipped}"`;
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${escapeXmlAttribute(name)}" ${totals} ${time} ${attrs}>`,
  ];
  for (const file of files) {
    const ownCase = fileCases.get(file);
    const fileCasesAll = ownCase ? [...file.cases, ownCase] : file.cases;
    lines.push(`  <testsuite name="${escapeXmlAttribute(file.path)}" ${tally(fileCasesAll)} ${attrs}>`);
    lines.push(`    <properties><property name="test-run" value="${escapeXmlAttribute(run.id)}"/></properties>`);
    for (const c of fileCasesAll) lines.push(...caseXml(file.path, c, file.errors));
    if (file.errors.length > 0) lines.push(`    <system-err>${escapeXml(file.errors.join('\n'))}</system-err>`);
    lines.push('  </testsuite>');
  }
  if (runCase) lines.push(...runSuite(input, attrs));
  lines.push('</testsuites>');
  return `${lines.join('\n')}\n`;
}

/**
 * A file that failed without a run block failing (its errors come before any run: it does not
 * parse): the report must fail as the run did, so the file is a case of its own, an error.
 */
function fileFailed(file: LogFile): boolean {
  const failed = file.status === 'fail' || file.status === 'error';
  return failed && !file.cases.some((c) => c.status === 'fail' || c.status === 'error');
}

function fileCase(file: LogFile): LogCase {
  return { name: file.path, status: 'error', details: file.errors };
}

function tally(cases: readonly LogCase[]): string {
  const n = (s: CaseStatus) => cases.filter((c) => c.status === s).length;
  return `tests="${cases.length}" failures="${n('fail')}" errors="${n('error')}" skipped="${n('skip')}"`;
}

function caseXml(path: string, c: LogCase, fileErrors: readonly string[]): string[] {
  const open = `    <testcase classname="${escapeXmlAttribute(path)}" name="${escapeXmlAttribute(c.name)}"`;
  const details = c.details.length > 0 ? c.details : fileErrors;
  const message =
    details.find((d) => d.startsWith('Error:'))?.replace(/^Error:\s*/, '') ?? `run "${c.name}" ${c.status}`;
  switch (c.status) {
    case 'pass':
      return c.details.length > 0
        ? [`${open}>`, `      <system-out>${escapeXml(c.details.join('\n'))}</system-out>`, '    </testcase>']
        : [`${open}/>`];
    case 'skip':
      return [`${open}>`, '      <skipped/>', '    </testcase>'];
    case 'fail':
    case 'error': {
      const tag = c.status === 'fail' ? 'failure' : 'error';
      return [
        `${open}>`,
        `      <${tag} message="${escapeXmlAttribute(message)}">${escapeXml(details.join('\n'))}</${tag}>`,
        '    </testcase>',
      ];
    }
  }
}

/** No run lines in the log: the run itself is the one case (errored, canceled, or a log the parser cannot read). */
function runSuite(input: JunitInput, attrs: string): string[] {
  const { run } = input;
  const outcome = outcomeOf(run);
  const skipped = run.status === 'canceled';
  const open = `    <testcase classname="${escapeXmlAttribute(input.module)}" name="${escapeXmlAttribute(`test run ${run.id}`)}"`;
  const body = skipped
    ? `      <skipped message="the test run was canceled"/>`
    : `      <error message="${escapeXmlAttribute(`the test run ended ${outcome}`)}" type="${escapeXmlAttribute(run.status)}"/>`;
  return [
    `  <testsuite name="${escapeXmlAttribute(input.module)}" tests="1" failures="0" errors="${skipped ? 0 : 1}" skipped="${skipped ? 1 : 0}" ${attrs}>`,
    `${open}>`,
    body,
    ...(input.log.trim() === '' ? [] : [`      <system-out>${escapeXml(input.log.trimEnd())}</system-out>`]),
    '    </testcase>',
    '  </testsuite>',
  ];
}
