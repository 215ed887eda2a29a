/**
 * Keyed child lists (Provider.children): each item of such a list field
 * becomes a desired object of its own (a module's version is planned,
 * shown and applied alone), its address built from the parent's
 * (`childAddress`); the parent keeps its other fields. Pure.
 */
import { addressKey, childAddress } from './address.ts';
import type { Provider } from './provider.ts';
import type { DesiredObject, Fields, Json } from './types.ts';

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
    const spec: Fields = { ...object.spec };
    for (const child of children) delete spec[child.field];
    out.push({ ...object, spec });
    // deleting the parent deletes its children with it: they are not planned one by one
    if (object.ensure === 'absent') continue;
    for (const child of children) out.push(...childObjects(object, child.field, child.key, child.provider.kind));
  }
  return out;
}

function childObjects(parent: DesiredObject, field: string, key: string, kind: string): DesiredObject[] {
  const items = parent.spec[field];
  if (!Array.isArray(items)) return [];
  const parentKey = addressKey(parent.address);
  const secret = parent.secretFields.includes(field);
  return items.flatMap((item, index): DesiredObject[] => {
    if (!isFields(item) || typeof item[key] !== 'string') return [];
    const path = `spec.${field}.${index}`;
    return [
      {
        kind,
        address: childAddress(parent.address, kind, item[key]),
        metadata: parent.metadata,
        ensure: 'present',
        spec: item,
        // a secret list makes each of its items' values secret
        secretFields: secret ? Object.keys(item) : [],
        ...(parent.dir !== undefined && { dir: parent.dir }),
        source: parent.positions[path] ?? parent.source,
        positions: parent.positions,
        parent: parentKey,
      },
    ];
  });
}

function isFields(value: Json): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
