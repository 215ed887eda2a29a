/**
 * CEL's `matches` as the CEL specification defines it (docs/policies.md, "What a rule sees"): RE2 syntax, true
 * when the pattern matches anywhere in the string, in time linear in the string's length.
 *
 * The CEL library's own `matches` is JavaScript's RegExp. There `[[:space:]]` is a class followed
 * by a `]` and `\z` is the letter z, so a deny rule written in RE2 lets through the very values it
 * names; `(?i)` is an error; and a pattern like `^([a-z]+)+\.example\.com` backtracks for hours
 * on a 40-character value a manifest gives. The library cannot replace an overload it ships, so
 * each `matches` call of a parsed rule is renamed to this function before the rule is type-checked
 * (src/policy/cel.ts); the messages a rule's author reads say `matches` again.
 */
import { createRequire } from 'node:module';
import { type ASTNode, EvaluationError } from '@marcbachmann/cel-js';
import type { RE2JS } from 're2js';
import { plainPattern } from './plain-pattern.ts';

/** What a rule's `matches` calls are renamed to; a rule that writes it itself gets the same function. */
export const RE2_MATCHES = '__matches';
export const RE2_SIGNATURE = `string.${RE2_MATCHES}(string): bool`;

type Engine = typeof RE2JS;
let engine: Engine | undefined;
/**
 * re2js (RE2's port to JavaScript), loaded when a rule first uses `matches` with a pattern that
 * RegExp cannot stand in for (src/policy/plain-pattern.ts): a run without one does not pay ~15 ms.
 */
const re2 = (): Engine => {
  engine ??= (createRequire(import.meta.url)('re2js') as typeof import('re2js')).RE2JS;
  return engine;
};

/** A compiled pattern: RE2's, or RegExp's where it reads the pattern alike. */
type Matcher = Pick<RE2JS, 'test'>;

/** Compiled patterns: a rule's pattern is usually a literal, compiled once; a few from data, kept while there are few. */
const compiled = new Map<string, Matcher | Error>();
const KEPT_PATTERNS = 1000;

function compiledPattern(pattern: string): Matcher | Error {
  let found = compiled.get(pattern);
  if (found === undefined) {
    try {
      found = plainRegExp(pattern) ?? re2().compile(pattern);
    } catch (error) {
      found = error instanceof Error ? error : new Error(String(error));
    }
    if (compiled.size >= KEPT_PATTERNS) compiled.clear();
    compiled.set(pattern, found);
  }
  return found;
}

/** RegExp's reading of a plain pattern; should RegExp refuse one, RE2 reads it and says why in its own words. */
function plainRegExp(pattern: string): RegExp | undefined {
  try {
    return plainPattern(pattern);
  } catch {
    return undefined;
  }
}

/** The function `matches` calls: RE2's partial match. A pattern RE2 refuses is an evaluation error that never quotes it (it may come from a secret). */
export function re2Matches(text: string, pattern: string): boolean {
  const regexp = compiledPattern(pattern);
  if (regexp instanceof Error) {
    throw new EvaluationError({
      code: 'invalid_regular_expression',
      message: 'the pattern is not an RE2 regular expression',
    });
  }
  return regexp.test(text);
}

/**
 * Renames `calls` (the rule's `matches` calls, from src/policy/variables.ts) to RE2's, and
 * checks each literal pattern as RE2 reads it: the first RE2 refuses is the rule's problem, at its
 * offset, with RE2's reason (a literal is the rule's text, never an object's value).
 */
export function adoptRe2(calls: readonly ASTNode[]): { message: string; offset: number } | undefined {
  let problem: { message: string; offset: number } | undefined;
  for (const call of calls) {
    (call.args as unknown[])[0] = RE2_MATCHES;
    const [pattern] = (call.args as [string, ASTNode, ASTNode[]])[2];
    if (problem || pattern?.op !== 'value' || typeof pattern.args !== 'string') continue;
    const regexp = compiledPattern(pattern.args);
    if (regexp instanceof Error) {
      problem = { message: `matches: not an RE2 regular expression: ${regexp.message}`, offset: pattern.start };
    }
  }
  return problem;
}

/** A type checker's message about a renamed call, as the rule's author wrote it. */
export const asWritten = (message: string): string => message.replaceAll(RE2_MATCHES, 'matches');
