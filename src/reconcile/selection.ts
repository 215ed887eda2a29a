/**
 * --target and --selector: which declared objects are in play. With a
 * selection, live objects outside it are neither reported nor pruned.
 * Targets are address patterns (src/reconcile/address.ts), parsed once.
 */
import type { Address, AddressPattern } from './address.ts';
import { matchesNameGlob } from './name-glob.ts';
import type { DesiredObject } from './types.ts';

export interface Selection {
  targets: readonly AddressPattern[];
  /** Label equalities that must all hold. */
  selectors: Readonly<Record<string, string>>;
}

export const EVERYTHING: Selection = { targets: [], selectors: {} };

export function isSelected(selection: Selection, desired: DesiredObject): boolean {
  const labels = desired.metadata.labels ?? {};
  // own labels only: `__proto__` or `constructor` is a label an object has, not one every object inherits
  const bySelector = Object.entries(selection.selectors).every(([k, v]) => Object.hasOwn(labels, k) && labels[k] === v);
  return bySelector && matchesTarget(selection, desired.address);
}

export function matchesTarget(selection: Selection, address: Address): boolean {
  if (selection.targets.length === 0) return true;
  return selection.targets.some((pattern) => matchesPattern(pattern, address));
}

function matchesPattern(pattern: AddressPattern, address: Address): boolean {
  return (
    pattern.kind === address.kind &&
    matchesPart(pattern.scope, address.scope) &&
    matchesPart(pattern.name, address.name)
  );
}

/** Equal, or matched as a glob; an absent pattern part matches anything. */
function matchesPart(pattern: string | undefined, value: string | undefined): boolean {
  if (pattern === undefined) return true;
  if (value === undefined) return false;
  return matchesNameGlob(value, pattern);
}

/** Live objects carry no labels, so a selector leaves every unmanaged object out. */
export function liveInSelection(selection: Selection): ((address: Address) => boolean) | undefined {
  if (Object.keys(selection.selectors).length > 0) return () => false;
  if (selection.targets.length === 0) return undefined;
  return (address) => matchesTarget(selection, address);
}
