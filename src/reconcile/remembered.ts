/**
 * Values the service sets itself when an object is created (a generated SSH
 * CA's public key, Provider.remembers): the executor records what it saw
 * after creating the object in the fingerprint store, and a plan compares the
 * live value with it. A different one means someone replaced it behind
 * converge's back: drift, planned as a replacement. Pure: the store is a lookup.
 */
import { getPath } from './field-paths.ts';
import { isIgnored } from './ignore.ts';
import type { Provider } from './provider.ts';
import type { FingerprintLookup } from './secrets.ts';
import type { FieldChange, Fields } from './types.ts';

/** The store entry of a remembered field: apart from a secret's, whose entry marks the field as secret. */
export function rememberedField(field: string): string {
  return `created:${field}`;
}

/** The remembered fields that `fields` (an object's desired fields) leave to the service to set. */
export function leftToService(provider: Provider, fields: Fields): string[] {
  return (provider.remembers ?? []).filter((field) => getPath(fields, field) === undefined);
}

export interface Swapped {
  changes: FieldChange[];
  notes: string[];
}

/**
 * Remembered fields the manifest leaves to the service whose live value is not the one converge
 * saw; none the object ignores (`ignore`: someone else may swap it).
 */
export function swappedFields(
  provider: Provider,
  key: string,
  desired: Fields,
  live: Fields,
  lookup: FingerprintLookup | undefined,
  ignore: readonly string[] = [],
): Swapped {
  const swapped: Swapped = { changes: [], notes: [] };
  if (!lookup) return swapped;
  for (const field of leftToService(provider, desired)) {
    if (isIgnored(field, ignore)) continue;
    const value = getPath(live, field);
    if (value === undefined) continue;
    if (lookup(key, rememberedField(field), value) !== 'changed') continue;
    swapped.changes.push({ path: field, before: value, replace: true, note: 'a new one, made by the service' });
    swapped.notes.push(
      `${field} is not the one converge saw after creating the object: it was changed outside converge; ` +
        'the replacement has the service make a new one (to keep the live one, declare it in the manifest)',
    );
  }
  return swapped;
}
