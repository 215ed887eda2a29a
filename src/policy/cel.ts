/**
 * The CEL environment every rule is compiled in (docs/policies.md): the
 * variables a rule may read, and durations made from numbers of seconds, the
 * form a manifest's durations take once normalised. A rule is parsed and
 * type-checked once; what it returns is evaluated per matching object.
 */
import { type ASTNode, Environment, evaluate } from '@marcbachmann/cel-js';
import { adoptRe2, asWritten, RE2_SIGNATURE, re2Matches } from './re2-matches.ts';
import { methodCalls, type RuleVariable, referencedVariables, selections } from './variables.ts';

export interface CompiledRule {
  /** Runs the rule over one object's variables; throws an evaluation error. */
  run(variables: Record<string, unknown>): unknown;
  /** The rule variables its text reads. */
  uses: ReadonlySet<RuleVariable>;
  /** The fields of `object` it reads, when it reads only fixed ones (src/policy/result-cache.ts). */
  objectPaths?: readonly string[];
  /** Of `objectPaths`, those whose value it reads only as a map's keys (`object.spec.all(k, ...)`). */
  objectKeysOnly?: readonly string[];
  /** Every field of `object` and `live` it selects by name (`object.spec.max_ttl`), checked against the kinds' fields. */
  reads: readonly string[];
}

export interface RuleError {
  message: string;
  /** Offset of the problem in the rule's text. */
  offset: number;
}

// The library does not export its duration type; this is its own value, made the documented way.
const Duration = (evaluate("duration('0s')") as object).constructor as {
  new (seconds: bigint | number, nanos?: number): unknown;
  fromMilliseconds(ms: number): unknown;
};

let environment: Environment | undefined;

function env(): Environment {
  environment ??= new Environment({ homogeneousAggregateLiterals: false })
    .registerVariable('object', 'map')
    .registerVariable('live', 'dyn')
    .registerVariable('change', 'map')
    .registerFunction('duration(int): google.protobuf.Duration', (seconds: bigint) => new Duration(seconds))
    .registerFunction('duration(double): google.protobuf.Duration', (seconds: number) =>
      Duration.fromMilliseconds(seconds * 1000),
    )
    .registerFunction(RE2_SIGNATURE, re2Matches);
  return environment;
}

export function compileRule(text: string): { rule: CompiledRule } | { error: RuleError } {
  let parsed: ReturnType<Environment['parse']>;
  try {
    parsed = env().parse(text);
  } catch (error) {
    return { error: ruleError(error) };
  }
  // `matches` is RE2's (src/policy/re2-matches.ts), its literal patterns checked as RE2 reads them
  const re2Problem = adoptRe2(methodCalls(parsed.ast as ASTNode, 'matches'));
  if (re2Problem) return { error: re2Problem };
  const checked = parsed.check();
  if (!checked.valid) return { error: ruleError(checked.error) };
  if (checked.type !== 'bool' && checked.type !== 'dyn') {
    return { error: { message: `a rule must be a bool expression (this one is ${checked.type})`, offset: 0 } };
  }
  const ast = parsed.ast as ASTNode;
  const object = selections(ast, 'object');
  const live = selections(ast, 'live');
  const reads = [...object.paths.map((path) => `object.${path}`), ...live.paths.map((path) => `live.${path}`)];
  const rule: CompiledRule = { run: (variables) => parsed(variables), uses: referencedVariables(ast), reads };
  if (!object.opaque) {
    rule.objectPaths = object.paths;
    rule.objectKeysOnly = object.keysOnly;
  }
  return { rule };
}

/** The library's message without its code frame (the caller places the problem in the manifest). */
export function ruleError(error: unknown): RuleError {
  const e = error as { message?: string; range?: { start: number }; node?: { pos?: number; start?: number } };
  const message = asWritten((e.message ?? String(error)).split('\n')[0] ?? '');
  return { message, offset: e.range?.start ?? e.node?.start ?? e.node?.pos ?? 0 };
}
