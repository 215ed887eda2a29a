/**
 * The configuration file's schema errors as one line each, read against the schema itself
 * (./schema.ts, loaded only when a file is invalid): an unknown key with the key it most likely
 * meant, and a value that fits none of a `oneOf`'s forms as one line naming them, not one line per
 * form that failed.
 */
import type { ErrorObject } from 'ajv';
import { joinPath } from '../manifest/paths.ts';
import { didYouMean } from '../manifest/suggest.ts';
import type { Position } from '../reconcile/types.ts';
import { configSchema } from './schema.ts';

type Node = { [key: string]: unknown };

/** Where the file's values and keys are, by dotted path (src/manifest/documents.ts); absent for code. */
export interface ConfigPositions {
  values: Record<string, Position>;
  keys: Record<string, Position>;
}

export function configProblems(errors: readonly ErrorObject[], file: string, positions?: ConfigPositions): string[] {
  // a key that names nothing (`variables: {bad-name: 1}`) is one line naming it, not its pattern's
  const named = errors.filter((e) => e.propertyName === undefined);
  const choices = named.filter((e) => e.keyword === 'oneOf').map((e) => e.schemaPath);
  return named
    .filter((e) => !choices.some((choice) => e.schemaPath.startsWith(`${choice}/`)))
    .map((e) => {
      const dotted = e.instancePath.replace(/^\//, '').replaceAll('/', '.');
      const path = dotted || '(top level)';
      // the line of the key a problem names, else of the value: file:line:col, as for manifests
      const key = e.params.propertyName ?? e.params.additionalProperty;
      const at =
        (key !== undefined ? positions?.keys[joinPath(dotted, String(key))] : undefined) ??
        positions?.values[dotted] ??
        positions?.keys[dotted];
      const where = at ? `${file}:${at.line}:${at.col}` : file;
      switch (e.keyword) {
        case 'propertyNames':
          return `${where}: ${path}: "${String(e.params.propertyName)}" is not a name (letters, digits and _)`;
        case 'additionalProperties': {
          const key = String(e.params.additionalProperty);
          const known = Object.keys((nodeAt(parentPath(e.schemaPath)).properties as Node | undefined) ?? {});
          const hint =
            key === 'token' && known.includes('tokenEnv')
              ? ': a token is never kept in a file; tokenEnv names the environment variable that holds it'
              : didYouMean(key, known) || (known.length > 0 ? `; expected one of: ${known.join(', ')}` : '');
          return `${where}: ${path}: unknown key "${key}"${hint}`;
        }
        case 'oneOf': {
          const forms = ((nodeAt(e.schemaPath) as unknown as Node[] | undefined) ?? []).map(formWords);
          return `${where}: ${path} must be ${forms.join(', or ')}`;
        }
        default:
          return `${where}: ${path} ${e.message ?? 'is invalid'}`;
      }
    });
}

/** A `oneOf` form in words: `false`, `a mapping`, `a string`. */
function formWords(form: Node): string {
  if ('const' in form) return JSON.stringify(form.const);
  if (form.type === 'object') {
    const required = (form.required as string[] | undefined) ?? [];
    return required.length > 0 ? `a mapping with ${required.join(', ')}` : 'a mapping';
  }
  return typeof form.type === 'string' ? `a ${form.type}` : 'another form';
}

/** The schema node at an error's `schemaPath` (`#/properties/fingerprints/oneOf`), following `$ref`s. */
function nodeAt(schemaPath: string): Node {
  let node: unknown = configSchema;
  for (const step of schemaPath.replace(/^#\/?/, '').split('/').filter(Boolean)) {
    node = (node as Node | undefined)?.[decodeURIComponent(step.replaceAll('~1', '/').replaceAll('~0', '~'))];
  }
  return (node ?? {}) as Node;
}

const parentPath = (schemaPath: string) => schemaPath.slice(0, schemaPath.lastIndexOf('/'));
