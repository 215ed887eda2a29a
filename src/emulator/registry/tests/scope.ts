/**
 * The variables one run can read, each with where its value came from. A
 * binding is `unknown` when its value is an expression the emulator cannot
 * evaluate (e.g. `run.setup.vpc_id`): asserts reading it are assumed to pass.
 * It is `invalid` when the value given cannot be used: reading it errors the run.
 * A value is `sensitive` when it comes from a sensitive module test variable, or
 * from an expression that read one: the log shows `(sensitive value)` in its place.
 */

import { type InvalidVariableError, MissingVariableError } from './errors.ts';
import type { Reason } from './reasons.ts';
import type { Value } from './values.ts';

export type Binding =
  | { kind: 'value'; value: Value; source: string; sensitive?: true }
  | { kind: 'unknown'; reason: Reason; source: string }
  | { kind: 'invalid'; error: InvalidVariableError; source: string };

export type Scope = ReadonlyMap<string, Binding>;

/** A known value bound from `source`, marked sensitive when it is. */
export function valueBinding(value: Value, source: string, sensitive = false): Binding {
  return { kind: 'value', value, source, ...(sensitive && { sensitive: true as const }) };
}

/** The binding of `var.<name>`; throws the typed error that makes the run errored. */
export function lookup(scope: Scope, name: string): Exclude<Binding, { kind: 'invalid' }> {
  const binding = scope.get(name);
  if (!binding) throw new MissingVariableError(name);
  if (binding.kind === 'invalid') throw binding.error;
  return binding;
}
