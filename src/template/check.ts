/**
 * checkTemplate: what `converge validate` runs on every template, offline. It
 * parses, checks that only the fields the template kind offers are used, and
 * renders with sample values and a fixed clock, so that problems Vault would
 * only hit when issuing a credential (a wrong type, a bad length, a printf
 * mistake) show up with their line:col before anything is applied. It
 * collects problems instead of throwing.
 */
import { SAMPLE_TIME, SAMPLE_VALUES } from './fields.ts';
import { RANDOM_CHARSET } from './functions.ts';
import { parse } from './parser.ts';
import { renderParsed, type TemplateData } from './render.ts';
import { positionAt, TemplateError } from './template-error.ts';

export interface TemplateProblem {
  line: number;
  col: number;
  message: string;
  /** The render passed a bound on size or work (TemplateError.limit). */
  limit?: true;
}

export interface TemplateCheck {
  problems: TemplateProblem[];
  /** The render with sample values, when there was no problem that stopped it. */
  sample?: string;
}

/** Deterministic stand-ins for `random N`: the charset repeated, so samples are stable between runs. */
const sampleRandom = (n: number): string => RANDOM_CHARSET.repeat(Math.ceil(n / RANDOM_CHARSET.length)).slice(0, n);
const SAMPLE_UUID = '00000000-0000-4000-8000-000000000000';

/** A sample value for every allowed field; a field with no known sample gets a recognisable string. */
function sampleData(allowed: readonly string[]): TemplateData {
  return Object.fromEntries(allowed.map((name) => [name, SAMPLE_VALUES[name] ?? `sample-${name}`]));
}

export function checkTemplate(
  text: string,
  allowed: readonly string[],
  options: { ldif?: boolean } = {},
): TemplateCheck {
  const problem = (message: string, offset: number): TemplateProblem => ({ ...positionAt(text, offset), message });
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(text, options);
  } catch (e) {
    if (e instanceof TemplateError) return { problems: [{ line: e.line, col: e.col, message: e.message }] };
    throw e;
  }

  const known = allowed.map((f) => `.${f}`).join(', ') || '(none)';
  const problems = parsed.fieldRefs
    .filter((ref) => !allowed.includes(ref.name))
    .map((ref) => problem(`no field .${ref.name}; known: ${known}`, ref.offset));
  if (problems.length > 0) return { problems };

  try {
    const { output, notes } = renderParsed(text, parsed, sampleData(allowed), {
      now: () => SAMPLE_TIME,
      random: sampleRandom,
      uuid: () => SAMPLE_UUID,
      ldif: options.ldif === true,
    });
    return { problems: notes.map((n) => problem(n.message, n.offset)), sample: output };
  } catch (e) {
    if (e instanceof TemplateError) {
      return { problems: [{ line: e.line, col: e.col, message: e.message, ...(e.limit && { limit: true as const }) }] };
    }
    throw e;
  }
}
