/**
 * The process-wide redactor: the last line of defence between a secret and
 * any output. Tokens, write-only fields and interpolated values are
 * registered as soon as they are known; reporters pass every line through
 * `redact`, and API errors redact whatever the server echoed back.
 *
 * Free text (messages, server answers) is masked by value, so a value must be
 * long enough to be told apart from ordinary words (docs/security.md,
 * "Redaction"): one of at least REDACT_ANYWHERE characters is masked wherever
 * it appears; a shorter one (a password `changed`) only where it stands
 * whole, quoted (`"changed"`, `'changed'`, `\"changed\"`, as a server echoes a value), or
 * `live state changed since the plan was made` would lose a word. Values are
 * masked by their place, the field they are in, whatever their length: plans,
 * reports and saved plans never carry a secret field's value. `validate`
 * warns about a secret shorter than this (src/cli/short-secrets.ts).
 */

const MASK = '***';
/** A secret this long or longer is masked anywhere in free text. */
export const REDACT_ANYWHERE = 8;

/** The quotes a short value is masked within: JSON's, a message's, and JSON's inside a JSON string. */
const QUOTES = ['"', "'", '\\"'];

/** What to mask, and its mask: a value, or a short value in its quotes. */
const masks = new Map<string, string>();
/** Longest first, so a secret that contains another is masked whole. */
let ordered: Array<[string, string]> = [];

export function registerSecret(value: string): void {
  if (typeof value !== 'string' || value.length === 0) return;
  const before = masks.size;
  // the forms a value takes inside JSON output and inside URLs, too
  const forms = new Set([value, JSON.stringify(value).slice(1, -1), encodeURIComponent(value)]);
  for (const form of forms) {
    if (form.length >= REDACT_ANYWHERE) masks.set(form, MASK);
    else for (const quote of QUOTES) masks.set(`${quote}${form}${quote}`, `${quote}${MASK}${quote}`);
  }
  if (masks.size !== before) ordered = [...masks].sort(([a], [b]) => b.length - a.length);
}

export function redact(text: string): string {
  let result = text;
  for (const [secret, mask] of ordered) {
    if (result.includes(secret)) result = result.split(secret).join(mask);
  }
  return result;
}

/**
 * Forgets every registered value. For tests only: the test files of a worker share one process
 * (vitest.config.ts), and a secret one file registers would mask another file's plain text.
 */
export function forgetSecrets(): void {
  masks.clear();
  ordered = [];
}
