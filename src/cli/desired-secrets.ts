/**
 * The secrets of the loaded manifests, for the redactor (src/api/redact.ts):
 * every write-only and interpolated value joins it before anything can print
 * it; and a warning for each write-only value too short to be masked in free
 * text (docs/security.md, "Redaction"), at the value's `file:line:col` and
 * never with the value.
 */
import { REDACT_ANYWHERE, registerSecret } from '../api/redact.ts';
import { formatPosition } from '../errors.ts';
import type { VariableLookup } from '../manifest/variables.ts';
import { providerMap } from '../providers/index.ts';
import { addressKey } from '../reconcile/address.ts';
import { getPath } from '../reconcile/field-paths.ts';
import type { DesiredObject } from '../reconcile/types.ts';

/**
 * Write-only and interpolated values, and every sensitive variable's value (used or not), join the
 * redactor before anything can print them.
 */
export function registerDesiredSecrets(desired: readonly DesiredObject[], variables: VariableLookup): void {
  for (const variable of variables.values()) if (variable.sensitive) registerValue(variable.value);
  for (const d of desired) {
    const secretPaths = new Set([...d.secretFields, ...writeOnly(d)]);
    for (const path of secretPaths) registerValue(getPath(d.spec, path));
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
