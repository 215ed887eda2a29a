/**
 * The package's own `schemas/`, compiled at build time: one CommonJS module
 * per kind in ./validators/ (scripts/build-validators.ts), `require`d when a
 * run first validates a document of that kind, so that a run loads the
 * validators of the kinds it has and no other (all of them were ~35 ms of
 * every start; docs/performance.md, "Start-up"). The bundle carries the
 * directory as it is (scripts/build.ts). The JSON itself is read only when a
 * kind's types are asked for (a placeholder to convert), once per kind.
 */
import { createRequire } from 'node:module';
import type { ValidateFunction } from 'ajv';
import { readSchema } from './schema-file.ts';
import { hasPath, typesAt } from './schema-types.ts';
import type { SchemaSet } from './schemas.ts';

const requireValidator = createRequire(new URL('./validators/', import.meta.url));

/** What a kind's module can be named: a kind is a word (the schemas' file names), never a path. */
const KIND = /^[A-Za-z][A-Za-z0-9]*$/;

export class ShippedSchemas implements SchemaSet {
  readonly dir: string;
  readonly #schemas = new Map<string, Record<string, unknown>>();
  readonly #validators = new Map<string, ValidateFunction>();

  constructor(dir: string) {
    this.dir = dir;
  }

  validator(kind: string): ValidateFunction {
    let validate = this.#validators.get(kind);
    if (!validate) {
      validate = KIND.test(kind) ? load(kind) : undefined;
      // a kind without a schema file fails as in any directory (schema-file.ts)
      if (!validate) {
        readSchema(this.dir, kind);
        return missing(kind);
      }
      this.#validators.set(kind, validate);
    }
    return validate;
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

/** The kind's compiled validator; undefined when the build wrote none for it. */
function load(kind: string): ValidateFunction | undefined {
  try {
    return (requireValidator(`./${kind}.generated.cjs`) as Record<string, ValidateFunction | undefined>)[kind];
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'MODULE_NOT_FOUND') return undefined;
    throw error;
  }
}

/** A schema file the build did not compile: the generated modules are older than schemas/. */
function missing(kind: string): never {
  throw new Error(`no compiled validator for kind ${kind}: run \`node scripts/build-validators.ts\``);
}
