/**
 * Keyed child lists (Provider.children): each item of such a list field
 * becomes a desired object of its own (a module's version is planned,
 * shown and applied alone), its address built from the parent's
 * (`childAddress`); the parent keeps its other fields. Pure.
 */
import { type Address, addressKey, childAddress, kindOfKey, parentOf } from './address.ts';
import { isPlainObject } from './equal.ts';
import { withoutPaths } from './field-paths.ts';
import type { ChildList, Provider } from './provider.ts';
import type { DesiredObject, Fields } from './types.ts';

export function expandChildren(
  desired: readonly DesiredObject[],
  providers: ReadonlyMap<string, Provider>,
): DesiredObject[] {
  const out: DesiredObject[] = [];
  for (const object of desired) {
    const children = providers.get(object.kind)?.children ?? [];
    if (children.length === 0) {
      out.push(object);
      continue;
    }
    out.push({ ...object, spec: withoutChildLists(object.spec, children) });
    // deleting the parent deletes its children with it: they are not planned one by one
    if (object.ensure === 'absent') continue;
    for (const child of children) out.push(...childObjects(object, child));
  }
  return out;
}

/**
 * The items of one of a parent's child lists that become objects: each with its address and the
 * path of the item in the parent (`spec.versions.0`), where its positions are.
 */
export function childItems(
  parent: DesiredObject,
  child: ChildList,
): { address: Address; path: string; item: Fields }[] {
  const items = parent.spec[child.field];
  if (!Array.isArray(items)) return [];
  const { field, key, provider } = child;
  return items.flatMap((item, index) => {
    if (!isPlainObject(item) || typeof item[key] !== 'string') return [];
    return [{ address: childAddress(parent.address, provider.kind, item[key]), path: `spec.${field}.${index}`, item }];
  });
}

function childObjects(parent: DesiredObject, child: ChildList): DesiredObject[] {
  const parentKey = addressKey(parent.address);
  const secret = parent.secretFields.includes(child.field);
  return childItems(parent, child).map(
    ({ address, path, item }): DesiredObject => ({
      kind: child.provider.kind,
      address,
      metadata: parent.metadata,
      ensure: 'present',
      spec: item,
      // a secret list makes each of its items' values secret
      secretFields: secret ? Object.keys(item) : [],
      ...(parent.dir !== undefined && { dir: parent.dir }),
      source: parent.positions[path] ?? parent.source,
      positions: parent.positions,
      parent: parentKey,
    }),
  );
}

/** A parent's spec without its child lists: each item is an object of its own (`expandChildren`). */
export function withoutChildLists(spec: Fields, lists: readonly ChildList[]): Fields {
  return withoutPaths(
    spec,
    lists.map((list) => list.field),
  );
}

/** Each child kind's parent and the list of the parent that holds it (a module's versions), by the child's kind. */
export function parentLists(providers: Iterable<Provider>): Map<string, { parent: Provider; list: ChildList }> {
  const lists = new Map<string, { parent: Provider; list: ChildList }>();
  for (const parent of providers)
    for (const list of parent.children ?? []) lists.set(list.provider.kind, { parent, list });
  return lists;
}

/** The objects that must exist for a declared one to be written: what it references, and its parent. */
export function neededBy(desired: DesiredObject, provider: Provider | undefined): Address[] {
  const refs = provider?.references?.(desired) ?? [];
  if (desired.parent === undefined) return refs;
  return [...refs, parentOf(desired.address, kindOfKey(desired.parent))];
}
