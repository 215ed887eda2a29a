/**
 * The four variable sources of a run, lowest precedence first:
 * 1. the module's test variables: each of category `env` named `TF_VAR_<name>`
 *    sets var.<name> (others are ignored). As Terraform does for environment
 *    variables, the value is the raw string unless it starts with `[` or `{`,
 *    which is parsed as a list/object literal;
 * 2. the test run's API `variables` ({key, value}), values written as
 *    configuration-language literals (`"eu-west-1"`, `3`, `true`, `["a","b"]`);
 * 3. the test file's top-level `variables { ... }` block, whose expressions may
 *    read the variables of 1-2;
 * 4. the run block's own `variables { ... }` block, whose expressions may read
 *    those of 1-3.
 * A value that cannot be used becomes an `invalid` binding and only errors the
 * runs that read it (a later source may override it first).
 * A sensitive module test variable's value is sensitive, and so is a block
 * variable's value computed from one: the log never shows them (scope.ts).
 */

import { InvalidVariableError } from './errors.ts';
import { evaluateHclJson } from './expression.ts';
import { containsExpression, parseLiteralText } from './hcl-values.ts';
import { reason } from './reasons.ts';
import { type Binding, type Scope, valueBinding } from './scope.ts';
import { SENSITIVE_VALUE } from './values.ts';

const ENV_PREFIX = 'TF_VAR_';

/** A module test variable, as the emulator keeps it. */
export interface ModuleVariable {
  key: string;
  value: string;
  category: string;
  /** Written once, never shown again: nor is its value in a test run's log. */
  sensitive?: boolean;
}

/** Sources 1 and 2. */
export async function inputScope(
  moduleVariables: ReadonlyArray<ModuleVariable>,
  runVariables: ReadonlyArray<{ key: string; value: string }>,
): Promise<Map<string, Binding>> {
  const scope = new Map<string, Binding>();
  for (const { key, value, category, sensitive = false } of moduleVariables) {
    if (category !== 'env' || !key.startsWith(ENV_PREFIX) || key.length === ENV_PREFIX.length) continue;
    const name = key.slice(ENV_PREFIX.length);
    const complex = /^\s*[[{]/.test(value);
    scope.set(name, complex ? await literalBinding(name, value, key, sensitive) : valueBinding(value, key, sensitive));
  }
  for (const { key, value } of runVariables) {
    if (key !== '') scope.set(key, await literalBinding(key, value, 'test run variables', false));
  }
  return scope;
}

async function literalBinding(name: string, text: string, source: string, sensitive: boolean): Promise<Binding> {
  const invalid = (why: string): Binding => ({ kind: 'invalid', error: new InvalidVariableError(name, why), source });
  // the parser's own words may quote the text: a sensitive value gets neither
  const value = sensitive ? SENSITIVE_VALUE : JSON.stringify(text);
  let json: unknown;
  try {
    json = await parseLiteralText(text);
  } catch (error) {
    return invalid(`value ${value} is not a valid literal${sensitive ? '' : ` (${(error as Error).message})`}`);
  }
  if (containsExpression(json)) return invalid(`value ${value} is an expression, not a literal`);
  const outcome = await evaluateHclJson(json, new Map());
  return outcome.known ? valueBinding(outcome.value, source, sensitive) : invalid(`value ${value} is not a literal`);
}

/** Sources 3 and 4: a `variables` block layered over `base`; its expressions read `base`. */
export async function withVariablesBlock(
  base: Scope,
  block: Readonly<Record<string, unknown>>,
  source: string,
): Promise<Map<string, Binding>> {
  const scope = new Map(base);
  for (const [name, json] of Object.entries(block)) {
    try {
      const outcome = await evaluateHclJson(json, base);
      scope.set(
        name,
        outcome.known
          ? valueBinding(outcome.value, source, outcome.sensitive)
          : {
              kind: 'unknown',
              reason: reason(`reads var.${name}, set from an expression the emulator cannot evaluate`),
              source,
            },
      );
    } catch (error) {
      scope.set(name, { kind: 'invalid', error: new InvalidVariableError(name, (error as Error).message), source });
    }
  }
  return scope;
}
