/**
 * Names export makes up: file names and environment variable names for the
 * placeholders of write-only fields. Pure.
 */

/** `SMTPSettings` -> `smtp-settings`, `LDAPStaticRole` -> `ldap-static-role`. */
export function kebabKind(kind: string): string {
  return words(kind).join('-').toLowerCase();
}

/** `SMTPSettings` -> `SMTP_SETTINGS`. */
export function screamingKind(kind: string): string {
  return words(kind).join('_').toUpperCase();
}

function words(camel: string): string[] {
  return camel
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/\s+/)
    .filter(Boolean);
}

/** Upper-case letters, digits and `_` only, as shells and `${env:NAME}` want them. */
export function envSegment(text: string): string {
  return text
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

/**
 * The variable for one write-only field: `SMTP_SETTINGS_PASSWORD` for a
 * singleton, `LDAP_STATIC_ROLE_LDAP_WEB_PASSWORD` (kind, scope, name, field)
 * otherwise. `taken` makes it unique: a clash gets `_2`, `_3`...
 */
export function placeholderName(
  parts: { kind: string; scope: string; name: string; field: string },
  taken: Set<string>,
): string {
  const segments = [
    screamingKind(parts.kind),
    envSegment(parts.scope),
    envSegment(parts.name),
    envSegment(parts.field),
  ];
  const base = segments.filter(Boolean).join('_');
  let name = base;
  for (let n = 2; taken.has(name); n++) name = `${base}_${n}`;
  taken.add(name);
  return name;
}

/**
 * A file name for an object's identity: letters, digits, `.`, `_` and `-`
 * kept, anything else (`/` in LDAP names) as `_`; unique within `taken`
 * (case-insensitively, for case-insensitive file systems).
 */
export function objectFileName(identity: string, taken: Set<string>): string {
  const base = fileSegment(identity);
  let name = base;
  for (let n = 2; taken.has(name.toLowerCase()); n++) name = `${base}-${n}`;
  taken.add(name.toLowerCase());
  return `${name}.yaml`;
}

/** One path segment from any text: letters, digits, `.`, `_` and `-` kept, anything else as `_`, never `.`-led. */
export function fileSegment(text: string): string {
  const segment = text.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '_');
  return segment === '' ? '_' : segment;
}
