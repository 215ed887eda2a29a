/**
 * `converge schema` as a process (offline), and the modelines of the example
 * repository, which point editors at the same schemas.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { firstSentence } from '../../src/cli/run/schema.ts';
import { MANIFEST_ONLY_KINDS } from '../../src/manifest/manifest-only.ts';
import { providers } from '../../src/providers/index.ts';
import { converge } from '../helpers/cli.ts';

const SCHEMAS = fileURLToPath(new URL('../../schemas/', import.meta.url));
const EXAMPLES = fileURLToPath(new URL('../../examples/', import.meta.url));
const KINDS = [...providers.map((p) => p.kind), ...MANIFEST_ONLY_KINDS];

const schemaFile = async (kind: string) => JSON.parse(await readFile(join(SCHEMAS, `${kind}.schema.json`), 'utf8'));

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'converge-schema-'));
});
afterAll(() => rm(scratch, { recursive: true, force: true }));

describe('converge schema', () => {
  it('lists every kind with a one-line description', async () => {
    const result = await converge(['schema']);
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.split('\n');
    for (const kind of KINDS) {
      const line = lines.find((l) => l.startsWith(`${kind} `));
      expect(line, kind).toBeDefined();
      expect(line!.slice(kind.length).trim()).toBe(firstSentence((await schemaFile(kind)).description));
    }
    // one column: every description starts where the longest kind name ends, plus a gap
    const width = Math.max(...KINDS.map((k) => k.length)) + 2;
    expect(result.stdout).toContain(
      `${'GeneralSettings'.padEnd(width)}Site-wide general settings of a self-managed installation.`,
    );
  });

  it('prints the schema of one kind as JSON, whatever the case of its name', async () => {
    const result = await converge(['schema', 'ToolVersion']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(await schemaFile('ToolVersion'));
    const lower = await converge(['schema', 'smtpsettings']);
    expect(JSON.parse(lower.stdout).title).toBe('SMTPSettings');
  });

  it('prints the schema of a manifest-only kind (Policy) too', async () => {
    const result = await converge(['schema', 'Policy']);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(await schemaFile('Policy'));
  });

  it('exits 1 for an unknown kind, with a suggestion', async () => {
    const result = await converge(['schema', 'ToolVersoin']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('unknown kind "ToolVersoin"; did you mean "ToolVersion"?');
    const far = await converge(['schema', 'Nothing']);
    expect(far.code).toBe(1);
    expect(far.stderr).toContain('converge schema` lists them');
  });

  it('prints every schema keyed by kind with --all', async () => {
    const result = await converge(['schema', '--all']);
    expect(result.code).toBe(0);
    const all = JSON.parse(result.stdout);
    expect(Object.keys(all)).toEqual(KINDS);
    expect(all.AdminUser).toEqual(await schemaFile('AdminUser'));
  });

  it('writes <Kind>.schema.json files with --out', async () => {
    const out = join(scratch, 'schemas');
    const result = await converge(['schema', '--out', out]);
    expect(result.code).toBe(0);
    expect((await readdir(out)).sort()).toEqual(KINDS.map((k) => `${k}.schema.json`).sort());
    for (const kind of KINDS)
      expect(JSON.parse(await readFile(join(out, `${kind}.schema.json`), 'utf8'))).toEqual(await schemaFile(kind));
    const one = join(scratch, 'one');
    expect((await converge(['schema', 'SAMLSettings', '--out', one])).code).toBe(0);
    expect(await readdir(one)).toEqual(['SAMLSettings.schema.json']);
  });
});

describe('the example manifests', () => {
  it('start with a yaml-language-server modeline pointing at the schema of their kind', async () => {
    const entries = await readdir(EXAMPLES, { recursive: true, withFileTypes: true });
    // manifests only: not the converge configuration files, not values files, not the CI workflows
    const files = entries
      .filter(
        (e) =>
          e.isFile() &&
          e.name.endsWith('.yaml') &&
          e.name !== 'converge.config.yaml' &&
          !e.name.endsWith('.test.yaml') &&
          !/(^|\.)values\.yaml$/.test(e.name),
      )
      .map((e) => join(e.parentPath, e.name))
      .filter((file) => !relative(EXAMPLES, file).startsWith('.github'));
    expect(files.length).toBeGreaterThan(5);
    for (const file of files) {
      const text = await readFile(file, 'utf8');
      const kinds = new Set(parseAllDocuments(text).map((d) => (d.toJS() as { kind: string }).kind));
      expect(kinds.size, `${relative(EXAMPLES, file)} holds one kind`).toBe(1);
      const [kind] = kinds;
      const modeline = text.split('\n')[0]!;
      expect(modeline, relative(EXAMPLES, file)).toMatch(
        new RegExp(`^# yaml-language-server: \\$schema=(\\.\\./)+schemas/${kind}\\.schema\\.json$`),
      );
      const target = join(dirname(file), modeline.split('$schema=')[1]!);
      expect((JSON.parse(await readFile(target, 'utf8')) as { title: string }).title).toBe(kind);
    }
  });
});
