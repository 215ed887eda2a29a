/**
 * The command line, loaded by main.ts. Kept light on purpose: `converge --version` must not load the
 * engine, the emulator or Ink, so every command registers its flags here and
 * imports its implementation only when it runs.
 */
import { Command } from 'commander';
import { commands } from './commands/index.ts';
import { runMain } from './run-main.ts';
import { VERSION } from './version.ts';

const program = new Command('converge')
  .description('Desired-state reconciler for the platform: validate, plan, apply, drift, export.')
  .version(VERSION, '-V, --version')
  .showHelpAfterError('(run with --help for usage)');

for (const register of commands) register(program);

await runMain(program, process.argv);
