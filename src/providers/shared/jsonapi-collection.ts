/**
 * The shape of a JSON:API collection of named objects (tool versions and
 * policy-engine versions, a module's test variables; see docs/apis.md):
 * listed page by page (or in one answer where the API does not page),
 * created with POST, changed with PATCH /:id, removed with DELETE /:id, and
 * found one at a time with an exact-match filter on the naming attribute
 * where the API has one. A collection either stands alone (a global kind,
 * named by its key) or lives under a parent object (a module's variables):
 * then its objects' addresses are built from the parent's, the parent is
 * their list unit and what they reference, and the collection's path is a
 * function of it.
 */
import { listResources, listUnpaged, resourceBody, resourceOf } from '../../api/jsonapi.ts';
import type { Resource } from '../../api/types.ts';
import {
  type Address,
  childAddress,
  childIdentity,
  type Identity,
  keyOf,
  type ListUnit,
  parentOf,
  sameAddress,
  scopeUnit,
} from '../../reconcile/address.ts';
import type { Provider, ProviderContext } from '../../reconcile/provider.ts';
import type { LiveObject, Metadata } from '../../reconcile/types.ts';
import { defineProvider, type ProviderShape } from './define.ts';
import type { FieldsConfig } from './fields.ts';
import { deleteMember } from './platform.ts';

interface CollectionShape extends FieldsConfig {
  kind: string;
  /** The JSON:API type: `tool-versions`. */
  type: string;
  /** The attribute that names an object, taken from `metadata.name`. */
  key: string;
  /** The API filters the collection by the naming attribute (`filter[version]`, exact match): one request finds one object. */
  filterByKey?: boolean;
  /**
   * The collection is one answer, without page parameters, and a 404 for it means no objects (a
   * module's test variables: the module has none, or does not exist yet).
   */
  unpaged?: boolean;
}

/** A collection that stands alone, at its own path, or one under a parent object, at a path of it. */
export type CollectionConfig = CollectionShape &
  (
    | {
        /** The collection's path for a list unit: `() => '/api/v2/admin/tool-versions'`. */
        path: (unit: ListUnit) => string;
        parent?: undefined;
      }
    | {
        /** The objects live under a parent object, which is their scope, list unit and reference. */
        parent: ParentConfig;
        path?: undefined;
      }
  );

export interface ParentConfig {
  kind: string;
  identity: Identity;
  /** The collection's path under one parent. */
  path: (parent: Address) => string;
  /** The parent's address from an object's metadata. */
  address: (metadata: Metadata) => Address;
  /** The parent's metadata fields, for export. */
  metadata: (parent: Address) => Metadata;
  /** The parents in a scope that can hold objects (for --prune and export). */
  inScope: (ctx: ProviderContext, scope: string) => Promise<Address[]>;
}

export function jsonApiCollectionProvider(config: CollectionConfig): Provider {
  const { kind, type, key, parent } = config;
  const unitOf = (address: Address): ListUnit =>
    parent ? { scope: address.scope ?? '', parent: parentOf(address, parent.kind) } : scopeUnit(address.scope);
  const addressIn = (unit: ListUnit, name: string): Address =>
    unit.parent ? childAddress(unit.parent, kind, name) : { kind, name };
  // the value of the naming attribute: the whole name, or the key under the parent
  const nameOf = (address: Address) => (parent ? keyOf(address) : address.name);
  const collectionPath = (unit: ListUnit): string => {
    if (!parent) return config.path(unit);
    // the engine lists a child kind by the units its listUnit and listUnits give, each with its parent
    if (!unit.parent) throw new Error(`${kind}: a list unit without its ${parent.kind}`);
    return parent.path(unit.parent);
  };
  const pathOf = (object: { address: Address }) => collectionPath(unitOf(object.address));

  return defineProvider((forms) => {
    const toLive = (unit: ListUnit, resource: Resource): LiveObject | undefined => {
      const name = resource.attributes[key];
      if (typeof name !== 'string') return undefined;
      return { kind, address: addressIn(unit, name), ref: resource.id, fields: forms.readable(resource.attributes) };
    };
    const list = async (ctx: ProviderContext, unit: ListUnit, query: Record<string, string> = {}) => {
      const path = collectionPath(unit);
      const resources = config.unpaged
        ? await listUnpaged(ctx.client, path, { signal: ctx.signal })
        : await listResources(ctx.client, path, query, { signal: ctx.signal });
      return resources.map((resource) => toLive(unit, resource)).filter((live) => live !== undefined);
    };
    const shape: ProviderShape = {
      kind,
      address: (metadata) =>
        parent
          ? childAddress(parent.address(metadata), kind, metadata.name ?? '')
          : { kind, name: metadata.name ?? '' },
      list: (ctx, unit) => list(ctx, unit),
      ...(config.filterByKey && {
        async get(ctx, wanted) {
          const found = await list(ctx, unitOf(wanted), { [`filter[${key}]`]: nameOf(wanted) });
          return found.find((live) => sameAddress(live.address, wanted));
        },
      }),
      ...(parent && {
        scoped: true,
        dependsOn: [parent.kind],
        identity: childIdentity(parent.identity, 'key'),
        listUnit: unitOf,
        async listUnits(ctx, scope) {
          return (await parent.inScope(ctx, scope)).map((p) => ({ scope, parent: p }));
        },
        references: (desired) => [parentOf(desired.address, parent.kind)],
        // its parent holds it: the API deletes it with its parent (a module's test variables)
        heldByReference: true,
      }),

      // errors propagate: when the answer is lost the engine reads back before deciding
      async create(ctx, desired, fields) {
        const path = pathOf(desired);
        const response = await ctx.client.request({
          method: 'POST',
          path,
          body: resourceBody(type, { [key]: nameOf(desired.address), ...forms.wire(fields, desired.spec) }),
          signal: ctx.signal,
        });
        return toLive(unitOf(desired.address), resourceOf(response.body, `POST ${path}`));
      },

      async update(ctx, desired, live, fields) {
        if (Object.keys(fields).length === 0) return;
        await ctx.client.request({
          method: 'PATCH',
          path: `${pathOf(live)}/${encodeURIComponent(live.ref)}`,
          body: resourceBody(type, forms.wire(fields, desired.spec), live.ref),
          signal: ctx.signal,
        });
      },

      async delete(ctx, live) {
        await deleteMember(ctx, pathOf(live), live.ref);
      },

      toManifest(live) {
        const owner = parent?.metadata(parentOf(live.address, parent.kind)) ?? {};
        return { kind, metadata: { ...owner, name: nameOf(live.address) }, spec: forms.exportSpec(live.fields ?? {}) };
      },
    };
    return shape;
  }, config);
}
