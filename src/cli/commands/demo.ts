import type { Command } from 'commander';

export function registerDemo(program: Command): void {
  program
    .command('demo')
    .description('start an emulator, apply examples/ to it, show drift, stop (what `npm run demo` runs)')
    .option('--examples <dir>', 'the example repository', 'examples')
    .option('--environment <name>', 'which environment of the examples to apply', 'staging')
    .action(async (flags: { examples: string; environment: string }) => {
      const { runDemo } = await import('../run/demo.ts');
      process.exitCode = await runDemo(flags);
    });
}
