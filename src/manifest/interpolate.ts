/**
 * Resolves `${env:NAME}` and `${file:path}` in the string values of a spec.
 * Every value that used a placeholder is a secret from here on: its path and
 * top-level spec key are reported so that nothing ever prints it.
 */
import { resolve } from 'node:path';
import { typeWords } from './describe.ts';
import { type EnvAccess, envRefusal, type FileMode } from './file-access.ts';
import { shownPath } from './files.ts';
import { joinPath, specKey } from './paths.ts';
import { didYouMean } from './suggest.ts';
import { hasTemplate, PLACEHOLDER_HELP, type Placeholder, parseTemplate } from './template.ts';

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
}

export interface PathProblem {
  path: string;
  message: string;
}

export interface Interpolated {
  spec: unknown;
  secretFields: string[];
  /** Dotted paths of values that came from placeholders. */
  secretPaths: Set<string>;
  /** Dotted paths of values that are one whole `${file:...}`, and the file as shown to users. */
  files: Map<string, string>;
  /** The placeholders as written (`${env:SMTP_PASSWORD}`), by top-level spec key: names, never values. */
  placeholders: Map<string, Set<string>>;
  problems: PathProblem[];
}

const RESOLVERS = ['env', 'file', 'file.base64'];

export function interpolateSpec(spec: unknown, ctx: InterpolationContext): Interpolated {
  const out: Interpolated = {
    spec,
    secretFields: [],
    secretPaths: new Set(),
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
  let text = '';
  let failed = false;
  for (const part of parsed.parts) {
    if ('text' in part) {
      text += part.text;
      continue;
    }
    out.secretPaths.add(path);
    notePlaceholder(out, path, part.source);
    const resolved = resolvePlaceholder(part, ctx);
    if ('error' in resolved) {
      out.problems.push({ path, message: `${path}: ${resolved.error}` });
      failed = true;
    } else {
      text += resolved.text;
    }
  }
  const only = parsed.parts.length === 1 ? parsed.parts[0] : undefined;
  if (failed || only === undefined || 'text' in only) return text;
  // a whole file (an LDIF template): problems found in it later can name its own lines
  if (only.resolver === 'file') out.files.set(path, shownPath(resolve(ctx.dir, only.arg), ctx.cwd));
  return coerce(text, only.source, path, ctx, out);
}

function resolvePlaceholder(part: Placeholder, ctx: InterpolationContext): { text: string } | { error: string } {
  if (part.resolver === 'env') {
    const refused = envRefusal(part.arg, ctx.envAccess);
    if (refused) return { error: `cannot use ${part.source}: ${refused}` };
    const text = ctx.env[part.arg];
    return text === undefined ? { error: `environment variable "${part.arg}" is not set` } : { text };
  }
  if (part.resolver === 'file' || part.resolver === 'file.base64') {
    const file = resolve(ctx.dir, part.arg);
    const read = ctx.readFile(file, part.resolver === 'file' ? 'text' : 'base64');
    if ('error' in read) return { error: `cannot read ${part.source} (${shownPath(file, ctx.cwd)}: ${read.error})` };
    return { text: part.resolver === 'file' ? stripOneNewline(read.text) : read.text };
  }
  const hint = didYouMean(part.resolver, RESOLVERS) || `; ${PLACEHOLDER_HELP}`;
  return { error: `unknown resolver "${part.resolver}" in ${part.source}${hint}` };
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
