import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { generatedFiles, staleKindModules } from '../../../scripts/build-validators.ts';
import { parseDocuments } from '../../../src/manifest/documents.ts';
import { CompiledSchemas } from '../../../src/manifest/schema-compiler.ts';
import { DEFAULT_SCHEMA_DIR, schemaSet } from '../../../src/manifest/schemas.ts';

const KINDS = readdirSync(DEFAULT_SCHEMA_DIR)
  .filter((f) => f.endsWith('.schema.json'))
  .map((f) => f.slice(0, -'.schema.json'.length));

/** Every document of the bad and good corpora that names a kind: the errors they raise cover the keywords. */
function corpus(): Array<{ name: string; doc: Record<string, unknown> }> {
  const root = fileURLToPath(new URL('../../fixtures/manifests/', import.meta.url));
  const files = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((f) => /\.ya?ml$/.test(f));
  return files.flatMap((file) =>
    parseDocuments(readFileSync(join(root, file), 'utf8'), file)
      .documents.map((d) => d.data as Record<string, unknown>)
      .filter((doc) => doc !== null && typeof doc === 'object' && KINDS.includes(doc.kind as string))
      .map((doc, i) => ({ name: `${file}#${i}`, doc })),
  );
}

/** What schema-problems.ts reads of an error, and what useDefaults wrote. */
function outcome(validate: (data: unknown) => boolean, doc: unknown) {
  const data = structuredClone(doc);
  const valid = validate(data);
  const errors = (validate as unknown as { errors?: unknown[] }).errors ?? [];
  return { valid, data, errors: structuredClone(errors) };
}

describe('the validators compiled at build time', () => {
  it('are what scripts/build-validators.ts writes from schemas/ (run it when this fails)', () => {
    for (const [url, text] of generatedFiles()) expect(readFileSync(url, 'utf8'), url.pathname).toBe(text);
    // and there is no module of a kind whose schema is gone
    expect(staleKindModules()).toEqual([]);
  });

  it('cover every kind that has a schema', async () => {
    const shipped = await schemaSet();
    for (const kind of KINDS) expect(() => shipped.validator(kind), kind).not.toThrow();
    expect(KINDS.length).toBeGreaterThanOrEqual(18);
  });

  it('report exactly what ajv compiling the schemas at run time reports, defaults included', async () => {
    const shipped = await schemaSet();
    const compiled = new CompiledSchemas(DEFAULT_SCHEMA_DIR);
    const docs = corpus();
    expect(docs.length).toBeGreaterThan(50);
    let invalid = 0;
    for (const { name, doc } of docs) {
      const kind = doc.kind as string;
      const fast = outcome(shipped.validator(kind), doc);
      expect(fast, name).toEqual(outcome(compiled.validator(kind), doc));
      if (!fast.valid) invalid += 1;
    }
    expect(invalid).toBeGreaterThan(20);
  });

  it('fall back to compiling at run time for another schema directory', async () => {
    const dir = fileURLToPath(new URL('../../fixtures/manifests/schema-dir/', import.meta.url));
    const set = await schemaSet(dir);
    expect(set).toBeInstanceOf(CompiledSchemas);
    expect(await schemaSet(DEFAULT_SCHEMA_DIR)).not.toBeInstanceOf(CompiledSchemas);
  });
});
