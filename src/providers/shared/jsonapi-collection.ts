/**
 * The shape shared by tool versions and policy-engine versions (spec:
 * site-admin-api): a JSON:API collection under `/api/v2/admin/<type>`, keyed
 * by the `version` attribute, with POST to create, PATCH /:id to change and
 * DELETE /:id to remove.
 */
import { listResources, resourceBody, resourceOf } from '../../api/jsonapi.ts';
import type { Resource } from '../../api/types.ts';
import type { Provider } from '../../reconcile/provider.ts';
import type { LiveObject } from '../../reconcile/types.ts';
import { canonicalForms, type FieldsConfig } from './fields.ts';
import { ADMIN_PATH, deleteMember, platformClient } from './platform.ts';

export interface CollectionConfig extends FieldsConfig {
  kind: string;
  /** The JSON:API type, which is also the collection's path segment: `tool-versions`. */
  type: string;
  /** The attribute that identifies an object, taken from `metadata.name`. */
  key: string;
}

export function jsonApiCollectionProvider(config: CollectionConfig): Provider {
  const { kind, type, key } = config;
  const forms = canonicalForms(config);
  const path = `${ADMIN_PATH}/${type}`;

  const toLive = (resource: Resource): LiveObject | undefined => {
    const id = resource.attributes[key];
    if (typeof id !== 'string') return undefined;
    return { kind, id, ref: resource.id, fields: forms.readable(resource.attributes) };
  };

  return {
    kind,
    api: 'platform',
    singleton: false,
    creatable: true,
    deletePolicy: 'prunable',
    dependsOn: [],
    writeOnly: forms.writeOnly,
    exportedWriteOnly: forms.exportedWriteOnly,
    immutable: [],
    identity: (metadata) => metadata.name ?? '',
    scope: () => '',
    canonicalDesired: forms.desired,
    canonicalLive: forms.live,
    present: forms.present,

    async list(ctx) {
      const resources = await listResources(platformClient(ctx), path, {}, { signal: ctx.signal });
      return resources.map(toLive).filter((live) => live !== undefined);
    },

    // errors propagate: when the answer is lost the engine lists again before deciding
    async create(ctx, desired, fields) {
      const response = await platformClient(ctx).request({
        method: 'POST',
        path,
        body: resourceBody(type, { [key]: desired.id, ...forms.wire(fields, desired.spec) }),
        signal: ctx.signal,
      });
      return toLive(resourceOf(response.body, `POST ${path}`));
    },

    async update(ctx, desired, live, fields) {
      if (Object.keys(fields).length === 0) return;
      await platformClient(ctx).request({
        method: 'PATCH',
        path: `${path}/${encodeURIComponent(live.ref)}`,
        body: resourceBody(type, forms.wire(fields, desired.spec), live.ref),
        signal: ctx.signal,
      });
    },

    async delete(ctx, live) {
      await deleteMember(ctx, path, live.ref);
    },

    toManifest(live) {
      return { kind, metadata: { name: live.id }, spec: forms.exportSpec(live.fields ?? {}) };
    },
  };
}
