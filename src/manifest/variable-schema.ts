/**
 * Compiles a Variable's `spec.schema` (docs/environments.md, "Variables"). ajv checks a schema
 * against its meta-schema before compiling it, and compiling draft-07's meta-schema on first use
 * was most of what a Variable with a schema cost a run (~60 ms of CPU; docs/performance.md,
 * "Start-up"). The check runs the meta-schema's validator compiled at build time
 * (scripts/build-validators.ts) instead, and fails with ajv's own message; a schema that names
 * another meta-schema in `$schema` is checked by ajv as before.
 */
import type { Ajv, AnySchemaObject, ValidateFunction } from 'ajv';
import { createAjv } from './ajv-setup.ts';
import { draft07 } from './meta-schema-validator.generated.js';

/** ajv's default meta-schema, with or without the empty fragment. */
const DRAFT_07 = /^http:\/\/json-schema\.org\/draft-07\/schema#?$/;

/** One ajv for the schemas of a load: compiling two schemas with the same `$id` fails as before. */
export function variableSchemaCompiler(): (schema: AnySchemaObject) => ValidateFunction {
  const ajv = createAjv(undefined, { validateSchema: false, userSchema: true });
  return (schema) => {
    checkSchema(ajv, schema);
    return ajv.compile(schema);
  };
}

/** What ajv's `validateSchema(schema, true)` does before a compile (ajv/dist/core.js). */
function checkSchema(ajv: Ajv, schema: AnySchemaObject | boolean): void {
  if (typeof schema === 'boolean') return;
  const { $schema } = schema;
  if ($schema !== undefined && typeof $schema !== 'string') throw new Error('$schema must be a string');
  if ($schema && !DRAFT_07.test($schema)) {
    ajv.validateSchema(schema, true);
    return;
  }
  if (!draft07(schema)) throw new Error(`schema is invalid: ${ajv.errorsText(draft07.errors)}`);
}
