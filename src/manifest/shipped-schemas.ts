/**
 * The package's own `schemas/`, compiled at build time
 * (validators.generated.js). The JSON itself is read only when a kind's
 * types are asked for (a placeholder to convert), once per kind.
 */
import type { ValidateFunction } from 'ajv';
import { readSchema } from './schema-file.ts';
import { hasPath, typesAt } from './schema-types.ts';
import type { SchemaSet } from './schemas.ts';
import * as generated from './validators.generated.js';

const validators: Record<string, ValidateFunction | undefined> = generated;

export class ShippedSchemas implements SchemaSet {
  readonly dir: string;
  readonly #schemas = new Map<string, Record<string, unknown>>();

  constructor(dir: string) {
    this.dir = dir;
  }

  validator(kind: string): ValidateFunction {
    const validate = Object.hasOwn(validators, kind) ? validators[kind] : undefined;
    if (validate) return validate;
    // a kind without a schema file fails as in any directory (schema-file.ts)
    readSchema(this.dir, kind);
    return missing(kind);
  }

  typesAt(kind: string, path: string): readonly string[] | undefined {
    return typesAt(this.#schema(kind), path);
  }

  hasPath(kind: string, path: string): boolean {
    return hasPath(this.#schema(kind), path);
  }

  #schema(kind: string): Record<string, unknown> {
    let schema = this.#schemas.get(kind);
    if (!schema) {
      schema = readSchema(this.dir, kind);
      this.#schemas.set(kind, schema);
    }
    return schema;
  }
}

/** A schema file the build did not compile: the generated module is older than schemas/. */
function missing(kind: string): never {
  throw new Error(`no compiled validator for kind ${kind}: run \`node scripts/build-validators.ts\``);
}
