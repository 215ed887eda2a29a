/**
 * Every declared object of a run, in and out of --target (a child list's items expanded), as the
 * planner needs it beside the objects in play: whether an object a selected one needs is declared
 * outside the selection (then the target is what is missing), and which declared objects
 * reference a live object that --prune would otherwise delete. Pure.
 */
import { type Address, addressKey } from './address.ts';
import type { DesiredObject } from './types.ts';

export interface Declared {
  /** Each declared object's `ensure`, by key. */
  ensure: ReadonlyMap<string, DesiredObject['ensure']>;
  /** By key: the declared objects (`ensure: present`) that reference it. */
  referrers: ReadonlyMap<string, readonly DesiredObject[]>;
}

/** `referencesOf` is the kind's own `Provider.references`: what the API needs to exist for the object. */
export function declaredOf(
  objects: readonly DesiredObject[],
  referencesOf: (object: DesiredObject) => readonly Address[],
): Declared {
  const ensure = new Map<string, DesiredObject['ensure']>();
  const referrers = new Map<string, DesiredObject[]>();
  for (const object of objects) {
    ensure.set(addressKey(object.address), object.ensure);
    // an object the manifests delete needs nothing to stay
    if (object.ensure !== 'present') continue;
    for (const ref of referencesOf(object)) {
      const key = addressKey(ref);
      const list = referrers.get(key);
      if (list) list.push(object);
      else referrers.set(key, [object]);
    }
  }
  return { ensure, referrers };
}
