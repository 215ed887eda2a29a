/**
 * `converge test run` as a process against the emulator: the fixture module
 * examples/modules/network is uploaded with its tests and the emulator
 * decides the outcome from the variables (src/emulator/registry/tests/index.ts).
 * Its run block `defaults` asserts var.cidr_block == "10.0.0.0/16" and
 * var.enable_dns_hostnames == true; the module's test variables set them
 * (TF_VAR_...), and --var overrides them for one run.
 */
import { spawn } from 'node:child_process';
import { cp, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { literal, parseModuleAddress, parseRunVariables } from '../../src/cli/run/test-run-args.ts';
import { QUEUED_MS } from '../../src/emulator/registry/test-runs.ts';
import { formatTestRunJunit, parseTestLog } from '../../src/ui/test-run/junit.ts';
import { CLI } from '../helpers/cli.ts';
import { type CliTarget, cliTarget, NO_FINGERPRINTS } from '../helpers/cli-target.ts';
import { all, parseXml } from '../unit/ui/drift/xml.ts';

const MODULE_DIR = fileURLToPath(new URL('../../examples/modules/network/', import.meta.url));
const PASSING = 'example-org/network/aws';
const FAILING = 'example-org/network/azurerm';
/** Its cidr_block is a sensitive test variable, whose value makes an assert of `defaults` fail. */
const SENSITIVE = 'example-org/network/google';
const SECRET = 'TestVarSecret_888zz';

let target: CliTarget;

const testsPath = (provider: string) =>
  `/api/v2/organizations/example-org/tests/registry-modules/private/example-org/network/${provider}`;

async function api(method: string, path: string, body?: unknown): Promise<{ status: number; json: unknown }> {
  const response = await fetch(`${target.emulator.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${target.emulator.tokens.admin}`,
      'content-type': 'application/vnd.api+json',
    },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, json: text ? JSON.parse(text) : undefined };
}

async function createModule(
  provider: string,
  variables: Record<string, string>,
  sensitive: readonly string[] = [],
): Promise<void> {
  const created = await api('POST', '/api/v2/organizations/example-org/registry-modules', {
    data: { type: 'registry-modules', attributes: { name: 'network', provider, 'registry-name': 'private' } },
  });
  expect(created.status, JSON.stringify(created.json)).toBe(201);
  for (const [key, value] of Object.entries(variables)) {
    const variable = await api('POST', `${testsPath(provider)}/vars`, {
      data: { type: 'vars', attributes: { key, value, category: 'env', sensitive: sensitive.includes(key) } },
    });
    expect(variable.status, JSON.stringify(variable.json)).toBe(201);
  }
}

type Attributes = Record<string, unknown>;

/** A test run's attributes as the API shows them now. */
async function runOf(provider: string, id: string | undefined): Promise<Attributes> {
  const answer = await api('GET', `${testsPath(provider)}/test-runs/${id}`);
  expect(answer.status).toBe(200);
  return (answer.json as { data: { attributes: Attributes } }).data.attributes;
}

async function runCount(provider: string): Promise<number> {
  return ((await api('GET', `${testsPath(provider)}/test-runs`)).json as { data: unknown[] }).data.length;
}

const testRun = (args: string[]) => target.run(['test', 'run', ...args, '--module-dir', MODULE_DIR]);

/** The run id in the progress lines (stderr). */
const runIdOf = (stderr: string) => /Test run (trun-\w+)/.exec(stderr)?.[1];

/**
 * The emulator's clock: real time, except while a Ctrl-C test holds it. A run is queued for
 * QUEUED_MS and then running for a moment of the emulator's time; held, it stays in its state
 * until the test has sent its signals, however long a busy machine takes to show that state.
 */
const clock = { held: undefined as number | undefined, behind: 0 };
const emulatorNow = () => clock.held ?? Date.now() - clock.behind;
const hold = (at = emulatorNow()) => {
  clock.held = at;
};
/** Time goes on from where it was held. */
const release = () => {
  if (clock.held === undefined) return;
  clock.behind = Date.now() - clock.held;
  clock.held = undefined;
};

