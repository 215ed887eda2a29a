/**
 * The secrets of the loaded manifests, for the redactor (src/api/redact.ts):
 * every write-only value and every value secret by where it came from joins
 * it before anything can print it, as written and as sent (normalized), not
 * the plain values beside one; and a warning for each write-only value too
 * short to be masked in free text (docs/security.md, "Redaction"), at the
 * value's `file:line:col` and never with the value.
 */
import { REDACT_ANYWHERE, registerSecret } from '../api/redact.ts';
import { formatPosition } from '../errors.ts';
import { joinPath } from '../manifest/paths.ts';
import type { VariableLookup } from '../manifest/variables.ts';
import { providerMap } from '../providers/index.ts';
import { addressKey } from '../reconcile/address.ts';
import { getPath, isWithin } from '../reconcile/field-paths.ts';
import type { DesiredObject, Fields, Json } from '../reconcile/types.ts';

/**
 * Write-only values, the values at secret paths (`${env:}`, a sensitive `${var:}`, `sensitive:`),
 * and every sensitive variable's value (used or not), join the redactor before anything can print
 * them: as written, and as sent.
 */
export function registerDesiredSecrets(desired: readonly DesiredObject[], variables: VariableLookup): void {
  for (const variable of variables.values()) if (variable.sensitive) registerValue(variable.value);
  for (const d of desired) {
    const paths = writeOnly(d);
    const secrets = secretParts(d);
    for (const path of paths) registerValue(getPath(d.spec, path));
    for (const value of Object.values(secrets)) registerValue(value);
    registerSent(d, paths, secrets);
  }
}

/** The secret part of each secret field that holds one (secretPart). */
function secretParts(d: DesiredObject): Fields {
  const parts: Fields = {};
  for (const field of d.secretFields) {
    const secret = (d.secretPaths ?? []).filter((path) => isWithin(path, field));
    const part = secretPart(d.spec[field], field, secret);
    if (part !== undefined) parts[field] = part;
  }
  return parts;
}

/**
 * The secrets inside a secret field: the values at its secret paths, not the literals beside them.
 * A list that holds a sensitive item and plain ones (`allowed_users: [ubuntu, ${var:user}]`) is
 * hidden whole where it stands, by its place (plans, reports, saved plans); its plain items are
 * no secrets, and registered they would be masked wherever else they are written (another role's
 * `default_user: ubuntu` as `"***"`). A field whose secret paths are not known is secret whole.
 */
function secretPart(value: Json | undefined, path: string, secret: readonly string[]): Json | undefined {
  if (secret.length === 0 || secret.some((at) => isWithin(path, at))) return value;
  if (value === null || typeof value !== 'object' || !secret.some((at) => isWithin(at, path))) return undefined;
  // a list's items by index, as paths name them (`allowed_users.1`)
  const parts = Object.entries(value).flatMap(([key, item]): Array<[string, Json]> => {
    const part = secretPart(item, joinPath(path, key), secret);
    return part === undefined ? [] : [[key, part]];
  });
  return Array.isArray(value) ? parts.map(([, part]) => part) : Object.fromEntries(parts);
}

/**
 * The secrets as the kind sends them, normalized (a DN as `cn=x,ou=y`, a URL list without spaces)
 * and in their wire form: a server echoes what it was sent (`could not find the account
 * "cn=x,ou=y"`), not what the manifest wrote. Each secret field is normalized with its secret part
 * alone, as a normalizer that sorts a list would put a plain item where the secret was. A secret
 * empty as written is left out: what it normalizes to is a default (`algorithm_signer: ""` is
 * `default`), no secret.
 */
function registerSent(d: DesiredObject, paths: readonly string[], secrets: Fields): void {
  const provider = providerMap.get(d.kind);
  if (!provider || (paths.length === 0 && Object.keys(secrets).length === 0)) return;
  const spec = { ...d.spec, ...secrets };
  let forms: Fields[];
  try {
    const canonical = provider.canonicalDesired(spec);
    const wire = provider.wire?.(canonical, spec);
    forms = wire ? [canonical, wire] : [canonical];
  } catch {
    // a spec the kind cannot normalize is the plan's to report; nothing is sent of it
    return;
  }
  const written = paths.filter((path) => !isEmpty(getPath(d.spec, path)));
  const fields = Object.keys(secrets).filter((field) => !isEmpty(secrets[field]));
  for (const sent of forms) {
    for (const path of written) registerValue(getPath(sent, path));
    for (const field of fields) registerValue(sent[field]);
  }
}

/** No value at all: none, an empty string, or a list or map of nothing but those. */
function isEmpty(value: Json | undefined): boolean {
  if (value === undefined || value === null || value === '') return true;
  return typeof value === 'object' && Object.values(value).every(isEmpty);
}

/** `file:line:col: warning: …` for each write-only value shorter than the redactor masks anywhere. */
export function shortSecretWarnings(desired: readonly DesiredObject[]): string[] {
  return desired.flatMap((d) =>
    writeOnly(d).flatMap((path) => {
      const value = getPath(d.spec, path);
      if (typeof value !== 'string' || value === '' || value.length >= REDACT_ANYWHERE) return [];
      const at = formatPosition(d.positions[`spec.${path}`] ?? d.source);
      return [
        `${at}: warning: ${addressKey(d.address)} spec.${path}: this secret is shorter than ${REDACT_ANYWHERE} characters, too short to be told apart from ordinary words: messages and server answers mask it only where it stands quoted (plans and reports never show it); use a longer one`,
      ];
    }),
  );
}

function writeOnly(d: DesiredObject): readonly string[] {
  return providerMap.get(d.kind)?.writeOnly(d.spec) ?? [];
}

/** A secret value, or every string inside one (a sensitive variable may hold a list or a map). */
function registerValue(value: unknown): void {
  if (typeof value === 'string') registerSecret(value);
  else if (Array.isArray(value)) value.forEach(registerValue);
  else if (value && typeof value === 'object') Object.values(value).forEach(registerValue);
}
