/**
 * Where each changed field's desired value was set: the position of its value in the manifests
 * (after overlays, in the patch that set it; docs/environments.md, "Overlays"), or none for a
 * default the manifest does not write. Added to a plan only for reports (`plan --json`,
 * `plan --show-sources`): the planner stays free of positions, which are worked out only when
 * read (src/manifest/documents.ts), and a saved plan never holds them, so a manifest whose lines
 * moved does not make a reviewed plan look stale. Pure.
 */
import { addressKey } from './address.ts';
import { childItems } from './children.ts';
import type { Provider } from './provider.ts';
import type { DesiredObject, FieldChange, Plan, Position } from './types.ts';

/** Each object (and each item of a keyed child list) by its key: the object and the path of its spec. */
interface Place {
  object: DesiredObject;
  prefix: string;
}

export function withSources(
  plan: Plan,
  desired: readonly DesiredObject[],
  providers: ReadonlyMap<string, Provider>,
): Plan {
  const places = placesOf(desired, providers);
  const actions = plan.actions.map((action) => {
    const place = places.get(action.key);
    if (!place || action.changes.length === 0) return action;
    return { ...action, changes: action.changes.map((change) => sourced(change, place)) };
  });
  return { ...plan, actions };
}

function sourced(change: FieldChange, place: Place): FieldChange {
  const path = `${place.prefix}.${change.path}`;
  const positions = place.object.positions;
  if (!Object.hasOwn(positions, path)) return change;
  const { file, line, col } = positions[path] as Position;
  return { ...change, source: { file, line, col } };
}

function placesOf(desired: readonly DesiredObject[], providers: ReadonlyMap<string, Provider>): Map<string, Place> {
  const places = new Map<string, Place>();
  for (const object of desired) {
    places.set(addressKey(object.address), { object, prefix: 'spec' });
    for (const child of providers.get(object.kind)?.children ?? []) {
      for (const { address, path } of childItems(object, child)) {
        places.set(addressKey(address), { object, prefix: path });
      }
    }
  }
  return places;
}
