/**
 * Shared fixtures for the template tests: a fixed clock and fixed sources of
 * randomness, so every render has one exact expected output.
 */
import { parseTemplate, type RenderOptions, TemplateError } from '../../../src/template/index.ts';

/** 2024-01-02T15:04:05.123Z, a Tuesday. */
export const FIXED_NOW = new Date(Date.UTC(2024, 0, 2, 15, 4, 5, 123));

export const fixedOptions: RenderOptions = {
  now: () => FIXED_NOW,
  random: (n) => 'R'.repeat(n),
  uuid: () => '11111111-2222-4333-8444-555555555555',
};

/** Parses and renders with the fixed clock and randomness. */
export function render(text: string, data: Record<string, string | number> = {}, ldif = false): string {
  return parseTemplate(text, { ldif }).render(data, fixedOptions);
}

/** The TemplateError that parsing or rendering throws, as "line:col message". */
export function failure(text: string, data: Record<string, string | number> = {}, ldif = false): string {
  try {
    render(text, data, ldif);
  } catch (e) {
    if (e instanceof TemplateError) return `${e.line}:${e.col} ${e.message}`;
    throw e;
  }
  throw new Error(`expected ${JSON.stringify(text)} to fail`);
}
