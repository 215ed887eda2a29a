/**
 * A schema directory other than the package's own, compiled by ajv at run
 * time, once per kind, lazily: a run that only declares settings never
 * compiles the secrets kinds.
 */
import type { Ajv, AnySchemaObject, ValidateFunction } from 'ajv';
import { createAjv } from './ajv-setup.ts';
import { readSchema } from './schema-file.ts';
import { hasPath, typesAt } from './schema-types.ts';
import type { SchemaSet } from './schemas.ts';

export class CompiledSchemas implements SchemaSet {
  readonly dir: string;
  readonly #ajv: Ajv = createAjv();
  readonly #validators = new Map<string, ValidateFunction>();

  constructor(dir: string) {
    this.dir = dir;
  }

  validator(kind: string): ValidateFunction {
    let validate = this.#validators.get(kind);
    if (!validate) {
      validate = this.#ajv.compile(readSchema(this.dir, kind) as AnySchemaObject);
      this.#validators.set(kind, validate);
    }
    return validate;
  }

  typesAt(kind: string, path: string): readonly string[] | undefined {
    return typesAt(this.validator(kind).schema as Record<string, unknown>, path);
  }

  hasPath(kind: string, path: string): boolean {
    return hasPath(this.validator(kind).schema as Record<string, unknown>, path);
  }
}
