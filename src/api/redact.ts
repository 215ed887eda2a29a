/**
 * The process-wide redactor: the last line of defence between a secret and
 * any output. Tokens, write-only fields and interpolated values are
 * registered as soon as they are known; reporters pass every line through
 * `redact`, and API errors redact whatever the server echoed back.
 */

const MASK = '***';
/** Shorter values would mask ordinary words and numbers everywhere. */
const MIN_LENGTH = 4;

const secrets = new Set<string>();
/** Longest first, so a secret that contains another is masked whole. */
let ordered: string[] = [];

export function registerSecret(value: string): void {
  if (typeof value !== 'string' || value.length < MIN_LENGTH) return;
  const before = secrets.size;
  // the forms a value takes inside JSON output and inside URLs, too
  for (const form of [value, JSON.stringify(value).slice(1, -1), encodeURIComponent(value)]) {
    if (form.length >= MIN_LENGTH) secrets.add(form);
  }
  if (secrets.size !== before) ordered = [...secrets].sort((a, b) => b.length - a.length);
}

export function redact(text: string): string {
  let result = text;
  for (const secret of ordered) {
    if (result.includes(secret)) result = result.split(secret).join(MASK);
  }
  return result;
}
