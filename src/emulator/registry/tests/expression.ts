/**
 * Evaluation of the small expression language the emulator understands, over
 * hcl2json's expression AST: string/number/bool/null literals, list literals,
 * templates, `var.<name>`, `length(...)`, parentheses, `!`, unary `-`, and
 * `==`, `!=`, `<`, `<=`, `>`, `>=`, `&&`, `||`. Anything else (resource
 * attributes, `output.*`, `run.*`, other functions, conditionals, arithmetic)
 * is *unknown*, with the reason recorded. `&&` and `||` use three-valued logic:
 * `false && <unknown>` is false, `true || <unknown>` is true, as Terraform
 * treats unknown values; every other operator with an unknown operand is unknown.
 *
 * Every `var.<name>` in the expression is looked up, even inside parts that
 * cannot be evaluated, so a variable with no value always errors the run.
 *
 * A value read from a sensitive variable is sensitive, and so is every value
 * computed from one (`var.secret == "x"`, `length(var.secret)`, a template),
 * as Terraform marks them: wherever a message would show it, it says
 * `(sensitive value)` instead.
 */

import { EvaluationError } from './errors.ts';
import {
  decodeTemplateText,
  type ExpressionType,
  expressionOf,
  type FunctionCallExpression,
  hasInterpolation,
  literalText,
} from './hcl-values.ts';
import { type Reason, reason, reasonForReference } from './reasons.ts';
import { lookup, type Scope } from './scope.ts';
import { lengthOf, shownValue, toBool, toNumber, toTemplateText, type Value, valuesEqual } from './values.ts';

export type Outcome = { known: true; value: Value; sensitive?: true } | { known: false; reasons: Reason[] };
type Known = Extract<Outcome, { known: true }>;

/** A `var.<name>` in the expression text (byte offsets) and its value as a literal, for failure messages. */
export interface Substitution {
  start: number;
  end: number;
  text: string;
}

export interface Evaluation {
  scope: Scope;
  /** Filled while evaluating: where each variable read appears. */
  substitutions: Substitution[];
}

const known = (value: Value, sensitive = false): Known =>
  sensitive ? { known: true, value, sensitive } : { known: true, value };
/** Whether any of the outcomes is sensitive: what is computed from them is. */
const anySensitive = (outcomes: readonly Outcome[]): boolean => outcomes.some((o) => o.known && o.sensitive);
const unknown = (...reasons: Reason[]): Outcome => ({ known: false, reasons });

const OPERATOR_SYMBOLS: Record<string, string> = {
  equal: '==',
  notEqual: '!=',
  lessThan: '<',
  lessThanOrEqual: '<=',
  greaterThan: '>',
  greaterThanOrEqual: '>=',
  logicalAnd: '&&',
  logicalOr: '||',
  add: '+',
  subtract: '-',
  multiply: '*',
  divide: '/',
  modulo: '%',
};

export function evaluate(node: ExpressionType, evaluation: Evaluation): Outcome {
  switch (node.type) {
    case 'literalValue':
      return literal(node);
    case 'template':
      return template(node.children, evaluation);
    case 'templateWrap':
      return node.children.length === 1 ? evaluate(node.children[0]!, evaluation) : unsupported(node, evaluation);
    case 'tuple':
      return tuple(node.children, evaluation);
    case 'scopeTraversal':
      return traversal(node, evaluation);
    case 'function':
      return functionCall(node, evaluation);
    case 'unaryOp':
      return unaryOperation(node, evaluation);
    case 'binaryOp':
      return binaryOperation(node, evaluation);
    default:
      // hcl2json gives parentheses an empty type and the inner expression as only child.
      if ((node.type as string) === '' && node.children.length === 1) return evaluate(node.children[0]!, evaluation);
      return unsupported(node, evaluation);
  }
}

