/**
 * The templated LDIF of dynamic roles, as the engine checks it when a role
 * is written (decode base64, parse the template, render it with sample
 * values, parse the LDIF) and runs it when credentials are issued and their
 * lease ends. Shared with `converge validate` through src/template and
 * src/ldif, so both say the same about a template.
 */
import { decodeLdifField, type LdifRecord, parseLdif } from '../../ldif/index.ts';
import {
  checkTemplate,
  LDIF_FIELDS,
  parseTemplate,
  type TemplateData,
  TemplateError,
  type TemplateProblem,
  USERNAME_FIELDS,
} from '../../template/index.ts';
import { refused } from '../secrets/envelope.ts';
import { directoryMessage } from './connection.ts';
import type { Directory } from './directory/index.ts';

/**
 * Why a template field is not acceptable, in the engine's words. `limit`: the template asks for more
 * than a render may produce (src/template/limits.ts), a bound of the emulator's own (the service
 * would try to build it): that is bad input, a 400, where the engine's own checks of a template
 * fail as a 500.
 */
export interface FieldProblem {
  message: string;
  limit: boolean;
}

/** Why an LDIF field is not acceptable; undefined when it is. */
export function ldifProblem(text: string): FieldProblem | undefined {
  const check = checkTemplate(text, LDIF_FIELDS, { ldif: true });
  const first = check.problems[0];
  if (first) return placed('invalid template: ', first);
  try {
    if (parseLdif(check.sample ?? '').length === 0)
      return { message: 'must specify at least one LDIF entry', limit: false };
  } catch (error) {
    return { message: `LDIF is invalid: ${(error as Error).message}`, limit: false };
  }
  return undefined;
}

export function usernameTemplateProblem(text: string): FieldProblem | undefined {
  const first = checkTemplate(text, USERNAME_FIELDS).problems[0];
  return first && placed('', first);
}

const placed = (prefix: string, problem: TemplateProblem): FieldProblem => ({
  message: `${prefix}${problem.message} (line ${problem.line}, column ${problem.col})`,
  limit: problem.limit === true,
});

/** An LDIF field as stored: base64 given is kept decoded. */
export const storedLdif = (text: string): string => decodeLdifField(text);

/**
 * A template run with the request's values. One that checked out with the sample values may still
 * fail with these (a longer display name passes a size bound, src/template/limits.ts): the answer
 * is then a 400 with the template's message and place, never an anonymous 500.
 */
export function render(template: string, data: TemplateData, ldif: boolean, field: string): string {
  try {
    return parseTemplate(template, { ldif }).render(data, { ldif });
  } catch (error) {
    if (!(error instanceof TemplateError)) throw error;
    throw refused(`failed to render ${field}: ${error.message} (line ${error.line}, column ${error.col})`);
  }
}

/** Runs records in order: stops at the first error (creation), or goes on past errors (deletion, rollback). */
export async function runLdif(
  directory: Directory,
  records: readonly LdifRecord[],
  stopAtError: boolean,
): Promise<string[]> {
  const errors: string[] = [];
  for (const record of records) {
    try {
      await directory.apply(record);
    } catch (error) {
      errors.push(`${record.dn}: ${directoryMessage(error)}`);
      if (stopAtError) break;
    }
  }
  return errors;
}

export { parseLdif };
