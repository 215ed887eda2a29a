/**
 * The corpus of bad manifests: each file in test/fixtures/manifests/bad/
 * starts with `# expect: <line>:<col>: <message>` lines, one per problem, in
 * the order converge reports them. Add a case by adding a file.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { formatProblem, InputError } from '../../../src/errors.ts';
import { loadManifests } from '../../../src/manifest/load.ts';
// the real catalog: the corpus covers the kinds' own rules (an SSH role's ttl within max_ttl) too
import { catalog } from '../../../src/providers/index.ts';

const dir = fileURLToPath(new URL('../../fixtures/manifests/bad/', import.meta.url));
const SECRET = 's3cr3t-value';
const env = { NOT_A_NUMBER: 'abc', SECRET };

function expectations(file: string): string[] {
  const lines = readFileSync(`${dir}${file}`, 'utf8').split('\n');
  const expected: string[] = [];
  for (const line of lines) {
    // `expect-file:` names another file (a template the manifest reads), relative to the corpus
    if (line.startsWith('# expect-file: ')) expected.push(line.slice('# expect-file: '.length));
    else if (line.startsWith('# expect: ')) expected.push(`${file}:${line.slice('# expect: '.length)}`);
    else break;
  }
  return expected;
}

async function problemsOf(file: string): Promise<string[]> {
  try {
    await loadManifests([file], catalog, { cwd: dir, env });
  } catch (error) {
    if (error instanceof InputError) return error.problems.map(formatProblem);
    throw error;
  }
  return [];
}

const files = readdirSync(dir)
  .filter((f) => f.endsWith('.yaml'))
  .sort();

describe('bad manifests', () => {
  it('has a corpus with an expectation in every file', () => {
    expect(files.length).toBeGreaterThanOrEqual(50);
    for (const file of files) expect(expectations(file), file).not.toEqual([]);
  });

  it.each(files)('%s reports exactly its expected problems', async (file) => {
    expect(await problemsOf(file)).toEqual(expectations(file));
  });

  it('never shows the value of a placeholder in a problem', async () => {
    for (const file of files) {
      for (const problem of await problemsOf(file)) expect(problem).not.toContain(SECRET);
    }
  });
});
