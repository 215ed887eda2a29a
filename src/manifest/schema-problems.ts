/**
 * ajv errors -> one human message per problem, naming the dotted path and
 * what is expected. Secret values (write-only fields, placeholders) are never
 * echoed, nor is anything inside one: a secret map's keys and items are told
 * at the secret field, without their place.
 */
import type { ErrorObject } from 'ajv';
import { describeValue, typeWords } from './describe.ts';
import { joinPath, pointerToPath } from './paths.ts';
import { didYouMean } from './suggest.ts';

export interface SchemaProblem {
  /** Dotted path of the value the problem is about. */
  path: string;
  /** Point at the key rather than the value (unknown fields). */
  atKey: boolean;
  message: string;
}

type SchemaNode = { [key: string]: unknown };

const FORMAT_WORDS: Record<string, string> = {
  uri: 'must be a URL like "https://example.com/file.zip"',
  email: 'must be an email address',
};

/** The secret value that holds a path: the path itself, or the secret field it is inside. */
export type SecretAt = (path: string) => string | undefined;

/** `secretAt`: which value holding a path is secret, if any (`secretWithin` for a set of secret paths). */
export function explainErrors(
  errors: readonly ErrorObject[],
  secretAt: SecretAt,
  /** Whether a placeholder made the value at a path: a whole `${var:}` keeps its value's type. */
  made: (path: string) => boolean = () => false,
): SchemaProblem[] {
  const problems: SchemaProblem[] = [];
  const seen = new Set<string>();
  for (const error of errors) {
    const problem = explain(error, secretAt, made);
    // One problem per place: a URL that is neither https nor a URI is one mistake.
    const key = `${problem?.path}\0${problem?.atKey}\0${error.keyword === 'required' ? problem?.message : ''}`;
    if (problem && !seen.has(key)) {
      seen.add(key);
      problems.push(problem);
    }
  }
  return problems;
}

/** A set of secret paths as a SecretAt: a path is secret when it is one of them or inside one. */
export function secretWithin(paths: ReadonlySet<string>): SecretAt {
  return (path) => {
    if (paths.size === 0) return undefined;
    for (let at = path; ; at = at.slice(0, at.lastIndexOf('.'))) {
      if (paths.has(at)) return at;
      if (!at.includes('.')) return undefined;
    }
  };
}

function explain(error: ErrorObject, secretAt: SecretAt, made: (path: string) => boolean): SchemaProblem | undefined {
  const at = pointerToPath(error.instancePath);
  const secret = secretAt(at);
  // inside a secret value, keys are secret too: the problem is told at the secret field
  const inside = secret !== undefined && secret !== at;
  const path = inside ? secret : at;
  const schema = (error.parentSchema ?? {}) as SchemaNode;
  const params = error.params as SchemaNode;
  const custom = typeof schema.errorMessage === 'string' ? schema.errorMessage : undefined;
  const got = () => ` (got ${describeValue(error.data, schema.writeOnly === true || secret !== undefined)})`;
  const subject = inside ? `${label(path)} holds a value that` : label(path);
  const value = (message: string): SchemaProblem => ({ path, atKey: false, message: `${subject} ${message}` });
  switch (error.keyword) {
    case 'if':
      return undefined; // the failing then/else branch says what is wrong
    case 'additionalProperties': {
      const key = String(params.additionalProperty);
      const holder = secretAt(joinPath(at, key));
      if (holder === undefined) return unknownField(path, key, schema);
      const message = `has a key that is not allowed there (the key is hidden: the value is secret)`;
      return { path: holder, atKey: false, message: `${label(holder)} ${message}` };
    }
    case 'required': {
      if (inside) return value(`misses the required field "${params.missingProperty}"`);
      const where = path === '' ? '' : ` in ${path}`;
      return { path, atKey: false, message: `missing required field "${params.missingProperty}"${where}` };
    }
    case 'type': {
      const wanted = params.type as string | string[];
      // YAML reads an unquoted `1.2` or `true` as a number or a boolean; a whole `${var:}` keeps
      // its value's type, quoted or not
      const quote =
        wanted === 'string' && ['number', 'boolean'].includes(typeof error.data)
          ? made(at)
            ? // biome-ignore lint/suspicious/noTemplateCurlyInString: the placeholder's syntax, named in the message
              "; a whole ${var:} keeps its value's type: give the variable a string"
            : '; quote it to make it a string'
          : '';
      return value(`${custom ?? `must be ${typeWords(wanted)}`}${got()}${quote}`);
    }
    case 'enum':
      return value(
        `${custom ?? `must be one of ${(params.allowedValues as unknown[]).map(quote).join(', ')}`}${got()}`,
      );
    case 'const':
      return value(`must be ${quote(params.allowedValue)}${got()}`);
    case 'pattern': {
      const expected = schema.patternErrorMessage ?? custom ?? `must match the pattern ${params.pattern}`;
      return value(`${expected}${got()}`);
    }
    case 'format':
      return value(`${custom ?? FORMAT_WORDS[String(params.format)] ?? `must be a valid ${params.format}`}${got()}`);
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return value(`${custom ?? `must be ${BOUND_WORDS[error.keyword]} ${params.limit}`}${got()}`);
    case 'minLength':
      return value(params.limit === 1 ? 'must not be empty' : `must be at least ${params.limit} characters long`);
    case 'maxLength':
      return value(`must be at most ${params.limit} characters long`);
    case 'minItems':
      return value(params.limit === 1 ? 'must list at least one item' : `must list at least ${params.limit} items`);
    case 'uniqueItems':
      return value(
        `must not list the same item twice (items ${Math.min(Number(params.i), Number(params.j))} and ${Math.max(Number(params.i), Number(params.j))} are equal)`,
      );
    default:
      return value(custom ?? error.message ?? `is not valid (${error.keyword})`);
  }
}

const BOUND_WORDS: Record<string, string> = {
  minimum: 'at least',
  maximum: 'at most',
  exclusiveMinimum: 'greater than',
  exclusiveMaximum: 'less than',
};

const MAX_LISTED = 6;

function unknownField(path: string, field: string, schema: SchemaNode): SchemaProblem {
  const fieldPath = joinPath(path, field);
  const reserved = (schema['x-reserved-fields'] ?? {}) as Record<string, string>;
  if (Object.hasOwn(reserved, field)) {
    return { path: fieldPath, atKey: true, message: `${fieldPath} cannot be set in a manifest: ${reserved[field]}` };
  }
  const known = Object.keys((schema.properties ?? {}) as SchemaNode);
  const where = path === '' ? 'at the top level' : `in ${path}`;
  const listed = known.length > 0 && known.length <= MAX_LISTED ? ` (expected one of: ${known.join(', ')})` : '';
  const hint = didYouMean(field, known) || listed;
  return { path: fieldPath, atKey: true, message: `unknown field "${field}" ${where}${hint}` };
}

function label(path: string): string {
  return path === '' ? 'the document' : path;
}

function quote(value: unknown): string {
  return JSON.stringify(value);
}
