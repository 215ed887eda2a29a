/**
 * --target and --selector: which declared objects are in play. With a
 * selection, live objects outside it are neither reported nor pruned.
 */
import { objectKey } from './keys.ts';
import type { DesiredObject } from './types.ts';

export interface Selection {
  /** `Kind` (every object of it) or `Kind/name`. */
  targets: readonly string[];
  /** Label equalities that must all hold. */
  selectors: Readonly<Record<string, string>>;
}

export const EVERYTHING: Selection = { targets: [], selectors: {} };

export function isSelected(selection: Selection, desired: DesiredObject): boolean {
  const labels = desired.metadata.labels ?? {};
  const bySelector = Object.entries(selection.selectors).every(([k, v]) => labels[k] === v);
  return bySelector && matchesTarget(selection, desired.kind, desired.id);
}

export function matchesTarget(selection: Selection, kind: string, id: string): boolean {
  if (selection.targets.length === 0) return true;
  const key = objectKey(kind, id);
  return selection.targets.some((t) => t === kind || t === key);
}

/** Live objects carry no labels, so a selector leaves every unmanaged object out. */
export function liveInSelection(selection: Selection): ((kind: string, id: string) => boolean) | undefined {
  if (Object.keys(selection.selectors).length > 0) return () => false;
  if (selection.targets.length === 0) return undefined;
  return (kind, id) => matchesTarget(selection, kind, id);
}
