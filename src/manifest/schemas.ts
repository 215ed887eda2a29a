/**
 * The JSON Schemas of `schemas/`, compiled by ajv once per kind, lazily: a
 * run that only declares settings never compiles the secrets kinds.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv, type AnySchemaObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { DEFAULT_SCHEMA_DIR } from './schema-dir.ts';
import { typesAt } from './schema-types.ts';

export { DEFAULT_SCHEMA_DIR };

/**
 * Annotations our schemas carry. VS Code and the yaml-language-server show
 * `errorMessage`, `patternErrorMessage` and `deprecationMessage`;
 * `x-reserved-fields` names read-only API attributes so that setting one gets
 * a better message than "unknown field". ajv's strict mode only needs to know
 * they exist; schema-problems.ts reads them.
 */
const ANNOTATIONS = ['errorMessage', 'patternErrorMessage', 'deprecationMessage', 'x-reserved-fields'];

export class SchemaSet {
  readonly dir: string;
  readonly #ajv: Ajv;
  readonly #validators = new Map<string, ValidateFunction>();

  constructor(dir: string) {
    this.dir = dir;
    // useDefaults fills metadata defaults (a `mount`); the loader hides spec from it (see validate.ts).
    this.#ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true, verbose: true, useDefaults: true });
    addFormats.default(this.#ajv, ['uri', 'email']);
    for (const keyword of ANNOTATIONS) this.#ajv.addKeyword({ keyword });
  }

  /** The compiled schema of a kind. A kind without a schema file is a bug in converge, not bad input. */
  validator(kind: string): ValidateFunction {
    let validate = this.#validators.get(kind);
    if (!validate) {
      const file = join(this.dir, `${kind}.schema.json`);
      let text: string;
      try {
        text = readFileSync(file, 'utf8');
      } catch (cause) {
        throw new Error(`no schema for kind ${kind}: ${file}`, { cause });
      }
      const schema = JSON.parse(text) as AnySchemaObject;
      validate = this.#ajv.compile(schema);
      this.#validators.set(kind, validate);
    }
    return validate;
  }

  /** JSON Schema types the kind's schema wants at a dotted path (`spec.port` -> integer). */
  typesAt(kind: string, path: string): readonly string[] | undefined {
    return typesAt(this.validator(kind).schema as Record<string, unknown>, path);
  }
}

const sets = new Map<string, SchemaSet>();

/** One compiled set per schema directory for the life of the process. */
export function schemaSet(dir: string = DEFAULT_SCHEMA_DIR): SchemaSet {
  let set = sets.get(dir);
  if (!set) {
    set = new SchemaSet(dir);
    sets.set(dir, set);
  }
  return set;
}
