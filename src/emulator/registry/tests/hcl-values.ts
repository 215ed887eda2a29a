/**
 * Reading values out of hcl2json's JSON. hcl2json (the installed
 * `@cdktf/hcl2json`, see its README) renders a literal as plain JSON and any
 * other expression as a string `${<source text>}` (templates keep their
 * interpolations, `"a-${var.x}"`), escaping a literal `${` as `$${`. So a
 * JSON string with an unescaped `${` or `%{` is an expression; everything else
 * is a literal. Expressions are re-parsed with hcl2json's `getExpressionAst`,
 * so no HCL syntax is parsed by hand here.
 */

import { getExpressionAst, parse, type TFExpressionSyntaxTree } from '@cdktf/hcl2json';

type ExpressionType = TFExpressionSyntaxTree.ExpressionType;
type FunctionCallExpression = TFExpressionSyntaxTree.FunctionCallExpression;

export type { ExpressionType, FunctionCallExpression };

export interface ParsedExpression {
  /** The expression as written, for logs: `var.x == "a"`. */
  text: string;
  ast: ExpressionType;
}

const INTERPOLATION = /(?<!\$)\$\{|(?<!%)%\{/;

export function hasInterpolation(text: string): boolean {
  return INTERPOLATION.test(text);
}

/** The literal string a rendered string without interpolations stands for (`$${` → `${`). */
export function literalText(rendered: string): string {
  return rendered.replaceAll('$${', '${').replaceAll('%%{', '%{');
}

/**
 * The expression behind a rendered string. A whole-value `${...}` is parsed as
 * its inner text; if that fails (the string is a template such as
 * `${var.a}-${var.b}`), the string is parsed as a quoted template.
 * Undefined when hcl2json cannot read either form.
 */
export async function expressionOf(rendered: string): Promise<ParsedExpression | undefined> {
  if (rendered.startsWith('${') && rendered.endsWith('}')) {
    const inner = rendered.slice(2, -1).trim();
    const ast = await astOrUndefined(inner);
    if (ast) return { text: inner, ast };
  }
  const template = `"${rendered}"`;
  const ast = await astOrUndefined(template);
  return ast ? { text: template, ast } : undefined;
}

async function astOrUndefined(text: string): Promise<ExpressionType | undefined> {
  try {
    return (await getExpressionAst('condition.hcl', text)) ?? undefined;
  } catch {
    return undefined;
  }
}

/**
 * A configuration-language literal written as text (`"eu-west-1"`, `3`,
 * `["a","b"]`) as hcl2json's JSON. Throws hcl2json's parse error for text that
 * is not one value.
 */
export async function parseLiteralText(text: string): Promise<unknown> {
  const json = await parse('variable-value.hcl', `value = ${text}\n`);
  const keys = Object.keys(json);
  if (keys.length !== 1 || keys[0] !== 'value') throw new Error(`${JSON.stringify(text)} is not a single value`);
  return json.value;
}

/** True when a JSON value from hcl2json holds an expression anywhere inside. */
export function containsExpression(json: unknown): boolean {
  if (typeof json === 'string') return hasInterpolation(json);
  if (Array.isArray(json)) return json.some(containsExpression);
  if (typeof json === 'object' && json !== null) return Object.values(json).some(containsExpression);
  return false;
}

const ESCAPES: Record<string, string> = { n: '\n', r: '\r', t: '\t', '"': '"', '\\': '\\' };

/**
 * The text of a string part of a template. hcl2json's expression AST gives the
 * part as written in the source, escapes included, so they are decoded here:
 * `\n \r \t \" \\ \uNNNN \UNNNNNNNN`, and `$${` / `%%{` for literal `${` / `%{`.
 */
export function decodeTemplateText(source: string): string {
  return source
    .replace(/\\(?:u([0-9a-fA-F]{4})|U([0-9a-fA-F]{8})|([nrt"\\]))/g, (_, u4, u8, simple) =>
      simple ? ESCAPES[simple]! : String.fromCodePoint(Number.parseInt(u4 ?? u8, 16)),
    )
    .replaceAll('$${', '${')
    .replaceAll('%%{', '%{');
}
