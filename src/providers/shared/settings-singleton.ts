/**
 * The shape shared by the site settings kinds (the site-admin API, see
 * docs/apis.md): one document per installation at
 * `/api/v2/admin/<name>-settings`, of type `<name>-settings`, read with GET
 * and changed with PATCH. It always exists, so it has no create nor delete
 * (a manifest that deletes one is a plan problem); a PATCH carries only the
 * given fields, and the API keeps the others.
 */
import { getResource, resourceBody } from '../../api/jsonapi.ts';
import type { Provider } from '../../reconcile/provider.ts';
import { defineProvider } from './define.ts';
import type { FieldsConfig } from './fields.ts';
import { ADMIN_PATH } from './platform.ts';

export interface SettingsConfig extends FieldsConfig {
  kind: string;
  /** `general` for `/api/v2/admin/general-settings` (type `general-settings`). */
  name: string;
}

export function singletonSettingsProvider(config: SettingsConfig): Provider {
  const { kind } = config;
  const type = `${config.name}-settings`;
  const path = `${ADMIN_PATH}/${type}`;

  return defineProvider(
    (forms) => ({
      kind,
      cardinality: 'one',
      address: () => ({ kind, name: '' }),

      async list(ctx) {
        const resource = await getResource(ctx.client, path, { signal: ctx.signal });
        return [{ kind, address: { kind, name: '' }, ref: resource.id, fields: forms.readable(resource.attributes) }];
      },

      async update(ctx, desired, _live, fields) {
        if (Object.keys(fields).length === 0) return;
        await ctx.client.request({
          method: 'PATCH',
          path,
          body: resourceBody(type, forms.wire(fields, desired.spec)),
          signal: ctx.signal,
        });
      },

      toManifest(live) {
        return { kind, metadata: {}, spec: forms.exportSpec(live.fields ?? {}) };
      },
    }),
    config,
  );
}
