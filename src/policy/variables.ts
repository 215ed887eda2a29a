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
  const visit = (node: unknown, hidden: ReadonlySet<string>): void => {
    if (!isNode(node)) {
      if (Array.isArray(node)) for (const item of node) visit(item, hidden);
      return;
    }
    if (node.op === 'id') {
      const name = node.args as string;
      if ((RULE_VARIABLES as readonly string[]).includes(name) && !hidden.has(name)) found.add(name as RuleVariable);
      return;
    }
    if (node.op === 'rcall') {
      const [method, receiver, args] = node.args as [string, ASTNode, ASTNode[]];
      visit(receiver, hidden);
      const bound = BINDING_MACROS.has(method) ? boundNames(args) : [];
      // the binding names themselves are not reads; what follows them sees them hidden
      if (bound.length === 0) visit(args, hidden);
      else visit(args.slice(bound.length), new Set([...hidden, ...bound]));
      return;
    }
    visit(node.args, hidden);
  };
  visit(root, new Set());
  return found;
}

/**
 * The fields of `object` a rule reads (`kind`, `metadata.labels`), when it reads `object` only
 * through fixed field selections (`object.metadata.labels`, `has(object.kind)`); undefined when
 * it uses `object` any other way (`object[k]`, `object.metadata.all(...)` reads every key of
 * metadata and shows as `metadata`, the whole `object` as ''). Such a rule's result is a function
 * of the values at these paths (CEL is pure), which is what lets converge reuse it
 * (src/policy/result-cache.ts).
 */
export function objectPaths(root: ASTNode): string[] | undefined {
  const paths = new Set<string>();
  let opaque = false;
  const visit = (node: unknown, hidden: ReadonlySet<string>): void => {
    if (opaque) return;
    if (!isNode(node)) {
      if (Array.isArray(node)) for (const item of node) visit(item, hidden);
      return;
    }
    if (node.op === '.') {
      const path = selection(node);
      if (path !== undefined && !hidden.has('object')) {
        paths.add(path);
        return;
      }
    }
    if (node.op === 'id') {
      if (node.args === 'object' && !hidden.has('object')) opaque = true;
      return;
    }
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
  return opaque ? undefined : [...paths].sort();
}

/** `object.a.b` as `a.b`; undefined for a selection that does not start at the `object` variable. */
function selection(node: ASTNode): string | undefined {
  const names: string[] = [];
  let at: ASTNode = node;
  while (at.op === '.') {
    const [receiver, name] = at.args as [ASTNode, string];
    names.unshift(name);
    at = receiver;
  }
  return at.op === 'id' && at.args === 'object' ? names.join('.') : undefined;
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
