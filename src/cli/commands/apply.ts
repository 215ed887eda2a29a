import type { Command } from 'commander';
import { addPlanFlags } from '../flags.ts';

export function registerApply(program: Command): void {
  addPlanFlags(
    program
      .command('apply')
      .description('make live state match the manifests, or apply a plan saved with `plan --out`')
      .argument('<paths...>', 'manifest files or directories, or one saved plan file'),
  )
    .option('-y, --auto-approve', 'apply without asking (required when there is no terminal)', false)
    .option('--allow-mass-delete', 'allow more deletes than guard.maxDeletes (default 10)', false)
    .option(
      '--allow-replace <kinds>',
      'allow replacing objects of these kinds (comma-separated), such as SSHCertificateAuthority, whose replacement invalidates what they issued',
      (value: string, previous: string[]) => [
        ...previous,
        ...value
          .split(',')
          .map((k) => k.trim())
          .filter(Boolean),
      ],
      [] as string[],
    )
    .option('--no-progress', 'plain progress lines instead of the live view (also without a terminal, CI or TERM=dumb)')
    .addHelpText(
      'after',
      '\nOn a terminal apply shows the plan and asks; without one it refuses unless --auto-approve.\n' +
        'A saved plan is applied only if the manifests and the live objects it touches are unchanged.\n' +
        'Ctrl-C stops new work, waits for requests in flight and reports what was done.\n' +
        'Examples:\n  converge apply manifests/ --auto-approve\n  converge plan manifests/ --out plan.json && converge apply plan.json',
    )
    .action(async (paths: string[], flags) => {
      const { runApply } = await import('../run/apply.ts');
      process.exitCode = await runApply(paths, flags);
    });
}
