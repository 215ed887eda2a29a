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

/**
 * The fields of `variable` a rule selects by name (`object.metadata.labels` as `metadata.labels`,
 * `has(object.kind)` as `kind`); `opaque` when it also uses the variable any other way
 * (`object[k]`, `object.size()`). `object.metadata.all(...)` reads every key of metadata and shows
 * as `metadata`. A rule over `object` that is not opaque gives a result that is a function of the
 * values at these paths (CEL is pure), which is what lets converge reuse it
 * (src/policy/result-cache.ts); every path is checked against the kinds' fields (policy.ts).
 */
export function selections(root: ASTNode, variable: RuleVariable): { paths: string[]; opaque: boolean } {
  const paths = new Set<string>();
  let opaque = false;
  walk(root, (node, hidden) => {
    if (hidden.has(variable)) return true;
    const path = node.op === '.' ? selection(node, variable) : undefined;
    if (path !== undefined) paths.add(path);
    else if (node.op === 'id' && node.args === variable) opaque = true;
    return path === undefined;
  });
  return { paths: [...paths].sort(), opaque };
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
