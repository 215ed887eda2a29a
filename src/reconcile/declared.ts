/**
 * Every declared object of a run, in and out of --target (a child list's items expanded), as the
 * planner needs it beside the objects in play: whether an object a selected one needs is declared
 * outside the selection (then the target is what is missing), and which declared objects
 * reference a live object that --prune would otherwise delete. Pure.
 */
import { type Address, addressKey } from './address.ts';
import type { Provider } from './provider.ts';
import type { DesiredObject } from './types.ts';

export interface Declared {
  /** Each declared object's `ensure`, by key. */
  ensure: ReadonlyMap<string, DesiredObject['ensure']>;
  /** By key: the declared objects (`ensure: present`) that reference it. */
  referrers: ReadonlyMap<string, readonly DesiredObject[]>;
  /** By key: the declared objects it holds (`Provider.heldByReference`), which its replacement deletes. */
  held: ReadonlyMap<string, readonly DesiredObject[]>;
}

/** `referencesOf` is the kind's own `Provider.references`: what the API needs to exist for the object. */
export function declaredOf(
  objects: readonly DesiredObject[],
  referencesOf: (object: DesiredObject) => readonly Address[],
  isHeld: (object: DesiredObject) => boolean = () => false,
): Declared {
  const ensure = new Map<string, DesiredObject['ensure']>();
  const referrers = new Map<string, DesiredObject[]>();
  const held = new Map<string, DesiredObject[]>();
  for (const object of objects) {
    ensure.set(addressKey(object.address), object.ensure);
    // an object the manifests delete needs nothing to stay
    if (object.ensure !== 'present') continue;
    const refs = referencesOf(object);
    for (const ref of refs) add(referrers, addressKey(ref), object);
    // held by the first object it references (a test variable by its module)
    if (refs[0] && isHeld(object)) add(held, addressKey(refs[0]), object);
  }
  return { ensure, referrers, held };
}

/** `declaredOf` with each kind's own `references` and `heldByReference`, as a run knows them. */
export function declaredByKind(
  objects: readonly DesiredObject[],
  providers: ReadonlyMap<string, Pick<Provider, 'references' | 'heldByReference'>>,
): Declared {
  return declaredOf(
    objects,
    (object) => providers.get(object.kind)?.references?.(object) ?? [],
    (object) => providers.get(object.kind)?.heldByReference === true,
  );
}

function add(map: Map<string, DesiredObject[]>, key: string, object: DesiredObject): void {
  const list = map.get(key);
  if (list) list.push(object);
  else map.set(key, [object]);
}
