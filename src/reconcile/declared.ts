/**
 * Every declared object of a run, in and out of --target (a child list's items expanded), as the
 * planner needs it beside the objects in play: which declared objects reference a live object
 * that --prune would otherwise delete. Pure.
 */
import { type Address, addressKey } from './address.ts';
import type { DesiredObject } from './types.ts';

export interface Declared {
  /** By key: the declared objects (`ensure: present`) that reference it. */
  referrers: ReadonlyMap<string, readonly DesiredObject[]>;
}

/** `referencesOf` is the kind's own `Provider.references`: what the API needs to exist for the object. */
export function declaredOf(
  objects: readonly DesiredObject[],
  referencesOf: (object: DesiredObject) => readonly Address[],
): Declared {
  const referrers = new Map<string, DesiredObject[]>();
  for (const object of objects) {
    // an object the manifests delete needs nothing to stay
    if (object.ensure !== 'present') continue;
    for (const ref of referencesOf(object)) {
      const key = addressKey(ref);
      const list = referrers.get(key);
      if (list) list.push(object);
      else referrers.set(key, [object]);
    }
  }
  return { referrers };
}
