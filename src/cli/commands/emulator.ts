import type { Command } from 'commander';

export interface EmulatorFlags {
  host: string;
  port: string;
  seed?: string;
  state?: string;
  latency?: string;
  faultRate?: string;
  faultKinds: string;
  rateLimit: boolean;
}

export function registerEmulator(program: Command): void {
  program
    .command('emulator')
    .description('serve a local emulator of the platform APIs (for the demo, tests and trying manifests)')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--port <port>', 'port to listen on; 0 picks a free one', '8080')
    .option('--seed <file>', 'extra organizations, users, teams and versions (YAML or JSON)')
    .option('--state <file>', 'keep state and tokens in this file across restarts')
    .option('--latency <ms>', 'delay every API answer by this many milliseconds')
    .option('--fault-rate <0..1>', 'fraction of API requests that fail with an injected fault')
    .option('--fault-kinds <list>', 'comma list of 429,500,503,drop,timeout,lost', '429,503,500,drop')
    .option('--no-rate-limit', 'do not enforce the api-rate-limit setting')
    .addHelpText(
      'after',
      '\nPrints one JSON line on stdout when listening: {"url":"http://127.0.0.1:8080","tokens":{...}};\n' +
        'logs go to stderr. Ctrl-C (or SIGTERM) stops it. See docs/emulator.md.\n' +
        'Example:\n  converge emulator --port 0 --state .converge/emulator.json',
    )
    .action(async (flags: EmulatorFlags) => {
      const { runEmulator } = await import('../run/emulator.ts');
      process.exitCode = await runEmulator(flags);
    });
}