function literal(node: ExpressionType): Outcome {
  const meta = node.meta as { type?: string; value: string };
  if (meta.type === 'number') return known(Number(meta.value));
  if (meta.type === 'bool') return known(meta.value === 'true');
  if (meta.type === 'string') return known(decodeTemplateText(meta.value));
  if (meta.value === 'null') return known(null);
  return unknown(reason(`uses an unsupported literal (${meta.value})`));
}

function template(parts: ExpressionType[], evaluation: Evaluation): Outcome {
  const outcomes = parts.map((part) => evaluate(part, evaluation));
  const reasons = unknownReasons(outcomes);
  if (reasons.length > 0) return unknown(...reasons);
  const text = (outcomes as Known[]).map((o) => toTemplateText(o.value, o.sensitive)).join('');
  return known(text, anySensitive(outcomes));
}

function tuple(items: ExpressionType[], evaluation: Evaluation): Outcome {
  const outcomes = items.map((item) => evaluate(item, evaluation));
  const reasons = unknownReasons(outcomes);
  if (reasons.length > 0) return unknown(...reasons);
  return known(
    (outcomes as Known[]).map((o) => o.value),
    anySensitive(outcomes),
  );
}

function traversal(node: ExpressionType, evaluation: Evaluation): Outcome {
  const meta = node.meta as { fullAccessor: string; traversal: Array<{ type: string; segment: string }> };
  const [root, name, ...deeper] = meta.traversal;
  if (root?.segment !== 'var' || name?.type !== 'nameTraversal') {
    return unknown(reasonForReference(root?.segment ?? '', meta.fullAccessor));
  }
  const binding = lookup(evaluation.scope, name.segment);
  if (deeper.length > 0) return unknown(reasonForReference('var', meta.fullAccessor));
  if (binding.kind === 'unknown') return unknown(binding.reason);
  const sensitive = binding.sensitive === true;
  evaluation.substitutions.push({
    start: node.range.start.byte,
    end: node.range.end.byte,
    text: shownValue(binding.value, sensitive),
  });
  return known(binding.value, sensitive);
}

function functionCall(node: FunctionCallExpression, evaluation: Evaluation): Outcome {
  const { name } = node.meta;
  // Typed as a string by hcl2json, a boolean at run time: `length(list...)`.
  const expanded = String(node.meta.expandedFinalArgument) === 'true';
  if (name !== 'length' || expanded) {
    requireVariables(node, evaluation.scope);
    return unknown(reason(`calls ${name}()`));
  }
  if (node.children.length !== 1) {
    throw new EvaluationError(`Invalid function call: length() takes 1 argument, got ${node.children.length}`);
  }
  const argument = evaluate(node.children[0]!, evaluation);
  if (!argument.known) return argument;
  const sensitive = argument.sensitive === true;
  return known(lengthOf(argument.value, sensitive), sensitive);
}

function unaryOperation(node: ExpressionType, evaluation: Evaluation): Outcome {
  const operator = (node.meta as { operator: string }).operator;
  const operand = node.children[0];
  if (!operand || (operator !== 'logicalNot' && operator !== 'negate')) return unsupported(node, evaluation);
  const value = evaluate(operand, evaluation);
  if (!value.known) return value;
  const sensitive = value.sensitive === true;
  return operator === 'logicalNot'
    ? known(!toBool(value.value, '!', sensitive), sensitive)
    : known(-toNumber(value.value, 'unary -', sensitive), sensitive);
}

function binaryOperation(node: ExpressionType, evaluation: Evaluation): Outcome {
  const operator = (node.meta as { operator: string }).operator;
  const symbol = OPERATOR_SYMBOLS[operator] ?? operator;
  const [lhs, rhs] = node.children;
  if (!lhs || !rhs) return unsupported(node, evaluation);
  const left = evaluate(lhs, evaluation);
  const right = evaluate(rhs, evaluation);
  if (operator === 'logicalAnd' || operator === 'logicalOr') return logical(operator, left, right);
  if (!left.known || !right.known) {
    const reasons = unknownReasons([left, right]);
    return operator in COMPARISONS ? unknown(...reasons) : unknown(reason(`uses the ${symbol} operator`), ...reasons);
  }
  const compare = COMPARISONS[operator];
  if (!compare) return unknown(reason(`uses the ${symbol} operator`));
  return known(compare(left, right, symbol), anySensitive([left, right]));
}

