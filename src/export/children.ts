/**
 * The child list items export writes into their parents' manifests (a
 * module's versions, each with its archive downloaded beside the manifests):
 * the kinds to read with the chosen ones, and each exported parent's items.
 * A child kind takes part through its `exportItem` (src/reconcile/provider.ts).
 */
import { addressKey, compareAddresses, parentOf } from '../reconcile/address.ts';
import type { ChildList, Provider } from '../reconcile/provider.ts';
import type { LiveState } from '../reconcile/read.ts';
import type { ExportedChild, SkippedObject } from './build.ts';

/** The child kinds of the chosen ones whose items export writes. */
export function exportedChildKinds(chosen: readonly Provider[]): Provider[] {
  return chosen.flatMap((parent) => exportedLists(parent).map((list) => list.provider));
}

/**
 * Each exported parent's child items, by the parent's address key, in address order; an item
 * left out (a version without content) is given to `skip`, with why.
 */
export function exportedChildren(
  chosen: readonly Provider[],
  live: LiveState,
  skip: (skipped: SkippedObject) => void,
): Map<string, ExportedChild[]> {
  const children = new Map<string, ExportedChild[]>();
  for (const parent of chosen) {
    const parents = live.get(parent.kind);
    for (const { field, provider } of exportedLists(parent)) {
      const items = [...(live.get(provider.kind)?.values() ?? [])];
      for (const item of items.sort((a, b) => compareAddresses(a.address, b.address))) {
        const key = addressKey(parentOf(item.address, parent.kind));
        const owner = parents?.get(key);
        if (!owner) continue;
        const why = provider.exportItem.skip(item, owner);
        if (why !== undefined) {
          skip({ object: addressKey(item.address), kind: provider.kind, why });
          continue;
        }
        const child = { field, live: item, export: provider.exportItem, provider };
        children.set(key, [...(children.get(key) ?? []), child]);
      }
    }
  }
  return children;
}

type ExportedList = ChildList & { provider: Provider & Required<Pick<Provider, 'exportItem'>> };

function exportedLists(parent: Provider): ExportedList[] {
  return (parent.children ?? []).filter((list): list is ExportedList => list.provider.exportItem !== undefined);
}
