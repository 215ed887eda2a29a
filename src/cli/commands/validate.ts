import type { Command } from 'commander';
import { addConfigFlags, addVariableFlags } from '../flags.ts';

export function registerValidate(program: Command): void {
  addVariableFlags(
    addConfigFlags(
      program
        .command('validate')
        .description(
          'check manifests offline: YAML, schemas, variables, env and file templates, duplicates, and the policies over each object',
        )
        .argument('<paths...>', 'manifest files or directories (searched recursively for .yaml/.yml)'),
    ),
  )
    .option('--json', 'machine-readable result', false)
    .action(async (paths: string[], flags) => {
      const { runValidate } = await import('../run/validate.ts');
      process.exitCode = await runValidate(paths, flags);
    });
}