/** A number operand of a comparison, its value told only when it is not sensitive. */
const number = (operand: Known, symbol: string) => toNumber(operand.value, symbol, operand.sensitive);

const COMPARISONS: Record<string, (left: Known, right: Known, symbol: string) => boolean> = {
  equal: (l, r) => valuesEqual(l.value, r.value),
  notEqual: (l, r) => !valuesEqual(l.value, r.value),
  lessThan: (l, r, s) => number(l, s) < number(r, s),
  lessThanOrEqual: (l, r, s) => number(l, s) <= number(r, s),
  greaterThan: (l, r, s) => number(l, s) > number(r, s),
  greaterThanOrEqual: (l, r, s) => number(l, s) >= number(r, s),
};

function logical(operator: 'logicalAnd' | 'logicalOr', left: Outcome, right: Outcome): Outcome {
  const symbol = operator === 'logicalAnd' ? '&&' : '||';
  const l = left.known ? toBool(left.value, symbol, left.sensitive) : undefined;
  const r = right.known ? toBool(right.value, symbol, right.sensitive) : undefined;
  const sensitive = anySensitive([left, right]);
  // The value that decides the result on its own: false for &&, true for ||.
  const decisive = operator === 'logicalOr';
  if (l === decisive || r === decisive) return known(decisive, sensitive);
  if (l !== undefined && r !== undefined) return known(!decisive, sensitive);
  return unknown(...unknownReasons([left, right]));
}

/** An expression kind the emulator does not evaluate; its variables must still have values. */
function unsupported(node: ExpressionType, evaluation: Evaluation): Outcome {
  requireVariables(node, evaluation.scope);
  const kind = (node.type as string) === '' ? 'object key' : node.type;
  return unknown(reason(`uses an unsupported expression (${kind})`));
}

/** Looks up every `var.<name>` under a node, so an unset one errors the run. */
function requireVariables(node: ExpressionType, scope: Scope): void {
  if (node.type === 'scopeTraversal') {
    const [root, name] = (node.meta as { traversal: Array<{ segment: string }> }).traversal;
    if (root?.segment === 'var' && name) lookup(scope, name.segment);
  }
  for (const child of node.children) requireVariables(child, scope);
}

function unknownReasons(outcomes: Outcome[]): Reason[] {
  const reasons = outcomes.flatMap((o) => (o.known ? [] : o.reasons));
  return reasons.filter((r, i) => reasons.findIndex((other) => other.one === r.one) === i);
}

/**
 * A value from hcl2json's JSON (a `variables { ... }` attribute): literals as
 * they are, `${...}` strings evaluated as expressions, lists and objects item by item.
 */
export async function evaluateHclJson(json: unknown, scope: Scope): Promise<Outcome> {
  if (typeof json === 'string') {
    if (!hasInterpolation(json)) return known(literalText(json));
    const expression = await expressionOf(json);
    if (!expression) return unknown(reason(`uses an expression the emulator cannot read (${json})`));
    return evaluate(expression.ast, { scope, substitutions: [] });
  }
  if (json === null || typeof json === 'number' || typeof json === 'boolean') return known(json);
  const entries = Array.isArray(json) ? json.map((v, i) => [String(i), v] as const) : Object.entries(json as object);
  const outcomes: Array<readonly [string, Outcome]> = [];
  for (const [key, value] of entries) outcomes.push([key, await evaluateHclJson(value, scope)]);
  const reasons = unknownReasons(outcomes.map(([, o]) => o));
  if (reasons.length > 0) return unknown(...reasons);
  const values = outcomes.map(([key, o]) => [key, (o as Known).value] as const);
  const sensitive = anySensitive(outcomes.map(([, o]) => o));
  return known(Array.isArray(json) ? values.map(([, v]) => v) : Object.fromEntries(values), sensitive);
}
