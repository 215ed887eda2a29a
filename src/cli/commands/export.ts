import { type Command, Option } from 'commander';
import { addConfigFlags, parallelism } from '../flags.ts';

/** `--kind A --kind B` and `--kind A,B` both work (`--kinds A,B` is the same flag, see docs/commands.md). */
const collectList = (value: string, previous: string[] = []) => [
  ...previous,
  ...value
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean),
];

export function registerExport(program: Command): void {
  addConfigFlags(
    program
      .command('export')
      .description('write live objects as manifests (a starting point for managing existing configuration)'),
  )
    .requiredOption('-o, --out <dir>', 'directory to write the manifests to (created if missing)')
    .option('-k, --kind <kind>', 'only this kind (repeatable, or comma-separated; default every kind)', collectList, [])
    .addOption(new Option('--kinds <list>', 'same as --kind').argParser(collectList).default([]).hideHelp())
    .option(
      '-s, --scope <scope>',
      'organization or mount to export, for kinds that have scopes (repeatable)',
      collectList,
      [],
    )
    .option('--split', 'one file per object (<out>/<kind>/<scope>-<name>.yaml, below) instead of one per kind', false)
    .option(
      '--no-placeholders',
      'leave write-only fields and fields that held secrets out (not managed) instead of writing placeholders',
    )
    .option('-f, --force', 'overwrite files that already exist', false)
    .option('--json', 'print what was written as a converge-export JSON document (progress stays on stderr)', false)
    .option(
      '--schema-ref <dir|url>',
      "where the files' yaml-language-server modelines point (default: converge's schemas/)",
    )
    .addOption(
      new Option('-p, --parallelism <n>', 'concurrent requests (default 10, or the config)').argParser(parallelism),
    )
    .addHelpText(
      'after',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the manifests' placeholder syntax, shown to users
      '\nWrite-only fields (passwords, keys) cannot be read back: they are written as ${env:NAME}\n' +
        'placeholders, and <out>/.env.example lists every NAME. So are the values of fields the\n' +
        'fingerprint store knows held secrets when converge applied them. Needs a connection, no\n' +
        'manifests.\n' +
        "--split names a file by the object's scope and name: ssh-role/ssh-engineers.yaml,\n" +
        'tool-version/1.9.8.yaml (no scope), ssh-certificate-authority/ssh.yaml (one per scope),\n' +
        'registry-module/example-org-network_aws.yaml (characters other than letters, digits, ., _\n' +
        'and - written _); a settings kind stays <out>/<kind>.yaml.\n' +
        'Examples:\n' +
        '  converge export --out imported/\n' +
        '  converge export --kind ToolVersion,PolicyVersion --out versions/ --split',
    )
    .action(async (flags) => {
      const { runExport } = await import('../run/export.ts');
      process.exitCode = await runExport(flags);
    });
}
