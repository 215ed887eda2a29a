/**
 * Which of `object`, `live` and `change` a rule reads, from its parsed AST:
 * decided once, statically, so a rule is placed in `validate` or in `plan`
 * before anything runs. A macro's own variable (`x` in `all(x, ...)`) hides
 * a rule variable of the same name inside the macro's body.
 */
import type { ASTNode } from '@marcbachmann/cel-js';

export const RULE_VARIABLES = ['object', 'live', 'change'] as const;
export type RuleVariable = (typeof RULE_VARIABLES)[number];

/** Macros whose first argument names a variable bound in the rest (docs/policies.md, "Rules"). */
const BINDING_MACROS = new Set(['all', 'exists', 'exists_one', 'map', 'filter', 'transformList', 'transformMap']);

export function referencedVariables(root: ASTNode): Set<RuleVariable> {
  const found = new Set<RuleVariable>();
  walk(root, (node, hidden) => {
    const name = node.args as string;
    if (node.op === 'id' && (RULE_VARIABLES as readonly string[]).includes(name) && !hidden.has(name)) {
      found.add(name as RuleVariable);
    }
    return true;
  });
  return found;
}

/** What a rule reads of a variable: the fields it selects by name, and whether it reads more. */
export interface Selections {
  /** `object.metadata.labels` as `metadata.labels`, `has(object.kind)` as `kind`; sorted. */
  paths: string[];
  /** Of `paths`, those whose value the rule reads only as a map's keys (`keyRead`). */
  keysOnly: string[];
  /** The rule also uses the variable some other way (`object[k]`, `object.size()`). */
  opaque: boolean;
}

/**
 * The fields of `variable` a rule selects by name; `opaque` when it also uses the variable any
 * other way. `object.metadata.all(...)` reads metadata and shows as `metadata`. A rule over
 * `object` that is not opaque gives a result that is a function of the values at these paths
 * (CEL is pure), which is what lets converge reuse it (src/policy/result-cache.ts); every path is
 * checked against the kinds' fields (policy.ts).
 */
export function selections(root: ASTNode, variable: RuleVariable): Selections {
  const paths = new Set<string>();
  const whole = new Set<string>();
  // operands read by their keys only, marked when the node that reads them is entered
  const byKeys = new Set<ASTNode>();
  let opaque = false;
  walk(root, (node, hidden) => {
    if (hidden.has(variable)) return true;
    const keyed = keyRead(node);
    if (keyed) byKeys.add(keyed);
    const path = node.op === '.' ? selection(node, variable) : undefined;
    if (path !== undefined) {
      paths.add(path);
      if (!byKeys.has(node)) whole.add(path);
    } else if (node.op === 'id' && node.args === variable) opaque = true;
    return path === undefined;
  });
  const sorted = [...paths].sort();
  return { paths: sorted, keysOnly: sorted.filter((path) => !whole.has(path)), opaque };
}

/** Macros that, over a map, see only its keys when they bind one variable (`m.all(k, ...)`). */
const KEY_MACROS = new Set(['all', 'exists', 'exists_one', 'map', 'filter']);

/**
 * The operand a node reads only by its keys when it is a map: the receiver of a one-variable
 * macro (`m.all(k, ...)`, `m.map(k, ...)`), of `size` (`m.size()`, `size(m)`), the right side of
 * `in`. Over a map CEL gives these its keys alone (a list or a string they read whole, which the
 * result cache tells apart at run time); undefined for any other node.
 */
function keyRead(node: ASTNode): ASTNode | undefined {
  if (node.op === 'in') return (node.args as [ASTNode, ASTNode])[1];
  if (node.op === 'call') {
    const [name, args] = node.args as [string, ASTNode[]];
    return name === 'size' && args.length === 1 ? args[0] : undefined;
  }
  if (node.op !== 'rcall') return undefined;
  const [method, receiver, args] = node.args as [string, ASTNode, ASTNode[]];
  if (method === 'size') return args.length === 0 ? receiver : undefined;
  // two variables (`m.all(k, v, ...)`) see the values too; `map(x, filter, transform)` binds one
  const oneVariable = args.length === 2 || (method === 'map' && args.length === 3);
  return KEY_MACROS.has(method) && oneVariable ? receiver : undefined;
}

/** The rule's calls of the method `name` (`x.matches('...')`), wherever they stand. */
export function methodCalls(root: ASTNode, name: string): ASTNode[] {
  const calls: ASTNode[] = [];
  walk(root, (node) => {
    if (node.op === 'rcall' && node.args[0] === name) calls.push(node);
    return true;
  });
  return calls;
}

/**
 * Every node of a rule's AST, with the macro variables bound where it stands: a macro's own
 * variable (`x` in `all(x, ...)`) is not a read, and hides a rule variable of the same name in
 * the macro's body. `enter` returns false to skip what is below a node.
 */
function walk(root: ASTNode, enter: (node: ASTNode, hidden: ReadonlySet<string>) => boolean): void {
  const visit = (node: unknown, hidden: ReadonlySet<string>): void => {
    if (!isNode(node)) {
      if (Array.isArray(node)) for (const item of node) visit(item, hidden);
      return;
    }
    if (!enter(node, hidden)) return;
    if (node.op === 'rcall') {
      const [method, receiver, args] = node.args as [string, ASTNode, ASTNode[]];
      visit(receiver, hidden);
      const bound = BINDING_MACROS.has(method) ? boundNames(args) : [];
      if (bound.length === 0) visit(args, hidden);
      else visit(args.slice(bound.length), new Set([...hidden, ...bound]));
      return;
    }
    visit(node.args, hidden);
  };
  visit(root, new Set());
}

/** `object.a.b` as `a.b`; undefined for a selection that does not start at `variable`. */
function selection(node: ASTNode, variable: RuleVariable): string | undefined {
  const names: string[] = [];
  let at: ASTNode = node;
  while (at.op === '.') {
    const [receiver, name] = at.args as [ASTNode, string];
    names.unshift(name);
    at = receiver;
  }
  return at.op === 'id' && at.args === variable ? names.join('.') : undefined;
}

/** The leading identifier arguments of a binding macro (one, or two for transformMap's key and value). */
function boundNames(args: readonly ASTNode[]): string[] {
  const names: string[] = [];
  for (const arg of args.slice(0, args.length - 1)) {
    if (arg.op !== 'id') break;
    names.push(arg.args as string);
  }
  return names;
}

function isNode(value: unknown): value is ASTNode {
  return typeof value === 'object' && value !== null && 'op' in value && 'args' in value;
}
