/**
 * The package as `npm run build` makes it: the bundle (scripts/build.ts), in a directory laid
 * out as the package is (package.json and schemas/ beside dist/), run as a process. It is the
 * bundle the other CLI tests run, built once for the vitest run by their global setup
 * (test/helpers/cli-bundle.ts: the same buildDist, the same layout); with the sources under
 * test instead (CONVERGE_TEST_FROM_SOURCE=1), this file builds one of its own.
 */
import { mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Metafile } from 'esbuild';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildDist } from '../../scripts/build.ts';
import { runNode } from '../helpers/cli.ts';
import { writeToolVersions } from '../unit/manifest/generated-set.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
// secrets long enough to be redacted anywhere: a shorter one is warned about on stderr (docs/security.md, "Redaction")
const EXAMPLES_ENV = {
  SMTP_PASSWORD: 'example-smtp-password',
  LDAP_URL: 'ldap://ldap.emulator.test',
  LDAP_BINDPASS: 'example-bind-password',
};

/** The package's directory (dist/ in it), the bin, and what esbuild says each output holds. */
let dir: string;
let main: string;
let metafile: Metafile;
/** Where the runs here write their manifests: not the package's directory, which other files' CLI runs share. */
let scratch: string;
/** A package built here, when there is no bundle of the run's (removed after the file). */
let own: string | undefined;

function built(args: string[], cwd: string, env: Record<string, string> = {}) {
  return runNode(main, args, { cwd, env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', ...env } });
}

/**
 * Every source file, bundled package file and external package an output loads before it
 * runs: its static imports, followed.
 */
function staticClosure(output: string): Set<string> {
  const loaded = new Set<string>();
  const visit = (name: string) => {
    if (loaded.has(name)) return;
    loaded.add(name);
    const meta = metafile.outputs[name];
    if (!meta) return;
    for (const input of Object.keys(meta.inputs)) loaded.add(input);
    for (const i of meta.imports) {
      if (i.kind !== 'import-statement') continue;
      if (i.external) loaded.add(i.path);
      else visit(i.path);
    }
  };
  visit(output);
  return loaded;
}

function outputOf(entry: string): string {
  const name = Object.keys(metafile.outputs).find((o) => metafile.outputs[o]?.entryPoint === entry);
  if (!name) throw new Error(`no output for ${entry}`);
  return name;
}

/** The chunk a dynamic import of `source` loads. */
function chunkOf(source: string): string {
  const name = Object.keys(metafile.outputs).find((o) => metafile.outputs[o]?.inputs[source]);
  if (!name) throw new Error(`no output holds ${source}`);
  return name;
}

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'converge-build-scratch-'));
  const bundle = inject('convergeBundle');
  const meta = inject('convergeBundleMetafile');
  if (bundle && meta) {
    main = bundle;
    dir = resolve(bundle, '../../..');
    metafile = JSON.parse(await readFile(meta, 'utf8')) as Metafile;
    return;
  }
  own = await mkdtemp(join(tmpdir(), 'converge-build-'));
  dir = own;
  await writeFile(join(dir, 'package.json'), await readFile(join(ROOT, 'package.json')));
  await symlink(join(ROOT, 'schemas'), join(dir, 'schemas'));
  await symlink(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  metafile = await buildDist({ out: join(dir, 'dist'), full: false });
  main = join(dir, 'dist/cli/main.js');
}, 120_000);

afterAll(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true });
  if (own) await rm(own, { recursive: true, force: true });
});

