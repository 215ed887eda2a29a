/**
 * The templated LDIF of a dynamic role, checked offline the way the engine
 * checks it on write (src/template and src/ldif, the same modules the
 * emulator uses): the template parses, uses only the fields the engine
 * fills, renders with sample values, and the result is LDIF with at least
 * one entry. A problem points at its line inside the template file when the
 * value was read with `${file:}`.
 */
import { decodeLdifField, parseLdif } from '../../ldif/index.ts';
import type { SpecProblem } from '../../manifest/catalog.ts';
import type { DesiredObject, Json } from '../../reconcile/types.ts';
import { checkTemplate, LDIF_FIELDS, USERNAME_FIELDS } from '../../template/index.ts';
import { checkValues } from '../shared/check-values.ts';

export const LDIF_SPEC_FIELDS = ['creation_ldif', 'deletion_ldif', 'rollback_ldif'] as const;

/** Plain and base64 LDIF compare equal, and so do line endings and trailing blank lines. */
export const ldifText = (value: Json): Json => {
  if (typeof value !== 'string') return value;
  return decodeLdifField(value)
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => line.replace(/[ \t]+$/, ''))
    .join('\n')
    .replace(/\n+$/, '');
};

export function checkDynamicRole(object: DesiredObject): SpecProblem[] {
  const problems: SpecProblem[] = [];
  for (const field of LDIF_SPEC_FIELDS) {
    const value = object.spec[field];
    // an empty rollback is none (the default)
    if (typeof value !== 'string' || (field === 'rollback_ldif' && value.trim() === '')) continue;
    problems.push(...ldifProblems(object, field, ldifText(value) as string));
  }
  const username = object.spec.username_template;
  if (typeof username === 'string' && username !== '') {
    for (const p of checkTemplate(username, USERNAME_FIELDS).problems)
      problems.push(located(object, 'username_template', p));
  }
  return problems;
}

function ldifProblems(object: DesiredObject, field: string, text: string): SpecProblem[] {
  const check = checkTemplate(text, LDIF_FIELDS, { ldif: true });
  if (check.problems.length > 0) return check.problems.map((p) => located(object, field, p));
  try {
    if (parseLdif(check.sample ?? '').length === 0) {
      return [
        located(object, field, { line: 1, col: 1, message: 'holds no LDIF entry (the engine needs at least one)' }),
      ];
    }
  } catch (error) {
    // the sample render keeps the template's lines, so an LDIF error's line is the template's
    const where = error as { line?: number; col?: number; reason?: string; message: string };
    return [
      located(object, field, {
        line: where.line ?? 1,
        col: where.col ?? 1,
        message: `is not valid LDIF: ${where.reason ?? where.message}`,
      }),
    ];
  }
  return [];
}

/**
 * In the template file when the value is one, else at the value in the manifest with the template's
 * line named. The LDIF parser quotes what it read (a DN, a value): for a secret field only the place
 * is told (src/providers/shared/check-values.ts).
 */
function located(
  object: DesiredObject,
  field: string,
  problem: { line: number; col: number; message: string },
): SpecProblem {
  const p = checkValues(object).secret(field)
    ? { ...problem, message: 'is not valid here (what is wrong is hidden: the value is secret)' }
    : problem;
  const file = object.fileSources?.[`spec.${field}`];
  if (file) return { path: `spec.${field}`, message: `${field}: ${p.message}`, at: { file, line: p.line, col: p.col } };
  return { path: `spec.${field}`, message: `${field} (template line ${p.line}, column ${p.col}): ${p.message}` };
}
