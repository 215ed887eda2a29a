/**
 * The variables pre-pass of a load (docs/environments.md, "Variables"): the
 * `kind: Variable` documents of every file are declared, each is given its
 * value (the given ones by precedence, gathered in variable-values.ts, or its
 * default) and that value is checked against its schema, before any document
 * is interpolated. A sensitive variable's value is never shown, not even by
 * the problem that refuses it.
 */
import type { AnySchemaObject, ErrorObject, ValidateFunction } from 'ajv';
import { formatPosition, type InputProblem } from '../errors.ts';
import type { Position } from '../reconcile/types.ts';
import { positionOf, type SourceDocument } from './documents.ts';
import type { ManifestOnlyDocument } from './manifest-only.ts';
import { explainErrors } from './schema-problems.ts';
import { didYouMean } from './suggest.ts';

/** A value given for a variable, and where: a line of a file, or a flag or an environment variable (line 0). */
export interface GivenValue {
  value: unknown;
  /** The text as given on the command line or in the environment: a string schema takes it as written (`--var v=45`). */
  text?: string;
  at: Position;
}

/** The values given for variables by name, the winner of the precedence only, and the problems of reading them. */
export interface GivenValues {
  values: ReadonlyMap<string, GivenValue>;
  problems: readonly InputProblem[];
}

export interface VariableValue {
  /** undefined: no value given and no default (an error only where it is used). */
  value: unknown;
  sensitive: boolean;
  /** Its value failed the schema: the problem is reported at the value, a use says no more. */
  invalid: boolean;
  declared: Position;
}

export type VariableLookup = ReadonlyMap<string, VariableValue>;

export interface ResolvedVariables {
  variables: VariableLookup;
  problems: InputProblem[];
}

/**
 * The declared variables with their values. `declarations` are the Variable documents, valid
 * against schemas/Variable.schema.json (document.ts checked them).
 */
export async function resolveVariables(
  declarations: ReadonlyArray<{ doc: SourceDocument; document: ManifestOnlyDocument }>,
  given: GivenValues | undefined,
): Promise<ResolvedVariables> {
  const problems: InputProblem[] = [...(given?.problems ?? [])];
  const variables = new Map<string, VariableValue>();
  // ajv itself is loaded only when a variable has a schema: the kinds' validators ship compiled
  const compile = declarations.some((d) => schemaOf(d.document) !== undefined) ? await loadCompiler() : undefined;
  for (const { doc, document } of declarations) {
    const name = document.name;
    const at = (path: string) => positionOf(doc, path);
    const first = variables.get(name);
    if (first) {
      problems.push({
        ...at('metadata.name'),
        message: `variable "${name}" is declared twice (also at ${formatPosition(first.declared)})`,
      });
      continue;
    }
    const spec = (document.data.spec ?? {}) as { message?: string; sensitive?: boolean };
    const sensitive = spec.sensitive === true;
    const declared = at('metadata.name');
    const schema = schemaOf(document);
    let validate: ValidateFunction | undefined;
    try {
      validate = schema === undefined ? undefined : compile?.(schema);
    } catch (error) {
      problems.push({
        ...at('spec.schema'),
        message: `spec.schema is not a valid JSON Schema: ${(error as Error).message}`,
      });
      variables.set(name, { value: undefined, sensitive, invalid: true, declared });
      continue;
    }
    const from = given?.values.get(name) ?? defaultOf(document, at);
    const checked = from && checkValue(name, from, validate, spec.message, sensitive);
    if (checked?.problem) problems.push(checked.problem);
    variables.set(name, { value: checked?.value, sensitive, invalid: checked?.problem !== undefined, declared });
  }
  for (const [name, value] of given?.values ?? []) {
    if (variables.has(name)) continue;
    const hint = didYouMean(name, variables.keys()) || '; declare it in a document of kind: Variable';
    problems.push({ ...value.at, message: `a value is given for variable "${name}", which is not declared${hint}` });
  }
  return { variables, problems };
}

const schemaOf = (document: ManifestOnlyDocument) =>
  (document.data.spec as { schema?: AnySchemaObject } | undefined)?.schema;

async function loadCompiler(): Promise<(schema: AnySchemaObject) => ValidateFunction> {
  const { variableSchemaCompiler } = await import('./variable-schema.ts');
  return variableSchemaCompiler();
}

function defaultOf(document: ManifestOnlyDocument, at: (path: string) => Position): GivenValue | undefined {
  const spec = document.data.spec as Record<string, unknown> | undefined;
  if (!spec || !Object.hasOwn(spec, 'default')) return undefined;
  return { value: spec.default, at: at('spec.default') };
}

/**
 * The value, checked against the schema; a value given as text (a flag, the environment) that
 * YAML read as a number or a boolean is taken as the text when the schema wants a string, and
 * when the text fails such a schema too, the text's problems are the ones told.
 */
function checkValue(
  name: string,
  given: GivenValue,
  validate: ValidateFunction | undefined,
  message: string | undefined,
  sensitive: boolean,
): { value: unknown; problem?: InputProblem } {
  if (!validate) return { value: given.value };
  if (validate(given.value)) return { value: given.value };
  let errors = validate.errors ?? [];
  // YAML's reading, when it is not the text as written (`1.100` read as 1.1)
  let reading: string | undefined;
  if (given.text !== undefined && given.text !== given.value) {
    if (validate(given.text)) return { value: given.text };
    // where the schema takes a string, the text as written is the value (`--var ver=12345` with
    // maxLength 4): its errors say what is wrong, not YAML's number (nor 1.1 for `1.100`)
    const textErrors = validate.errors ?? [];
    if (!textErrors.some(isRootType)) errors = textErrors;
    else if (!sensitive && String(given.value) !== given.text) reading = given.text;
  }
  const explained = explainErrors(errors, () => (sensitive ? '' : undefined))
    .map((p) => (p.path === '' ? p.message.replace(/^the document /, '') : `: ${p.message}`))
    .join('; ');
  // `(got number 1.1)` -> `(got number 1.1, as YAML reads "1.100")`: the user typed 1.100
  const details =
    reading !== undefined && /\(got [^()]*\)$/.test(explained)
      ? `${explained.slice(0, -1)}, as YAML reads ${JSON.stringify(reading)})`
      : explained;
  const said =
    message === undefined
      ? `the value of variable "${name}" ${details}`
      : `variable "${name}": ${message} (the value ${details})`;
  return { value: given.value, problem: { ...given.at, message: said.replace(' : ', ': ') } };
}

/** An error that the value itself is of a type the schema does not take: for the text, no string is wanted. */
const isRootType = (error: ErrorObject) => error.keyword === 'type' && error.instancePath === '';
