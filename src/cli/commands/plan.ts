import { type Command, Option } from 'commander';
import { PLAN_FORMATS } from '../../ui/plan/formats.ts';
import { addPlanFlags } from '../flags.ts';

export function registerPlan(program: Command): void {
  addPlanFlags(
    program
      .command('plan')
      .description('read live state and show what apply would change (changes nothing)')
      .argument('<paths...>', 'manifest files or directories'),
  )
    .addOption(new Option('-f, --format <format>', 'output format').choices(PLAN_FORMATS).default('text'))
    .option('-o, --out <file>', 'save the plan (no secret values) for `converge apply FILE`')
    .option(
      '--show-sources',
      'after each changed field, the file:line:col that set its value (--json always says)',
      false,
    )
    .option('--detailed-exitcode', 'exit 2 when there are changes, 0 when there are none, 1 on error', false)
    .option(
      '--no-progress',
      'no live view while reading (also without a terminal, in CI, with TERM=dumb or a format other than text)',
    )
    .addHelpText(
      'after',
      '\nExit codes: 0 success, 1 error, 2 changes present (with --detailed-exitcode).\n' +
        '--json is short for --format json; markdown is for a pull-request comment.\n' +
        'Examples:\n  converge plan manifests/ --out plan.json --detailed-exitcode\n' +
        '  converge plan manifests/ --format markdown > plan.md',
    )
    .action(async (paths: string[], flags) => {
      const { runPlan } = await import('../run/plan.ts');
      process.exitCode = await runPlan(paths, flags);
    });
}