describe('the built CLI', () => {
  it('answers --version and -V with the package version', async () => {
    const { version } = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    for (const flag of ['--version', '-V']) {
      expect(await built([flag], scratch)).toMatchObject({ code: 0, stdout: `${version}\n`, stderr: '' });
    }
  });

  it('validates the examples, every kind, as the demo does', async () => {
    const result = await built(
      ['validate', 'base', 'environments/staging', '-c', 'environments/staging/converge.config.yaml', '--json'],
      join(ROOT, 'examples'),
      EXAMPLES_ENV,
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const { valid, kinds } = JSON.parse(result.stdout) as { valid: boolean; kinds: Record<string, number> };
    expect(valid).toBe(true);
    expect(Object.keys(kinds)).toHaveLength(18);
  });

  it('places schema problems at file:line:col, with the validators compiled at build time', async () => {
    await writeFile(
      join(scratch, 'bad.yaml'),
      [
        'kind: ToolVersion',
        'metadata:',
        '  name: 1.2.3',
        'spec:',
        '  url: https://example.com/t.zip',
        '  enabled: yes',
        '',
      ].join('\n'),
    );
    const result = await built(['validate', 'bad.yaml'], scratch);
    expect(result.code).toBe(1);
    expect(result.stdout + result.stderr).toContain('bad.yaml:6:12: spec.enabled must be');
  });

  it('validates a large set, and places a problem deep in it', async () => {
    const root = join(scratch, 'large');
    // 2,000 objects in 20 files, the size of the start-up benchmark's validate (docs/performance.md):
    // the point is a problem's place found in one file of many (its position worked out when read),
    // which does not depend on the count: 7,600 objects took twice the CPU (about 4 s for the two runs)
    await writeToolVersions(root, 20, 100, (f, d, text) =>
      f === 13 && d === 3 ? text.replace(/false$/, 'yes') : text,
    );
    const result = await built(['validate', 'large'], scratch);
    expect(result.stdout + result.stderr).toContain('large/objects-013.yaml:31:12: spec.enabled must be');
    expect(result.code).toBe(1);

    await writeFile(join(root, 'objects-013.yaml'), '');
    const valid = await built(['validate', 'large'], scratch);
    expect(valid).toMatchObject({ code: 0, stdout: 'Valid: 1900 object(s) (1900 ToolVersion).\n' });
  });

  it('finds the shipped schemas beside dist/', async () => {
    // run elsewhere: the schemas are found beside the bundle, not in the working directory
    const result = await built(['schema', 'ToolVersion'], scratch);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('ToolVersion');
  });

  it('loads only the chunks a command needs', () => {
    const version = [...staticClosure(outputOf('src/cli/main.ts'))];
    // main.ts imports the program dynamically; the program's own closure is what --version runs
    const program = [...staticClosure(chunkOf('src/cli/program.ts'))];
    const validate = [...staticClosure(chunkOf('src/cli/run/validate.ts'))];
    const heavy =
      /^(undici|ink|react|fastify)$|node_modules\/(ajv|yaml|cosmiconfig)\/|src\/(emulator|reconcile|ui\/ink)\//;
    expect(version.filter((f) => f.startsWith('src/'))).toEqual(['src/cli/main.ts']);
    // --version alone loads the version and nothing else
    const versionOnly = [...staticClosure(chunkOf('src/cli/version.ts'))];
    expect(versionOnly.filter((f) => f.startsWith('src/') || f.includes('node_modules/'))).toEqual([
      'src/cli/version.ts',
    ]);
    expect(program.filter((f) => heavy.test(f))).toEqual([]);
    expect(validate.filter((f) => /^(undici|ink|react|fastify)$|src\/(emulator|ui\/ink)\//.test(f))).toEqual([]);
    // what the test looks at is there: validate loads yaml and cosmiconfig (both bundled: scripts/build.ts)
    expect(validate.some((f) => f.includes('node_modules/cosmiconfig/'))).toBe(true);
    expect(validate.some((f) => f.includes('node_modules/yaml/'))).toBe(true);
    // the schemas' and the configuration's validators are compiled at build time
    expect(validate.filter((f) => f.includes('node_modules/ajv/dist/compile/'))).toEqual([]);
    // validate sends nothing: no HTTP client nor fingerprint store (src/cli/clients.ts holds them)
    expect(
      validate.filter((f) => /^src\/(api\/(client|connect)|cli\/clients|reconcile\/fingerprint-store)\.ts$/.test(f)),
    ).toEqual([]);
    expect(validate).toContain('src/cli/session.ts');
    // ajv-formats is bundled with ajv: as a package it `require`s a second, unbundled ajv
    const externals = Object.values(metafile.outputs).flatMap((o) => o.imports.filter((i) => i.external));
    expect(externals.filter((i) => /^ajv(-formats)?(\/|$)/.test(i.path))).toEqual([]);
    // the plan's line diffs bundle the few functions of `diff` they use, not the package's 30-odd files
    const plan = [...staticClosure(chunkOf('src/cli/run/plan.ts'))];
    expect(plan).not.toContain('diff');
    expect(plan.some((f) => f.includes('node_modules/diff/'))).toBe(true);
  });
});
