import type { Command } from 'commander';

export function registerSchema(program: Command): void {
  program
    .command('schema')
    .description('print the JSON Schema of a kind, or list the kinds (for editors and tooling)')
    .argument('[kind]', 'the kind whose schema to print')
    .option('--all', 'print one JSON object holding every schema, keyed by kind', false)
    .option('-o, --out <dir>', 'write <Kind>.schema.json files there (the kind given, or every kind)')
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  converge schema                       # the kinds, one line each\n' +
        '  converge schema ToolVersion           # one schema, as JSON\n' +
        '  converge schema --out schemas/        # files for editors (yaml-language-server)',
    )
    .action(async (kind: string | undefined, flags) => {
      const { runSchema } = await import('../run/schema.ts');
      process.exitCode = await runSchema(kind, flags);
    });
}
