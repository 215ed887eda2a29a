import { type Command, Option } from 'commander';
import { DRIFT_FORMATS } from '../../ui/drift/formats.ts';
import { addPlanFlags } from '../flags.ts';

export function registerDrift(program: Command): void {
  addPlanFlags(
    program
      .command('drift')
      .description('compare live state with the manifests and report the differences (changes nothing)')
      .argument('<paths...>', 'manifest files or directories'),
    // drift sends nothing, so there is nothing to re-send
    { sends: false },
  )
    .addOption(new Option('-f, --format <format>', 'report format').choices(DRIFT_FORMATS).default('text'))
    .option('-o, --output <file>', 'write the report to this file; a one-line summary still goes to stdout')
    .option('--fail-on-unmanaged', 'count live objects that no manifest mentions as drift', false)
    .addHelpText(
      'after',
      '\nExit codes: 0 in sync, 2 drift found, 1 error. --json is short for --format json.\n' +
        'Objects that --prune would delete count as drift; other unmanaged objects are listed\n' +
        'and count only with --fail-on-unmanaged.\n' +
        'Examples:\n' +
        '  converge drift manifests/\n' +
        '  converge drift manifests/ --format markdown --output drift.md\n' +
        '  converge drift manifests/ --format junit --output reports/drift.xml',
    )
    .action(async (paths: string[], flags) => {
      const { runDrift } = await import('../run/drift.ts');
      process.exitCode = await runDrift(paths, flags);
    });
}
