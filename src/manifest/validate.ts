import type { ValidateFunction } from 'ajv';
import { explainErrors, type SchemaProblem, secretWithin } from './schema-problems.ts';

/**
 * Validates a document against its kind's schema. ajv's useDefaults may fill
 * metadata (a default `mount`) but never spec: providers apply the API's
 * defaults themselves, and a default written into spec would look like a
 * value the user chose. So spec is validated on a copy.
 */
export function validateDocument(
  validate: ValidateFunction,
  document: Record<string, unknown>,
  secretPaths: ReadonlySet<string>,
  /** The document paths a placeholder made: a value that is not as written (no quoting fixes it). */
  madePaths: ReadonlySet<string> = new Set(),
): { validated: Record<string, unknown>; problems: SchemaProblem[] } {
  const validated = 'spec' in document ? { ...document, spec: cloneData(document.spec) } : { ...document };
  if (validate(validated)) return { validated, problems: [] };
  const problems = explainErrors(validate.errors ?? [], secretWithin(secretPaths), (path) => madePaths.has(path));
  return { validated, problems };
}

/**
 * A deep copy of YAML data (plain objects, arrays, scalars); much cheaper than
 * structuredClone for small specs. fromEntries defines properties, so a
 * `__proto__` key stays a key.
 */
function cloneData(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(cloneData);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, cloneData(item)]));
}
