/**
 * The corpus of bad manifests (test/fixtures/manifests/bad/, each file with
 * its `# expect: line:col: message` lines) through the CLI as a process:
 * validate, plan and apply exit 1, print every expected `file:line:col:
 * message`, and the emulator sees no request at all. Every file goes to one
 * process per command: a process start (about 0.6 s of CPU) costs far more
 * than reading a file, and each file's problems are still checked exactly.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { converge } from '../helpers/cli.ts';
import { type Emulator, emulator } from './support.ts';

const DIR = fileURLToPath(new URL('../fixtures/manifests/bad/', import.meta.url));
/** What the corpus's placeholders read (as in test/unit/manifest/corpus.test.ts). */
const SECRET = 's3cr3t-value';
const ENV = { NOT_A_NUMBER: 'abc', SECRET };

/** The corpus's variables, and both APIs pointed at the emulator (which must see no request). */
function serverEnv(): Record<string, string> {
  return {
    ...ENV,
    CONVERGE_PLATFORM_URL: server.url,
    CONVERGE_PLATFORM_TOKEN: server.tokens.admin,
    CONVERGE_SECRETS_URL: server.url,
    CONVERGE_SECRETS_TOKEN: server.tokens.secrets,
  };
}

const files = readdirSync(DIR)
  .filter((f) => f.endsWith('.yaml'))
  .sort();

function expectations(file: string): string[] {
  const expected: string[] = [];
  for (const line of readFileSync(`${DIR}${file}`, 'utf8').split('\n')) {
    // `expect-file:` names another file (a template the manifest reads), relative to the corpus
    if (line.startsWith('# expect-file: ')) expected.push(line.slice('# expect-file: '.length));
    else if (line.startsWith('# expect: ')) expected.push(`${file}:${line.slice('# expect: '.length)}`);
    else break;
  }
  return expected;
}

const PROBLEM = /^([^\s:]+\.(?:yaml|tmpl)):\d+:\d+: /;

/**
 * A file's problem lines in a run. A run of many files can add one kind of
 * line that a file alone would not give: a duplicate of a singleton declared
 * in another file of the run. Those are set aside (and checked to be only that).
 */
function problemsByFile(stderr: string): { byFile: Map<string, string[]>; crossFile: string[]; count: number } {
  const byFile = new Map<string, string[]>();
  const crossFile: string[] = [];
  let count = 0;
  for (const line of stderr.split('\n')) {
    const match = PROBLEM.exec(line);
    if (!match) continue;
    count++;
    const file = match[1] ?? '';
    const also = / \(also declared at ([^:]+):\d+:\d+\)$/.exec(line);
    if (also && also[1] !== file) {
      crossFile.push(line);
      continue;
    }
    byFile.set(file, [...(byFile.get(file) ?? []), line]);
  }
  return { byFile, crossFile, count };
}

let server: Emulator;
beforeAll(async () => {
  server = await emulator();
});
afterAll(() => server?.close());

