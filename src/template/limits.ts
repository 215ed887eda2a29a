/**
 * What one render may produce. Usernames and LDIF records are small; a
 * template such as `{{random 999999999}}`, `{{printf "%0999999999d" 1}}` or
 * sixty chained `| base64` would otherwise build strings of gigabytes (and
 * end in a RangeError). Every function checks what it is about to build
 * against these bounds before building it, the renderer checks every value
 * and the whole output after, and the work of all calls of one render has a
 * budget of its own; passing one is an error at the call's line and column.
 */
import { TemplateLimitError } from './template-error.ts';
import type { Value } from './values.ts';

/** The most one value, and the rendered output, may hold: 1 MiB (characters of text, or bytes). */
const MAX_TEMPLATE_VALUE = 1024 * 1024;
/** The most all function calls of one render may produce together: 16 MiB. */
const MAX_RENDER_WORK = 16 * 1024 * 1024;

const MIB = 1024 * 1024;

/** Throws when a value of `size` would pass the bound; `what` names it (`the result`, `a width`). */
export function checkValueSize(size: number, what: string): void {
  if (size > MAX_TEMPLATE_VALUE) {
    throw new TemplateLimitError(
      `${what} would be ${size} characters long; a template value may hold at most ${MAX_TEMPLATE_VALUE} (${MAX_TEMPLATE_VALUE / MIB} MiB)`,
    );
  }
}

/** Why the render stops once its calls have produced `work` in all, the last a call of `name`; undefined within the budget. */
export function workRefusal(work: number, name: string): string | undefined {
  if (work <= MAX_RENDER_WORK) return undefined;
  return `the template's functions produce more than ${MAX_RENDER_WORK / MIB} MiB in one render; it stops at ${name}`;
}

/** Why the render stops once its output holds `size`; undefined within the bound. */
export function outputRefusal(size: number): string | undefined {
  if (size <= MAX_TEMPLATE_VALUE) return undefined;
  return `the output passes ${MAX_TEMPLATE_VALUE / MIB} MiB here; a template may render at most that`;
}

/** The size of a value as the bounds count it: characters of a string, bytes of a byte string. */
export function sizeOf(value: Value): number {
  return typeof value === 'string' || value instanceof Uint8Array ? value.length : String(value).length;
}