beforeAll(async () => {
  target = await cliTarget('test-run', NO_FINGERPRINTS, { now: emulatorNow });
  await createModule('aws', { TF_VAR_cidr_block: '10.0.0.0/16', TF_VAR_enable_dns_hostnames: 'true' });
  // the same tests, with a module variable that makes an assert of `defaults` fail
  await createModule('azurerm', { TF_VAR_cidr_block: '10.0.0.0/16', TF_VAR_enable_dns_hostnames: 'false' });
  await createModule('google', { TF_VAR_cidr_block: SECRET, TF_VAR_enable_dns_hostnames: 'true' }, [
    'TF_VAR_cidr_block',
  ]);
});
afterAll(() => target?.close());
afterEach(release);

describe('converge test run', () => {
  it('runs the tests the upload queued, prints the log and the counts, exits 0 on pass', async () => {
    const result = await testRun([PASSING]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('run "defaults"... pass');
    expect(result.stdout).toContain('run "custom_cidr"... pass');
    expect(result.stdout).toMatch(
      /Test run trun-\w+ finished: pass \(2 passed, 0 failed, 0 errored, 0 skipped\) in [\d.]+m?s\./,
    );
    // progress on stderr, plain in CI: the steps and the status changes
    expect(result.stderr).toContain('1 test file(s): tests/network.tftest.hcl');
    expect(result.stderr).toMatch(/Uploaded configuration version cv-\w+/);
    expect(result.stderr).toContain('(queued by the upload)');
    expect(result.stderr).toMatch(/Test run trun-\w+ running/);
    expect(await runOf('aws', runIdOf(result.stderr))).toMatchObject({
      status: 'finished',
      'test-status': 'pass',
      source: 'platform-configuration-version',
    });
  });

  it('reads --dir in any spelling of the same directory (./tests, tests/.), as the default', async () => {
    for (const dir of ['./tests/', 'tests/.']) {
      const result = await testRun([PASSING, '--dir', dir]);
      expect(result.code, `${dir}: ${result.stderr}`).toBe(0);
      expect(result.stderr).toContain('1 test file(s): tests/network.tftest.hcl');
      // the platform's own spelling: the default, so the run the upload queued is followed
      expect(result.stderr).toContain('(queued by the upload)');
    }
  });

  it('runs a module whose tests are all in its root, with the default test directory absent', async () => {
    const dir = join(target.scratch, 'root-tests');
    await cp(MODULE_DIR, dir, { recursive: true });
    await rename(join(dir, 'tests', 'network.tftest.hcl'), join(dir, 'network.tftest.hcl'));
    await rm(join(dir, 'tests'), { recursive: true });
    const result = await target.run(['test', 'run', PASSING, '--module-dir', dir]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('1 test file(s): network.tftest.hcl');
    // another directory must exist
    const named = await target.run(['test', 'run', PASSING, '--module-dir', dir, '--dir', 'spec']);
    expect(named.code).toBe(1);
    expect(named.stderr).toContain('--dir: no directory spec in');
  });

  it('exits 1 with the log when an assert fails', async () => {
    const result = await testRun([FAILING]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('run "defaults"... fail');
    expect(result.stdout).toContain('Error: Test assertion failed (var.enable_dns_hostnames == true');
    expect(result.stdout).toContain('Failure! 1 passed, 1 failed.');
    expect(result.stdout).toContain('finished: fail (1 passed, 1 failed, 0 errored, 0 skipped)');
  });

  it('--var overrides the module variables, in a run of its own, both ways', async () => {
    const failing = await testRun([PASSING, '--var', 'enable_dns_hostnames=false']);
    expect(failing.code).toBe(1);
    expect(failing.stdout).toContain('(var.enable_dns_hostnames == true: false == true)');
    expect(failing.stderr).toContain('(started with the given options)');

    const passing = await testRun([FAILING, '--var', 'enable_dns_hostnames=true', '--json']);
    expect(passing.code, passing.stderr).toBe(0);
    const report = JSON.parse(passing.stdout);
    expect(report).toMatchObject({
      format: 'converge-test-run',
      version: 1,
      module: { organization: 'example-org', name: 'network', provider: 'azurerm' },
      outcome: 'pass',
      passed: true,
      run: {
        status: 'finished',
        testStatus: 'pass',
        source: 'platform-api',
        counts: { passed: 2, failed: 0, errored: 0, skipped: 0 },
        variables: [{ key: 'enable_dns_hostnames', value: 'true' }],
      },
      files: [
        {
          path: 'tests/network.tftest.hcl',
          status: 'pass',
          runs: [
            { name: 'defaults', status: 'pass' },
            { name: 'custom_cidr', status: 'pass' },
          ],
        },
      ],
    });
    // the run converge started is the one it reported, not the one the upload queued
    expect((await runOf('azurerm', report.run.id)).variables).toEqual([{ key: 'enable_dns_hostnames', value: 'true' }]);
  });

  it('sends a plain --var value as a quoted string literal', async () => {
    const result = await testRun([PASSING, '--var', 'cidr_block=192.168.0.0/16', '--json']);
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout);
    expect(report.run.variables).toEqual([{ key: 'cidr_block', value: '"192.168.0.0/16"' }]);
    expect(report.log).toContain('"192.168.0.0/16" == "10.0.0.0/16"');
  });

  it('--format junit writes valid JUnit XML with the counts', async () => {
    const result = await testRun([FAILING, '--format', 'junit']);
    expect(result.code).toBe(1);
    const root = parseXml(result.stdout);
    expect(root.name).toBe('testsuites');
    expect(root.attributes).toMatchObject({ tests: '2', failures: '1', errors: '0', skipped: '0' });
    const suites = all(root, 'testsuite');
    expect(suites.map((s) => s.attributes.name)).toEqual(['tests/network.tftest.hcl']);
    const cases = all(root, 'testcase').map((c) => c.attributes.name);
    expect(cases).toEqual(['defaults', 'custom_cidr']);
    const failures = all(root, 'failure');
    expect(failures).toHaveLength(1);
    expect(failures[0]!.attributes.message).toContain('Test assertion failed');
    // the summary goes to stderr, so stdout is only the XML
    expect(result.stderr).toContain('finished: fail (1 passed, 1 failed, 0 errored, 0 skipped)');
  });

  it('--output writes the report to a file and a summary line to stdout', async () => {
    const file = join(target.scratch, 'reports', 'tests.xml');
    const result = await testRun([PASSING, '--format', 'junit', '--output', file]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.trim()).toMatch(
      /^Test run trun-\w+ finished: pass .* Report \(junit\) written to .*tests\.xml\.$/,
    );
    const root = parseXml(await readFile(file, 'utf8'));
    expect(root.attributes).toMatchObject({ tests: '2', failures: '0' });
  });

  it('--timeout bounds the whole command: past it a run still queued or running is canceled, exit 1', async () => {
    const before = await runCount('aws');
    const bad = await testRun([PASSING, '--timeout', 'soon']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('--timeout soon: expected a duration such as 30m, 1h or 90s');
    // longer than a timer can wait: refused, not a deadline that passes at once
    const long = await testRun([PASSING, '--timeout', '720h']);
    expect(long.code).toBe(1);
    expect(long.stderr).toContain('--timeout 720h: at most 596h');
    expect(await runCount('aws')).toBe(before);

    // the emulator's clock held: the run the upload queues stays queued past the deadline
    hold();
    const result = await testRun([PASSING, '--timeout', '3s']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/Uploaded configuration version cv-\w+/);
    expect(result.stderr).toMatch(
      /error \[INTERRUPTED\]: test run trun-\w+ did not end within --timeout 3s: (a cancel was sent|it is left queued)/,
    );
    expect(result.stderr).toContain('hint: give the run more time with --timeout');
  });

  it('--timeout ends a request the platform holds open: nothing uploaded, no run, exit 1', async () => {
    const before = await runCount('aws');
    // every request held for a minute, longer than the client's own timeout would take to give up
    target.emulator.setFaults({ rate: 1, kinds: ['timeout'], holdMs: 60_000 });
    let result: Awaited<ReturnType<typeof testRun>>;
    try {
      result = await testRun([PASSING, '--timeout', '1s']);
    } finally {
      target.emulator.setFaults(undefined);
    }
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'error [INTERRUPTED]: converge test run did not end within --timeout 1s: nothing was uploaded',
    );
    expect(result.stderr).toContain('hint: give the command more time with --timeout');
    expect(result.stderr).not.toMatch(/Uploaded configuration version/);
    expect(await runCount('aws')).toBe(before);
  });

  it('--no-wait prints the queued run id and exits 0', async () => {
    const result = await testRun([PASSING, '--no-wait']);
    expect(result.code, result.stderr).toBe(0);
    const id = result.stdout.trim();
    expect(id).toMatch(/^trun-\w+$/);
    expect(['queued', 'running', 'finished']).toContain((await runOf('aws', id)).status);
  });

  it('a module that does not exist: the 404 with a hint, exit 1', async () => {
    const result = await testRun(['example-org/missing/aws']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/error \[API_ERROR\]: POST .*\/missing\/aws\/test-runs\/configuration-versions: 404/);
    expect(result.stderr).toContain('hint: no private module example-org/missing/aws that this token may test');
  });

  it('a malformed module address or --var is a usage error before any request', async () => {
    const before = await runCount('aws');
    const address = await testRun(['example-org/network']);
    expect(address.code).toBe(1);
    expect(address.stderr).toContain('"example-org/network" is not a module address');
    expect(address.stderr).toContain('hint: write the module as ORG/NAME/PROVIDER');
    const provider = await testRun(['example-org/network/AWS']);
    expect(provider.code).toBe(1);
    expect(provider.stderr).toContain('the provider "AWS" is not valid');
    const variable = await testRun([PASSING, '--var', 'no-equals-sign']);
    expect(variable.code).toBe(1);
    expect(variable.stderr).toContain('--var no-equals-sign: expected NAME=VALUE');
    // a value written as a literal must be one: the platform refuses it only once the run has started
    for (const broken of ['cidr_block="10.0.0.0/16', 'cidr_block=["a",']) {
      const literal = await testRun([PASSING, '--var', broken]);
      expect(literal.code, broken).toBe(1);
      expect(literal.stderr).toContain('error [INPUT_INVALID]: --var cidr_block: the value is not a valid literal (');
    }
    const filter = await testRun([PASSING, '--filter', 'tests/other.tftest.hcl']);
    expect(filter.code).toBe(1);
    expect(filter.stderr).toContain('hint: test files: tests/network.tftest.hcl');
    expect(await runCount('aws')).toBe(before);
  });

  it.each([
    ['Ctrl-C', 'SIGINT'],
    ["a CI runner's cancel (SIGTERM)", 'SIGTERM'],
  ] as const)('%s cancels the running run and follows it until canceled: exit 1', async (_, signal) => {
    // held from before the upload: the run stays queued, then, moved into its running time, running
    hold();
    const result = await interrupted(PASSING, [
      [/Test run trun-\w+ queued/, () => hold(emulatorNow() + QUEUED_MS)],
      [/Test run trun-\w+ running/, signal],
      // the cancel takes effect a moment of the emulator's time after it was sent
      [/Cancel sent/, release],
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Cancel sent: waiting for the run to stop');
    expect(result.stdout).toMatch(/Test run trun-\w+ canceled in /);
    expect((await runOf('aws', runIdOf(result.stderr))).status).toBe('canceled');
  });

  it('a second Ctrl-C force-cancels (sent once the run is running)', async () => {
    // held from before the upload: both signals reach the CLI while the run is queued
    hold();
    const result = await interrupted(PASSING, [
      [/Test run trun-\w+ queued/, 'SIGINT'],
      [/Cancel requested/, 'SIGINT'],
      [/Force-cancel requested/, release],
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Force-cancel sent');
    expect((await runOf('aws', runIdOf(result.stderr))).status).toBe('canceled');
  });

  it('--help documents the arguments, every flag, variables, Ctrl-C and exit codes', async () => {
    const result = await target.run(['test', 'run', '--help']);
    expect(result.code).toBe(0);
    for (const text of [
      'ORG/NAME/PROVIDER',
      '--module-dir',
      '--dir',
      '--var',
      '--filter',
      '--verbose',
      '--no-wait',
      '--format',
      '--json',
      '--output',
      '--no-progress',
      'Variables:',
      'Ctrl-C',
      'Exit codes',
    ]) {
      expect(result.stdout).toContain(text);
    }
    const top = await target.run(['--help']);
    expect(top.stdout).toMatch(/\n {2}test\s/);
  });
});

describe('a sensitive test variable', () => {
  const detail = 'Test assertion failed (var.cidr_block == "10.0.0.0/16": (sensitive value) == "10.0.0.0/16")';
  /** The failures of a JUnit report, their messages and texts decoded. */
  const junitFailures = (xml: string) =>
    all(parseXml(xml), 'failure')
      .map((f) => `${f.attributes.message}\n${f.text}`)
      .join('\n');

  it.each([
    ['text', [], (stdout: string) => stdout],
    ['junit', ['--format', 'junit'], junitFailures],
    ['json', ['--json'], (stdout: string) => JSON.parse(stdout).log as string],
  ])('is shown as (sensitive value) in a failed assert, never its value: %s', async (_, args, report) => {
    const result = await testRun([SENSITIVE, ...args]);
    expect(result.code).toBe(1);
    expect(result.stdout + result.stderr).not.toContain(SECRET);
    expect(report(result.stdout)).toContain(detail);
  });

  it('--verbose lists it among the variables as (sensitive value)', async () => {
    const result = await testRun([SENSITIVE, '--verbose']);
    expect(result.stdout).toContain(detail);
    expect(result.stdout).toContain('cidr_block = (sensitive value) (TF_VAR_cidr_block)');
    expect(result.stdout).not.toContain(SECRET);
  });
});

describe('test run arguments and reports (pure)', () => {
  it('turns --var values into configuration-language literals', () => {
    expect(literal('eu-west-1')).toBe('"eu-west-1"');
    expect(literal('3')).toBe('3');
    expect(literal('-1.5e3')).toBe('-1.5e3');
    expect(literal('true')).toBe('true');
    expect(literal('null')).toBe('null');
    expect(literal('"8080"')).toBe('"8080"');
    expect(literal('["a", "b"]')).toBe('["a", "b"]');
    expect(literal('{ a = 1 }')).toBe('{ a = 1 }');
    expect(literal('08')).toBe('"08"');
    // escapes and template sequences stay literal text
    expect(literal('a"b\\c')).toBe('"a\\"b\\\\c"');
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a configuration-language template, not a JS one
    expect(literal('${x} %{y}')).toBe('"$${x} %%{y}"');
    expect(parseRunVariables(['a=1', 'b=x=y', 'a=2'])).toEqual([
      { key: 'a', value: '2' },
      { key: 'b', value: '"x=y"' },
    ]);
    expect(() => parseRunVariables(['1a=3'])).toThrow(/expected NAME=VALUE/);
  });

  it('reads ORG/NAME/PROVIDER by the registry rules', () => {
    expect(parseModuleAddress('example-org/network/aws')).toEqual({
      organization: 'example-org',
      name: 'network',
      provider: 'aws',
    });
    expect(() => parseModuleAddress('a/b/c/d')).toThrow(/found 4/);
    expect(() => parseModuleAddress('org//aws')).toThrow(/the name is empty/);
    expect(() => parseModuleAddress('org/-net/aws')).toThrow(/the name "-net" is not valid/);
  });

  it('parses a log into files and cases, and gives an errored run without cases one case', () => {
    const log = [
      'main.tftest.hcl... in progress',
      '  Error: Unsupported block type',
      '  run "a"... error',
      'main.tftest.hcl... tearing down',
      'main.tftest.hcl... fail',
      'tests/b.tftest.hcl... skip',
      '  run "b"... skip',
      '',
      'Failure! 0 passed, 0 failed, 1 errored, 1 skipped.',
    ].join('\n');
    expect(parseTestLog(log)).toEqual([
      {
        path: 'main.tftest.hcl',
        status: 'fail',
        errors: ['Error: Unsupported block type'],
        cases: [{ name: 'a', status: 'error', details: [] }],
      },
      { path: 'tests/b.tftest.hcl', status: 'skip', errors: [], cases: [{ name: 'b', status: 'skip', details: [] }] },
    ]);
    const errored = parseXml(
      formatTestRunJunit({
        module: 'o/n/p',
        run: { id: 'trun-1', status: 'errored', testStatus: null, counts: null, source: 'platform-api' },
        log: 'could not read the configuration <bad> & more',
        elapsedMs: 1000,
        timestamp: '2026-01-01T00:00:00.000Z',
      }),
    );
    expect(errored.attributes).toMatchObject({ tests: '1', errors: '1' });
    expect(all(errored, 'system-out')[0]!.text).toBe('could not read the configuration <bad> & more');
  });

  it('fails the report for a file that failed without a failing run block (it does not parse), as the run fails', () => {
    const log = [
      'tests/a.tftest.hcl... in progress',
      '  run "region"... pass',
      'tests/a.tftest.hcl... tearing down',
      'tests/a.tftest.hcl... pass',
      'tests/bad.tftest.hcl... in progress',
      '  Error: Argument or block definition required',
      'tests/bad.tftest.hcl... tearing down',
      'tests/bad.tftest.hcl... fail',
      '',
      'Failure! 1 passed, 0 failed.',
    ].join('\n');
    const counts = { passed: 1, failed: 0, errored: 0, skipped: 0 };
    const report = parseXml(
      formatTestRunJunit({
        module: 'o/n/p',
        run: { id: 'trun-2', status: 'finished', testStatus: 'fail', counts, source: 'platform-api' },
        log,
        elapsedMs: 1000,
        timestamp: '2026-01-01T00:00:00.000Z',
      }),
    );
    expect(report.attributes).toMatchObject({ tests: '2', failures: '0', errors: '1' });
    const bad = all(report, 'testsuite').find((suite) => suite.attributes.name === 'tests/bad.tftest.hcl');
    expect(bad?.attributes).toMatchObject({ tests: '1', errors: '1' });
    expect(all(bad!, 'error')[0]?.attributes.message ?? all(bad!, 'error')[0]?.text).toContain(
      'Argument or block definition required',
    );
  });
});

/**
 * The CLI as a process, stepped through `steps`: each waits for its pattern in the progress
 * (stderr) printed since the step before, then sends Ctrl-C or runs its action. A Ctrl-C is sent
 * only once the CLI has said it took the one before: two sent close together can reach a process
 * a busy machine has not yet scheduled as one.
 */
function interrupted(
  module: string,
  steps: Array<[RegExp, 'SIGINT' | 'SIGTERM' | (() => void)]>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'test', 'run', module, '--module-dir', MODULE_DIR], {
      cwd: target.scratch,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', CI: 'true', ...target.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let from = 0;
    let step = 0;
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      while (step < steps.length && steps[step]![0].test(stderr.slice(from))) {
        const action = steps[step]![1];
        from = stderr.length;
        step++;
        if (typeof action === 'string') child.kill(action);
        else action();
      }
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
