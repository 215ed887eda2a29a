import type { AnySchemaObject } from 'ajv';
import { describe, expect, it } from 'vitest';
import { createAjv } from '../../../src/manifest/ajv-setup.ts';
import { variableSchemaCompiler } from '../../../src/manifest/variable-schema.ts';

/**
 * Schemas a Variable may declare: valid ones, ones the draft-07 meta-schema refuses (one error
 * and several), ones converge's own schemas' strict mode would refuse, or that name a meta-schema.
 */
const SCHEMAS: Array<Record<string, unknown>> = [
  { type: 'string', pattern: '^[0-9]+[smh]$' },
  { type: 'integer', minimum: 1, maximum: 10 },
  {
    type: 'object',
    required: ['a'],
    properties: { a: { type: 'string', format: 'uri' } },
    additionalProperties: false,
  },
  { type: ['string', 'null'], enum: ['a', 'b', null] },
  { type: 'array', items: { type: 'string', minLength: 2 }, uniqueItems: true },
  { anyOf: [{ type: 'string' }, { type: 'number' }], not: { const: 0 } },
  { $schema: 'http://json-schema.org/draft-07/schema#', type: 'string' },
  { $schema: 'http://json-schema.org/draft-07/schema', type: 'boolean' },
  { type: 'strin' },
  { type: 5 },
  { minLength: -1, maxLength: 'x' },
  { required: 'a', properties: { a: { type: 'nope' } }, items: [{ enum: [] }] },
  { pattern: 3, additionalProperties: 'no', dependencies: { a: 7 } },
  { $schema: 'http://json-schema.org/draft-07/schema#', type: 'nope' },
  { $schema: 5, type: 'string' },
  { $schema: 'https://example.com/not-a-meta-schema', type: 'string' },
  { type: 'string', unknownKeyword: true },
  { type: 'string', format: 'date' },
  { type: 'string', default: 'x', examples: ['y'], title: 't', description: 'd', $comment: 'c' },
  { type: 'object', required: ['a'] },
  { minimum: 1 },
  { properties: { a: { type: 'string' } } },
  { type: 'string', 'x-owner': 'platform' },
  { type: 'string', format: 'nosuchformat' },
];

const VALUES = ['1h', '90x', 5, 0, 11, null, true, 'a', ['ab', 'ab'], ['ab', 'cd'], { a: 'https://x.test' }, { a: 1 }];

/** The outcome of compiling with ajv's own meta-schema check, and what the validator says of each value. */
function outcome(compile: (schema: AnySchemaObject) => (data: unknown) => boolean, schema: Record<string, unknown>) {
  try {
    const validate = compile(structuredClone(schema) as AnySchemaObject);
    return VALUES.map((value) => {
      const data = structuredClone(value);
      const valid = validate(data);
      return { valid, data, errors: structuredClone((validate as { errors?: unknown }).errors ?? null) };
    });
  } catch (error) {
    return { error: (error as Error).message };
  }
}

describe("a Variable's schema", () => {
  it("is refused and compiled exactly as by ajv's own meta-schema check", () => {
    let refused = 0;
    for (const schema of SCHEMAS) {
      const ours = outcome(variableSchemaCompiler(), schema);
      const ajv = createAjv(undefined, { userSchema: true });
      expect(ours, JSON.stringify(schema)).toEqual(outcome((s) => ajv.compile(s), schema));
      if ('error' in ours && ours.error.startsWith('schema is invalid: ')) refused += 1;
    }
    // the meta-schema's errors themselves are compared, not only that some error was thrown
    expect(refused).toBeGreaterThanOrEqual(6);
  });

  it('is any valid JSON Schema: what strict mode would refuse is taken as the standard reads it', () => {
    const compile = variableSchemaCompiler();
    expect(compile({ type: 'object', required: ['a'] })({ a: 1 })).toBe(true);
    expect(compile({ type: 'object', required: ['a'] })({})).toBe(false);
    expect(compile({ minimum: 1 })(0)).toBe(false);
    expect(compile({ minimum: 1 })('text')).toBe(true);
    expect(compile({ type: 'string', 'x-owner': 'platform' })('a')).toBe(true);
    // an unknown format is an annotation: ignored, and nothing is logged
    expect(compile({ type: 'string', format: 'nosuchformat' })('a')).toBe(true);
  });

  it('names every error of an invalid schema, as ajv does with allErrors', () => {
    expect(() => variableSchemaCompiler()({ type: 'strin', minLength: -1 })).toThrow(
      /^schema is invalid: data\/minLength must be >= 0, .*data\/type must match a schema in anyOf$/,
    );
  });

  it('fails a second schema with the same $id, as one ajv does', () => {
    const compile = variableSchemaCompiler();
    compile({ $id: 'https://example.com/duration', type: 'string' });
    expect(() => compile({ $id: 'https://example.com/duration', type: 'integer' })).toThrow(/already exists/);
  });
});
