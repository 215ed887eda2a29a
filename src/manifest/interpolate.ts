/**
 * Resolves `${env:NAME}`, `${file:path}` and `${var:name}` in the string values of a spec.
 * Which of them make a value secret is decided here (docs/security.md, "What is secret"):
 * `${env:}` and a variable declared sensitive do, and their paths and top-level spec keys are
 * reported so that nothing ever prints them; text read by `${file:}` and a plain variable's
 * value are reviewable. Every path a placeholder made is reported too: a sensitive field
 * accepts a value only from a placeholder that may hold a secret.
 */
import { resolve } from 'node:path';
import { formatPosition } from '../errors.ts';
import { describeValue, typeWords } from './describe.ts';
import { type EnvAccess, envRefusal, type FileMode } from './file-access.ts';
import { shownPath } from './files.ts';
import { joinPath, specKey } from './paths.ts';
import { didYouMean } from './suggest.ts';
import { hasTemplate, PLACEHOLDER_HELP, type Placeholder, parseTemplate } from './template.ts';
import type { VariableLookup } from './variables.ts';

export interface InterpolationContext {
  /** Directory of the manifest file: `${file:...}` paths are relative to it. */
  dir: string;
  cwd: string;
  /** Reads a file inside the allowed roots (cached by the caller, so that one file is read once). */
  readFile(path: string, mode: FileMode): { text: string } | { error: string };
  env: Record<string, string | undefined>;
  envAccess: EnvAccess;
  /** JSON Schema types wanted at a dotted path: a whole placeholder is coerced to them. */
  typesAt(path: string): readonly string[] | undefined;
  /** The declared variables and their values, for `${var:name}`; none declared when absent. */
  variables?: VariableLookup;
}

export interface PathProblem {
  path: string;
  message: string;
}

export interface Interpolated {
  spec: unknown;
  secretFields: string[];
  /** Dotted paths of secret values: made with `${env:}` or a sensitive variable. */
  secretPaths: Set<string>;
  /** Dotted paths of every value a placeholder made, secret or not. */
  interpolatedPaths: Set<string>;
  /** Dotted paths made with a variable that is not sensitive, and those variables' names. */
  plainVariables: Map<string, Set<string>>;
  /** Dotted paths of values that are one whole `${file:...}`, and the file as shown to users. */
  files: Map<string, string>;
  /** The placeholders as written (`${env:SMTP_PASSWORD}`), by top-level spec key: names, never values. */
  placeholders: Map<string, Set<string>>;
  problems: PathProblem[];
}

const RESOLVERS = ['env', 'file', 'file.base64', 'var'];

export function interpolateSpec(spec: unknown, ctx: InterpolationContext): Interpolated {
  const out: Interpolated = {
    spec,
    secretFields: [],
    secretPaths: new Set(),
    interpolatedPaths: new Set(),
    plainVariables: new Map(),
    files: new Map(),
    placeholders: new Map(),
    problems: [],
  };
  if (!containsTemplate(spec)) return out;
  out.spec = resolveValue(spec, 'spec', ctx, out);
  const keys = new Set<string>();
  for (const path of out.secretPaths) {
    const key = specKey(path);
    if (key !== undefined) keys.add(key);
  }
  out.secretFields = [...keys].sort();
  return out;
}

function containsTemplate(value: unknown): boolean {
  if (typeof value === 'string') return hasTemplate(value);
  if (value !== null && typeof value === 'object') return Object.values(value).some(containsTemplate);
  return false;
}

function resolveValue(value: unknown, path: string, ctx: InterpolationContext, out: Interpolated): unknown {
  if (typeof value === 'string') return hasTemplate(value) ? resolveString(value, path, ctx, out) : value;
  if (Array.isArray(value)) {
    const items: unknown[] = [];
    for (const [i, item] of value.entries()) items.push(resolveValue(item, joinPath(path, i), ctx, out));
    return items;
  }
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, resolveValue(item, joinPath(path, key), ctx, out)]),
    );
  }
  return value;
}

function resolveString(value: string, path: string, ctx: InterpolationContext, out: Interpolated): unknown {
  const parsed = parseTemplate(value);
  if ('error' in parsed) {
    out.problems.push({ path, message: `${path}: ${parsed.error}` });
    return value;
  }
  const only = parsed.parts.length === 1 ? parsed.parts[0] : undefined;
  let text = '';
  let failed = false;
  for (const part of parsed.parts) {
    if ('text' in part) {
      text += part.text;
      continue;
    }
    out.interpolatedPaths.add(path);
    notePlaceholder(out, path, part.source);
    const resolved = resolvePlaceholder(part, ctx);
    if ('error' in resolved) {
      out.problems.push({ path, message: `${path}: ${resolved.error}` });
      failed = true;
      continue;
    }
    if (resolved.secret) out.secretPaths.add(path);
    if (resolved.variable !== undefined && !resolved.secret) noteVariable(out, path, resolved.variable);
    // a whole `${var:}` keeps its value's type (`${var:port}` is a number); a string is coerced below
    if (part === only && 'value' in resolved && typeof resolved.value !== 'string') return resolved.value;
    if ('value' in resolved) {
      const scalar = scalarText(resolved.value);
      if (scalar === undefined) {
        out.problems.push({
          path,
          message: `${path}: ${part.source} holds ${describeValue(resolved.value, true)}; only a whole value may be one`,
        });
        failed = true;
      } else text += scalar;
    } else text += resolved.text;
  }
  if (failed || only === undefined || 'text' in only) return text;
  // a whole file (an LDIF template): problems found in it later can name its own lines
  if (only.resolver === 'file') out.files.set(path, shownPath(resolve(ctx.dir, only.arg), ctx.cwd));
  return coerce(text, only.source, path, ctx, out);
}

