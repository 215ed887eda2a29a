/**
 * The one ajv configuration of converge's schemas. The validators compiled at
 * build time (scripts/build-validators.ts) and those compiled at run time for
 * another schema directory (schema-compiler.ts) must report the same errors,
 * so both start from here.
 */
import { Ajv, type CodeOptions } from 'ajv';
import addFormats from 'ajv-formats';

/**
 * Annotations our schemas carry. VS Code and the yaml-language-server show
 * `errorMessage`, `patternErrorMessage` and `deprecationMessage`;
 * `x-reserved-fields` names read-only API attributes so that setting one gets
 * a better message than "unknown field". ajv's strict mode only needs to know
 * they exist; schema-problems.ts reads them.
 */
const ANNOTATIONS = ['errorMessage', 'patternErrorMessage', 'deprecationMessage', 'x-reserved-fields'];

export interface AjvSetupOptions {
  /**
   * Check each schema against its meta-schema before compiling it (ajv's default). False where
   * the caller checks it itself with the meta-schema's validator compiled at build time
   * (variable-schema.ts).
   */
  validateSchema?: boolean;
  /**
   * A user's schema (a Variable's `spec.schema`), not converge's: any valid JSON Schema is taken,
   * as the standard reads it. ajv's strict mode, which keeps converge's own schemas exact, would
   * refuse valid ones (`required` without `properties`, `minimum` without `type`, an `x-`
   * keyword), and an unknown format is ignored, as the standard says, not logged.
   */
  userSchema?: boolean;
}

/** `code` is for ajv's standalone output (the build); run-time compiles leave it out. */
export function createAjv(
  code?: CodeOptions,
  { validateSchema = true, userSchema = false }: AjvSetupOptions = {},
): Ajv {
  // verbose: schema-problems.ts reads the failing value and its schema from each error.
  // useDefaults fills metadata defaults (a `mount`); the loader hides spec from it (see validate.ts).
  const ajv = new Ajv({
    allErrors: true,
    strict: !userSchema,
    ...(userSchema && { logger: false as const }),
    allowUnionTypes: true,
    verbose: true,
    useDefaults: true,
    validateSchema,
    ...(code && { code }),
  });
  addFormats.default(ajv, ['uri', 'email']);
  for (const keyword of ANNOTATIONS) ajv.addKeyword({ keyword });
  return ajv;
}
