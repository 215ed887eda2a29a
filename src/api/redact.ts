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
 * `live state changed since the plan was made` would lose a word. The parts of
 * a secret list of URLs that a server names alone (a host) are masked by the
 * same rule (`echoedParts`). Values are masked by their place, the field they
 * are in, whatever their length: plans, reports and saved plans never carry a
 * secret field's value. `validate` warns about a secret shorter than this
 * (src/cli/desired-secrets.ts).
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
  for (const part of [value, ...echoedParts(value)]) addMasks(part);
  if (masks.size !== before) ordered = [...masks].sort(([a], [b]) => b.length - a.length);
}

function addMasks(value: string): void {
  // the forms a value takes inside JSON output and inside URLs, too
  const forms = new Set([value, JSON.stringify(value).slice(1, -1), encodeURIComponent(value)]);
  for (const form of forms) {
    if (form.length >= REDACT_ANYWHERE) masks.set(form, MASK);
    else for (const quote of QUOTES) masks.set(`${quote}${form}${quote}`, `${quote}${MASK}${quote}`);
  }
}

/** A URL's scheme, user info, host (a bracketed IPv6 address whole) and port, as written. */
const URL_PARTS = /^[a-z][a-z\d+.-]*:\/\/(?:([^/?#]*)@)?(\[[^\]/?#]*\]|[^:/?#]*)(?::(\d+))?/i;

/**
 * The parts of a secret list of URLs (an LDAP `url`: `ldap://dc1.corp,ldap://dc2.corp`) that a
 * server names on their own, each URL (`no LDAP server could be reached (ldap://dc1.corp: …)`),
 * its host and host:port (`getaddrinfo ENOTFOUND dc1.corp`) and its user info; none for a value
 * that holds no URL (a password with a comma is not cut into words). A part is masked by the rule
 * for a whole value (REDACT_ANYWHERE): a short host (`dc1`) only where it stands quoted, else
 * every ordinary word spelled like it would be masked too.
 */
function echoedParts(value: string): string[] {
  if (!value.includes('://')) return [];
  const parts = new Set<string>();
  for (const item of value.split(',')) {
    const url = URL_PARTS.exec(item.trim());
    if (!url) continue;
    const [prefix, userinfo, host = '', port] = url;
    parts.add(item.trim()).add(prefix);
    // a name resolver may print a host in lower case, and an IPv6 address without its brackets
    const hosts = host === '' ? [] : [host, host.toLowerCase(), host.replace(/^\[(.*)\]$/, '$1')];
    for (const form of hosts) parts.add(form).add(port === undefined ? form : `${form}:${port}`);
    if (userinfo) for (const part of userInfoParts(userinfo)) parts.add(part);
  }
  parts.delete(value);
  parts.delete('');
  return [...parts];
}

/** `user:password` whole, each half (a password may hold `:`), and each as a server that decoded it prints it. */
function userInfoParts(userinfo: string): string[] {
  const colon = userinfo.indexOf(':');
  const written = colon < 0 ? [userinfo] : [userinfo, userinfo.slice(0, colon), userinfo.slice(colon + 1)];
  return written.flatMap((part) => {
    try {
      return [part, decodeURIComponent(part)];
    } catch {
      return [part]; // not percent-encoded as a URL wants: only as written
    }
  });
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