describe('the bad-input corpus', () => {
  it('has at least 50 files, each with its expected file:line:col messages', () => {
    expect(files.length).toBeGreaterThanOrEqual(50);
    for (const file of files) expect(expectations(file), file).not.toEqual([]);
  });

  it('covers every category of bad input', () => {
    // by file-name prefix; CIDRs and dangling references wait for kinds that have them
    const categories = {
      'YAML syntax': /^(yaml-|alias-)/,
      'wrong types': /^type-/,
      'unknown kinds': /^kind-unknown-/,
      'unknown fields': /^field-unknown-/,
      duplicates: /^duplicate-/,
      durations: /^duration-/,
      'semver version names': /^(pattern-version-name|version-name-|type-version-number)/,
      templates: /^interp-/,
      'missing env variables': /^(interp-env-missing|env-missing-|env-)/,
    };
    for (const [category, pattern] of Object.entries(categories)) {
      expect(files.filter((f) => pattern.test(f)).length, category).toBeGreaterThanOrEqual(2);
    }
  });

  it.each(['validate', 'plan', 'apply'])(
    '`converge %s` exits 1 with every expected message, and sends nothing',
    async (command) => {
      server.resetStats();
      const env = serverEnv();
      const extra = command === 'apply' ? ['--auto-approve'] : [];
      const r = await converge([command, ...files, ...extra], { cwd: DIR, env });
      expect(r.code, r.stderr).toBe(1);
      const { byFile, crossFile, count } = problemsByFile(r.stderr);
      for (const file of files) {
        const expected = expectations(file);
        // the problems of the templates a manifest reads come first, as converge prints them
        const others = [
          ...new Set(expected.filter((l) => !l.startsWith(`${file}:`)).map((l) => l.split(':')[0] ?? '')),
        ];
        const actual = [...others.flatMap((other) => byFile.get(other) ?? []), ...(byFile.get(file) ?? [])];
        expect(actual, file).toEqual(expected);
      }
      for (const line of crossFile) expect(line).toMatch(/: duplicate [A-Za-z]+ \(also declared at /);
      expect(r.stderr).toContain(`${count} problem(s); nothing was sent to any API`);
      expect(r.stdout + r.stderr).not.toContain(SECRET);
      expect(server.stats().total).toBe(0);
    },
    60_000,
  );

  it('reports a bad file among good ones, and still sends nothing', async () => {
    server.resetStats();
    const good = fileURLToPath(new URL('../fixtures/manifests/good/', import.meta.url));
    const env = serverEnv();
    const r = await converge(['plan', good, `${DIR}type-integer.yaml`], { env });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/type-integer\.yaml:4:9: spec\.port must be an integer \(got string "abc"\)/);
    expect(server.stats().total).toBe(0);
  });
});

/**
 * Bad input that git cannot hold, made on disk for each run: what looks like
 * a manifest but is not a regular file (a FIFO, a device, a looping or
 * outward link), and module versions whose content is outside the repository
 * or cannot be packed in bounded time (a FIFO, a link, a name that is not
 * UTF-8, more than one upload takes). Each is a `file:line:col` problem, and
 * nothing is sent (docs/security.md, "Reading input", "Module sources").
 */
