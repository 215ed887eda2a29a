/**
 * The corpus of bad manifests (test/fixtures/manifests/bad/, each file with
 * its `# expect: line:col: message` lines) through the CLI as a process:
 * validate, plan and apply exit 1, print every expected `file:line:col:
 * message`, and the emulator sees no request at all. Files go several to a
 * process to keep this fast; each one's problems are still checked exactly.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { converge } from '../helpers/cli.ts';
import { type Emulator, emulator } from './support.ts';

const DIR = fileURLToPath(new URL('../fixtures/manifests/bad/', import.meta.url));
/** What the corpus's placeholders read (as in test/unit/manifest/corpus.test.ts). */
const SECRET = 's3cr3t-value';
const ENV = { NOT_A_NUMBER: 'abc', SECRET };
const BATCH = 30;

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

const batches: string[][] = [];
for (let i = 0; i < files.length; i += BATCH) batches.push(files.slice(i, i + BATCH));

const PROBLEM = /^([^\s:]+\.(?:yaml|tmpl)):\d+:\d+: /;

/**
 * A file's problem lines in a run. A batch can add one kind of line that a
 * file alone would not give: a duplicate of a singleton declared in another
 * file of the batch. Those are set aside (and checked to be only that).
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
      const results = await Promise.all(
        batches.map((batch) => converge([command, ...batch, ...extra], { cwd: DIR, env }).then((r) => ({ batch, r }))),
      );
      for (const { batch, r } of results) {
        expect(r.code, `${command} ${batch.join(' ')}\n${r.stderr}`).toBe(1);
        const { byFile, crossFile, count } = problemsByFile(r.stderr);
        for (const file of batch) {
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
      }
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
