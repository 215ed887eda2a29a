/**
 * The shape of a JSON:API collection of named objects (tool versions and
 * policy-engine versions; see docs/apis.md): listed page by page, created
 * with POST, changed with PATCH /:id, removed with DELETE /:id, and found one
 * at a time with an exact-match filter on the naming attribute where the API
 * has one. Where the collection lives is a function of the list unit, so
 * scoped collections (an organization's, a module's) use the same shape.
 */
import { listResources, resourceBody, resourceOf } from '../../api/jsonapi.ts';
import { requireClient } from '../../api/require-client.ts';
import type { Resource } from '../../api/types.ts';
import type { Address } from '../../reconcile/address.ts';
import type { Provider, ProviderContext } from '../../reconcile/provider.ts';
import type { LiveObject } from '../../reconcile/types.ts';
import { defineProvider } from './define.ts';
import type { FieldsConfig } from './fields.ts';
import { deleteMember } from './platform.ts';

export interface CollectionConfig extends FieldsConfig {
  kind: string;
  /** The JSON:API type: `tool-versions`. */
  type: string;
  /** The collection's path for a list unit: `() => '/api/v2/admin/tool-versions'`. */
  path: (unit: string) => string;
  /** The attribute that names an object, taken from `metadata.name`. */
  key: string;
  /** The API filters the collection by the naming attribute (`filter[version]`, exact match): one request finds one object. */
  filterByKey?: boolean;
}

export function jsonApiCollectionProvider(config: CollectionConfig): Provider {
  const { kind, type, key } = config;
  const address = (name: string): Address => ({ kind, name });
  // the collection of an object: its list unit is its scope ('' for a global kind)
  const pathOf = (object: { address: Address }) => config.path(object.address.scope ?? '');

  return defineProvider((forms) => {
    const toLive = (resource: Resource): LiveObject | undefined => {
      const name = resource.attributes[key];
      if (typeof name !== 'string') return undefined;
      return { kind, address: address(name), ref: resource.id, fields: forms.readable(resource.attributes) };
    };
    const list = async (ctx: ProviderContext, unit: string, query: Record<string, string> = {}) => {
      const resources = await listResources(requireClient(ctx.api, 'platform'), config.path(unit), query, {
        signal: ctx.signal,
      });
      return resources.map(toLive).filter((live) => live !== undefined);
    };
    return {
      kind,
      address: (metadata) => address(metadata.name ?? ''),
      list: (ctx, unit) => list(ctx, unit),
      ...(config.filterByKey && {
        async get(ctx, wanted) {
          const found = await list(ctx, wanted.scope ?? '', { [`filter[${key}]`]: wanted.name });
          return found.find((live) => live.address.name === wanted.name);
        },
      }),

      // errors propagate: when the answer is lost the engine reads back before deciding
      async create(ctx, desired, fields) {
        const path = pathOf(desired);
        const response = await requireClient(ctx.api, 'platform').request({
          method: 'POST',
          path,
          body: resourceBody(type, { [key]: desired.address.name, ...forms.wire(fields, desired.spec) }),
          signal: ctx.signal,
        });
        return toLive(resourceOf(response.body, `POST ${path}`));
      },

      async update(ctx, desired, live, fields) {
        if (Object.keys(fields).length === 0) return;
        await requireClient(ctx.api, 'platform').request({
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
        return { kind, metadata: { name: live.address.name }, spec: forms.exportSpec(live.fields ?? {}) };
      },
    };
  }, config);
}
