/**
 * How the in-memory directory holds an entry and compares values. A real
 * server compares values with each attribute's matching rule; the engine
 * only touches a few kinds of attribute, so three rules cover it: DN-valued
 * attributes (member, ...) compare as DNs, userPassword byte for byte, and
 * everything else case-insensitively (caseIgnoreMatch, as for cn, uid, ou).
 */
import { type DnAttributeValue, dnKey, formatRdn } from '../../../ldif/dn.ts';
import type { DirectoryEntry } from './types.ts';

export interface StoredAttribute {
  /** The name as first written. */
  name: string;
  values: string[];
}

/** Attributes keyed by lower-case name. */
export type Attributes = Map<string, StoredAttribute>;

export interface StoredEntry {
  rdns: DnAttributeValue[][];
  attributes: Attributes;
}

const DN_VALUED = new Set(['member', 'uniquemember', 'owner', 'seealso', 'manager', 'roleoccupant', 'secretary']);
const EXACT = new Set(['userpassword']);

/** The form under which two values of `attribute` are equal. */
export function valueKey(attribute: string, value: string): string {
  const name = attribute.toLowerCase().split(';')[0]!;
  if (EXACT.has(name)) return value;
  if (DN_VALUED.has(name)) {
    try {
      return dnKey(value);
    } catch {
      // Not a valid DN: fall back to comparing it as text.
    }
  }
  return value.toLowerCase();
}

export function hasValue(attributes: Attributes, attribute: string, value: string): boolean {
  const stored = attributes.get(attribute.toLowerCase());
  const key = valueKey(attribute, value);
  return stored?.values.some((candidate) => valueKey(attribute, candidate) === key) ?? false;
}

export function dnOf(rdns: DnAttributeValue[][]): string {
  return rdns.map(formatRdn).join(',');
}

export function keyOf(rdns: DnAttributeValue[][]): string {
  return dnOf(rdns).toLowerCase();
}

export function cloneAttributes(attributes: Attributes): Attributes {
  return new Map([...attributes].map(([key, { name, values }]) => [key, { name, values: [...values] }]));
}

/** A copy the caller may change without touching the directory. */
export function toDirectoryEntry(entry: StoredEntry): DirectoryEntry {
  const attributes: Record<string, string[]> = {};
  for (const { name, values } of entry.attributes.values()) attributes[name] = [...values];
  return { dn: dnOf(entry.rdns), attributes };
}

/** True when `rdns` names `base` or an entry below it. */
export function isWithin(rdns: DnAttributeValue[][], base: DnAttributeValue[][]): boolean {
  if (rdns.length < base.length) return false;
  const offset = rdns.length - base.length;
  return base.every((rdn, index) => formatRdn(rdn).toLowerCase() === formatRdn(rdns[offset + index]!).toLowerCase());
}
