import type { Command } from 'commander';

/** `converge policy`: the manifests' guardrails (docs/policies.md). `test` is its one subcommand for now. */
export function registerPolicy(program: Command): void {
  const policy = program.command('policy').description('work with the policies among the manifests');
  policy
    .command('test')
    .description('run each policy of DIR against the example objects of its <policy>.test.yaml, offline')
    .argument('<dir>', 'a directory of Policy documents and their tests')
    .option('--json', 'machine-readable result', false)
    .option('--no-color', 'no colours')
    .addHelpText('after', '\nExample:\n  converge policy test policies/')
    .action(async (dir: string, flags) => {
      const { runPolicyTest } = await import('../run/policy-test.ts');
      process.exitCode = await runPolicyTest(dir, flags);
    });
}