describe('bad input on disk', () => {
  let scratch: string;
  const version = (n: number, field: string, path: string) => `    - {version: 1.0.${n}, ${field}: ${path}}`;
  const MODULES = [
    'kind: RegistryModule',
    'metadata: {organization: example-org, name: network, provider: aws}',
    'spec:',
    '  versions:',
    version(0, 'source', '../../elsewhere/infra-live'),
    version(1, 'archive', '/etc/hostname'),
    version(2, 'source', 'modules/linked-out'),
    version(3, 'source', 'modules/fifo-ignore'),
    version(4, 'source', 'modules/with-link'),
    version(5, 'source', 'modules/with-fifo'),
    version(6, 'source', 'modules/latin1'),
    version(7, 'source', 'modules/huge'),
    version(8, 'archive', 'modules/fifo.tar.gz'),
    '',
  ].join('\n');
  const ROOTS =
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the placeholder syntax, as converge prints it
    "module sources are read only where ${file:} may read (below the configuration's and the manifests' directories); interpolation.fileRoots of the configuration allows more";
  /** Problems of the walk first (no file was loaded for them), then the manifest's. */
  const expected = (elsewhere: string) => [
    'm/a-fifo.yaml:1:1: is not a regular file (a device, FIFO or socket): a manifest must be a file',
    'm/a-loop:1:1: a symbolic link that loops (to a directory holding it): fix or remove it',
    'm/a-null.yaml:1:1: is not a regular file (a device, FIFO or socket): a manifest must be a file',
    `m/modules/linked-out:1:1: a symbolic link out of the repository (to ${elsewhere}/infra-live): manifests are read only inside it`,
    `m/z-out:1:1: a symbolic link out of the repository (to ${elsewhere}): manifests are read only inside it`,
    `m/modules.yaml:5:32: ../../elsewhere/infra-live is outside the repository: ${ROOTS}`,
    `m/modules.yaml:6:33: /etc/hostname is outside the repository: ${ROOTS}`,
    `m/modules.yaml:7:32: modules/linked-out leads outside the repository through a symbolic link (to ${elsewhere}/infra-live): ${ROOTS}`,
    'm/modules.yaml:8:32: modules/fifo-ignore/.terraformignore: is not a regular file (a device, FIFO or socket)',
    'm/modules.yaml:9:32: modules/with-link/state.tf is a symbolic link; converge does not pack links',
    'm/modules.yaml:10:32: modules/with-fifo/pipe.tf is not a regular file, directory or link (a FIFO, socket or device); converge packs only files',
    'm/modules.yaml:11:32: modules/latin1/caf\\xe9.tf: the file name is not UTF-8',
    'm/modules.yaml:12:32: modules/huge: its files hold 100.0 MiB, more than a module version may (64.0 MiB, what the registry takes in one upload); the largest is big.bin (100.0 MiB)',
    'm/modules.yaml:13:33: modules/fifo.tar.gz is not a file',
  ];

  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'converge-bad-disk-'));
    const m = join(scratch, 'repo/m');
    const elsewhere = join(scratch, 'elsewhere/infra-live');
    await mkdir(elsewhere, { recursive: true });
    await writeFile(join(elsewhere, 'main.tf'), '');
    await writeFile(join(elsewhere, 'terraform.tfstate'), '{}');
    await mkdir(join(m, 'modules'), { recursive: true });
    await writeFile(join(m, 'modules.yaml'), MODULES);
    execFileSync('mkfifo', [join(m, 'a-fifo.yaml')]);
    await symlink('.', join(m, 'a-loop'));
    await symlink('/dev/null', join(m, 'a-null.yaml'));
    await symlink(join(scratch, 'elsewhere'), join(m, 'z-out'));
    await symlink(elsewhere, join(m, 'modules/linked-out'));
    const module = async (name: string) => {
      await mkdir(join(m, 'modules', name));
      await writeFile(join(m, 'modules', name, 'main.tf'), '');
      return join(m, 'modules', name);
    };
    execFileSync('mkfifo', [join(await module('fifo-ignore'), '.terraformignore')]);
    await symlink(join(elsewhere, 'terraform.tfstate'), join(await module('with-link'), 'state.tf'));
    execFileSync('mkfifo', [join(await module('with-fifo'), 'pipe.tf')]);
    await writeFile(Buffer.from(join(await module('latin1'), 'caf\xe9.tf'), 'latin1'), '');
    const huge = join(await module('huge'), 'big.bin');
    await writeFile(huge, '');
    await truncate(huge, 100 * 1024 * 1024);
    execFileSync('mkfifo', [join(m, 'modules/fifo.tar.gz')]);
  });
  afterAll(() => rm(scratch, { recursive: true, force: true }));

  it.each(['validate', 'plan', 'apply'])(
    '`converge %s` exits 1 at once with each problem at its place, and sends nothing',
    async (command) => {
      server.resetStats();
      const extra = command === 'apply' ? ['--auto-approve'] : [];
      const r = await converge([command, 'm', ...extra], { cwd: join(scratch, 'repo'), env: serverEnv() });
      expect(r.code, r.stderr).toBe(1);
      const lines = r.stderr.split('\n').filter((line) => /^m\//.test(line));
      expect(lines).toEqual(expected(join(scratch, 'elsewhere')));
      expect(r.stderr).toContain(`${lines.length} problem(s); nothing was sent to any API`);
      expect(server.stats().total).toBe(0);
    },
    30_000,
  );

  it('`converge validate` of a FIFO named explicitly answers at once', async () => {
    const r = await converge(['validate', 'm/a-fifo.yaml'], { cwd: join(scratch, 'repo'), env: serverEnv() });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'm/a-fifo.yaml:1:1: is not a regular file (a device, FIFO or socket): a manifest must be a file',
    );
  }, 10_000);
});