/** What a placeholder stands for, and whether that makes its value secret. */
type Resolved = ({ text: string } | { value: unknown }) & { secret: boolean; variable?: string };

function resolvePlaceholder(part: Placeholder, ctx: InterpolationContext): Resolved | { error: string } {
  if (part.resolver === 'env') {
    const refused = envRefusal(part.arg, ctx.envAccess);
    if (refused) return { error: `cannot use ${part.source}: ${refused}` };
    const text = ctx.env[part.arg];
    // secret by default: CI hands secrets through the environment; a plain value arrives as a variable
    return text === undefined ? { error: `environment variable "${part.arg}" is not set` } : { text, secret: true };
  }
  if (part.resolver === 'file' || part.resolver === 'file.base64') {
    const file = resolve(ctx.dir, part.arg);
    const read = ctx.readFile(file, part.resolver === 'file' ? 'text' : 'base64');
    if ('error' in read) return { error: `cannot read ${part.source} (${shownPath(file, ctx.cwd)}: ${read.error})` };
    // reviewable: a file in the repository is read in the pull request anyway
    return { text: part.resolver === 'file' ? stripOneNewline(read.text) : read.text, secret: false };
  }
  if (part.resolver === 'var') return variableValue(part, ctx.variables);
  const hint = didYouMean(part.resolver, RESOLVERS) || `; ${PLACEHOLDER_HELP}`;
  return { error: `unknown resolver "${part.resolver}" in ${part.source}${hint}` };
}

function variableValue(part: Placeholder, variables: VariableLookup | undefined): Resolved | { error: string } {
  const variable = variables?.get(part.arg);
  if (variable === undefined) {
    const hint = didYouMean(part.arg, variables?.keys() ?? []);
    return {
      error: `${part.source}: no variable "${part.arg}" is declared${hint || '; declare it in a document of kind: Variable'}`,
    };
  }
  if (variable.invalid)
    return { error: `${part.source}: the value of variable "${part.arg}" is not valid (see its problem)` };
  if (variable.value === undefined) {
    return {
      error: `${part.source}: variable "${part.arg}" has no value (declared at ${formatPosition(variable.declared)}); give one with --var ${part.arg}=..., a values file or CONVERGE_VAR_${part.arg}, or declare a default`,
    };
  }
  return { value: variable.value, secret: variable.sensitive, variable: part.arg };
}

/** A scalar as it reads inside a longer string; undefined for a list, a mapping or null. */
function scalarText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

function noteVariable(out: Interpolated, path: string, name: string): void {
  const names = out.plainVariables.get(path) ?? new Set<string>();
  out.plainVariables.set(path, names.add(name));
}

function notePlaceholder(out: Interpolated, path: string, source: string): void {
  const key = specKey(path);
  if (key === undefined) return;
  const sources = out.placeholders.get(key) ?? new Set<string>();
  out.placeholders.set(key, sources.add(source));
}

function stripOneNewline(text: string): string {
  if (text.endsWith('\r\n')) return text.slice(0, -2);
  return text.endsWith('\n') ? text.slice(0, -1) : text;
}

/** A whole placeholder where the schema wants a number or a boolean: `"587"` -> 587. */
function coerce(text: string, source: string, path: string, ctx: InterpolationContext, out: Interpolated): unknown {
  const types = ctx.typesAt(path);
  if (types === undefined || types.includes('string')) return text;
  const trimmed = text.trim();
  if (types.includes('integer') && /^[+-]?\d+$/.test(trimmed)) return Number(trimmed);
  if (types.includes('number') && /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(trimmed)) return Number(trimmed);
  if (types.includes('boolean') && /^(true|false)$/i.test(trimmed)) return trimmed.toLowerCase() === 'true';
  if (types.includes('null') && trimmed === '') return null;
  out.problems.push({ path, message: `${path} must be ${typeWords(types)}; ${source} does not hold one` });
  return text;
}

/**
 * Metadata names the object in every plan and log, so it cannot hold secrets:
 * placeholders there are problems; `$${` still stands for `${`.
 */
export function unescapeMetadata(value: unknown, path: string, problems: PathProblem[]): unknown {
  if (typeof value === 'string') {
    if (!hasTemplate(value)) return value;
    const parsed = parseTemplate(value);
    if ('error' in parsed) {
      problems.push({ path, message: `${path}: ${parsed.error}` });
      return value;
    }
    const placeholder = parsed.parts.find((p): p is Placeholder => !('text' in p));
    if (placeholder) {
      problems.push({
        path,
        message: `${path}: ${placeholder.source} cannot be used in metadata (it names the object in every plan, so it cannot be secret); placeholders work only in spec`,
      });
      return value;
    }
    return parsed.parts.map((p) => ('text' in p ? p.text : '')).join('');
  }
  if (Array.isArray(value)) return value.map((item, i) => unescapeMetadata(item, joinPath(path, i), problems));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, unescapeMetadata(item, joinPath(path, key), problems)]),
    );
  }
  return value;
}
