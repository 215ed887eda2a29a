/**
 * The human part of an error response, from either API's body form
 * (docs/apis.md):
 * - JSON:API: `{"errors":[{"status":"422","title":"invalid attribute","detail":"..."}]}`
 * - Vault: `{"errors":["msg"]}`, a 500's text wrapped by go-multierror, and
 *   `{"errors":[]}` for a plain 404
 * - anything else: a short text body (a proxy's error page, say)
 */

const MAX_TEXT = 300;

export function errorMessages(body: unknown): string[] {
  if (typeof body === 'string') return textMessage(body);
  if (typeof body !== 'object' || body === null) return [];
  const record = body as Record<string, unknown>;
  if (Array.isArray(record.errors)) return record.errors.flatMap(errorEntry);
  for (const key of ['message', 'error']) {
    const value = record[key];
    if (typeof value === 'string' && value.trim() !== '') return [value.trim()];
  }
  return [];
}

function errorEntry(entry: unknown): string[] {
  if (typeof entry === 'string') return entry.trim() === '' ? [] : [unwrapMultiError(entry)];
  if (typeof entry !== 'object' || entry === null) return [];
  const { title, detail } = entry as { title?: unknown; detail?: unknown };
  const t = typeof title === 'string' ? title.trim() : '';
  const d = typeof detail === 'string' ? detail.trim() : '';
  if (t && d) return [`${t}: ${d}`];
  return t || d ? [t || d] : [];
}

/** `"1 error occurred:\n\t* permission denied\n\n"` -> `permission denied` (joined with `; ` when several). */
function unwrapMultiError(text: string): string {
  const match = /^\d+ errors? occurred:\n([\s\S]*)$/.exec(text.trim());
  if (!match?.[1]) return text.trim();
  const items = match[1]
    .split('\n')
    .map((line) => line.replace(/^\s*\*\s?/, '').trim())
    .filter((line) => line !== '');
  return items.length > 0 ? items.join('; ') : text.trim();
}

function textMessage(text: string): string[] {
  const plain = text
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (plain === '') return [];
  return [plain.length > MAX_TEXT ? `${plain.slice(0, MAX_TEXT)}...` : plain];
}
