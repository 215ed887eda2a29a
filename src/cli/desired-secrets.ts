/**
 * The secrets of the loaded manifests, for the redactor (src/api/redact.ts):
 * every write-only value and every value secret by where it came from joins
 * it before anything can print it, not the plain values beside one; and a
 * warning for each write-only value too short to be masked in free text
 * (docs/security.md, "Redaction"), at the value's `file:line:col` and never
 * with the value.
 */
import { REDACT_ANYWHERE, registerSecret } from '../api/redact.ts';
import { formatPosition } from '../errors.ts';
import { joinPath } from '../manifest/paths.ts';
import type { VariableLookup } from '../manifest/variables.ts';
import { providerMap } from '../providers/index.ts';
import { addressKey } from '../reconcile/address.ts';
import { getPath, isWithin } from '../reconcile/field-paths.ts';
import type { DesiredObject } from '../reconcile/types.ts';

/**
 * Write-only values, the values at secret paths (`${env:}`, a sensitive `${var:}`, `sensitive:`),
 * and every sensitive variable's value (used or not), join the redactor before anything can print
 * them.
 */
export function registerDesiredSecrets(desired: readonly DesiredObject[], variables: VariableLookup): void {
  for (const variable of variables.values()) if (variable.sensitive) registerValue(variable.value);
  for (const d of desired) {
    for (const path of writeOnly(d)) registerValue(getPath(d.spec, path));
    for (const field of d.secretFields) {
      const secret = (d.secretPaths ?? []).filter((path) => isWithin(path, field));
      registerSecretsIn(d.spec[field], field, secret);
    }
  }
}

/**
 * The secrets inside a secret field: the values at its secret paths, not the literals beside them.
 * A list that holds a sensitive item and plain ones (`allowed_users: [ubuntu, ${var:user}]`) is
 * hidden whole where it stands, by its place (plans, reports, saved plans); its plain items are
 * no secrets, and registered they would be masked wherever else they are written (another role's
 * `default_user: ubuntu` as `"***"`). A field whose secret paths are not known is registered whole.
 */
function registerSecretsIn(value: unknown, path: string, secret: readonly string[]): void {
  if (secret.length === 0 || secret.some((at) => isWithin(path, at))) registerValue(value);
  else if (value && typeof value === 'object') {
    // a list's items by index, as paths name them (`allowed_users.1`)
    for (const [key, item] of Object.entries(value)) registerSecretsIn(item, joinPath(path, key), secret);
  }
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
