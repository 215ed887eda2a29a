/**
 * The JSON Schemas of a schema directory, as validators. The package's own
 * `schemas/` ship compiled (validators.generated.js, written at build time
 * by scripts/build-validators.ts): a run compiles no schema. Another
 * directory (`LoadOptions.schemaDir`) is compiled by ajv at run time, once
 * per kind, lazily (schema-compiler.ts). Either is imported only when a run
 * loads manifests, so commands that do not never load ajv.
 */
import { resolve } from 'node:path';
import type { ValidateFunction } from 'ajv';
import { DEFAULT_SCHEMA_DIR } from './schema-dir.ts';

export { DEFAULT_SCHEMA_DIR };

export interface SchemaSet {
  readonly dir: string;
  /** The validator of a kind. A kind without a schema file is a bug in converge, not bad input. */
  validator(kind: string): ValidateFunction;
  /** JSON Schema types the kind's schema wants at a dotted path (`spec.port` -> integer). */
  typesAt(kind: string, path: string): readonly string[] | undefined;
  /** Whether the kind's schema has a value at a dotted path (`*` for any key): a field path a document names. */
  hasPath(kind: string, path: string): boolean;
}

const sets = new Map<string, Promise<SchemaSet>>();

/** One set per schema directory for the life of the process. */
export function schemaSet(dir: string = DEFAULT_SCHEMA_DIR): Promise<SchemaSet> {
  const key = resolve(dir);
  let set = sets.get(key);
  if (!set) {
    set =
      key === resolve(DEFAULT_SCHEMA_DIR)
        ? import('./shipped-schemas.ts').then(({ ShippedSchemas }) => new ShippedSchemas(dir))
        : import('./schema-compiler.ts').then(({ CompiledSchemas }) => new CompiledSchemas(dir));
    sets.set(key, set);
  }
  return set;
}
