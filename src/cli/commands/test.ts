import { type Command, Option } from 'commander';
import { addConfigFlags } from '../flags.ts';

/** Repeatable flags: `--var a=1 --var b=2`. */
const collect = (value: string, previous: string[] = []) => [...previous, value];

/** `converge test`: module tests on the platform. `run` is its one subcommand for now. */
export function registerTest(program: Command): void {
  const test = program
    .command('test')
    .description("run a private registry module's tests on the platform")
    .addHelpText('after', '\nExample:\n  converge test run example-org/network/aws');

  addConfigFlags(
    test
      .command('run')
      .description('upload a module with its tests, run them on the platform and report the outcome')
      .argument('<ORG/NAME/PROVIDER>', 'the private registry module whose tests run, e.g. example-org/network/aws'),
  )
    .option('-m, --module-dir <dir>', 'the module directory, packed with its tests', '.')
    .option('-d, --dir <dir>', 'the test directory, inside the module directory', 'tests')
    .option(
      '--var <name=value>',
      'a variable for this run, over the module\'s test variables (repeatable; see "Variables" below)',
      collect,
      [],
    )
    .option('--filter <file>', 'run only this test file, e.g. tests/network.tftest.hcl (repeatable)', collect, [])
    .option('--verbose', 'ask the platform for a verbose log (the plan or state of each run block)', false)
    .option('--no-wait', 'print the run id once the run is queued and exit 0, without following it')
    .addOption(
      new Option('-f, --format <format>', 'what stdout gets: the log, JUnit XML or one JSON object')
        .choices(['text', 'junit', 'json'])
        .default('text'),
    )
    .option('--json', 'short for --format json', false)
    .option('-o, --output <file>', 'write the report to this file; a one-line summary still goes to stdout')
    .option('--no-progress', 'plain progress lines even on a terminal (always plain in CI or on a pipe)')
    .option(
      '--timeout <duration>',
      'the longest the whole command may take, every request included; past it a running run is canceled',
      '1h',
    )
    .addHelpText(
      'after',
      "\nThe module directory is packed as a module version's source directory is (.terraformignore\n" +
        "applies) and uploaded to a new configuration version of the module's tests; the upload queues\n" +
        'a test run, which converge follows. With --var, --filter, --verbose or a --dir other than\n' +
        '`tests`, converge starts its own run with those options and follows that one (the platform\n' +
        "still queues the upload's run with the defaults too).\n" +
        "\nVariables: --var NAME=VALUE takes precedence over the module's test variables (TF_VAR_NAME).\n" +
        'VALUE is sent as written when it is a literal: a number, true, false, null, or text starting\n' +
        'with ", [ or {. Anything else is a string: --var region=eu-west-1 sends "eu-west-1". Quote a\n' +
        'string that looks like a number: --var port=\'"8080"\'.\n' +
        '\nProgress goes to stderr (a live view on a terminal, plain lines in CI or with --no-progress);\n' +
        'stdout gets the report: the log and a summary (text), JUnit XML (junit), or one JSON object.\n' +
        'Ctrl-C cancels the run and keeps following it until it stops; a second Ctrl-C force-cancels\n' +
        'it; a third quits at once (exit 130).\n' +
        '\nExit codes: 0 the tests passed (or --no-wait), 1 a test failed, the run errored or was\n' +
        'canceled, or an error (bad input, API failure).\n' +
        'Needs the platform API (CONVERGE_PLATFORM_URL, CONVERGE_PLATFORM_TOKEN) and a token of the\n' +
        "organization's owners team.\n" +
        'Examples:\n' +
        '  converge test run example-org/network/aws\n' +
        '  converge test run example-org/network/aws --module-dir modules/network --var cidr_block=10.1.0.0/16\n' +
        '  converge test run example-org/network/aws --format junit --output reports/tests.xml\n' +
        '  converge test run example-org/network/aws --no-wait',
    )
    .action(async (address: string, flags) => {
      const { runTestRun } = await import('../run/test-run.ts');
      process.exitCode = await runTestRun(address, flags);
    });
}
