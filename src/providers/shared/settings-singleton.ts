/**
 * The shape shared by the site settings kinds (the site-admin API, see
 * docs/apis.md): one document per installation at
 * `/api/v2/admin/<name>-settings`, of type `<name>-settings`, read with GET
 * and changed with PATCH. It always exists, so it is never created nor
 * deleted; a PATCH carries only the given fields, and the API keeps the others.
 */
import { getResource, resourceBody } from '../../api/jsonapi.ts';
import { requireClient } from '../../api/require-client.ts';
import { ConvergeError } from '../../errors.ts';
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
  const notSupported = (what: string) =>
    new ConvergeError('PLAN_INVALID', `${kind} cannot be ${what}: site settings always exist and are only updated`);

  return defineProvider(
    (forms) => ({
      kind,
      cardinality: 'one',
      creatable: false,
      deletePolicy: 'never',
      address: () => ({ kind, name: '' }),

      async list(ctx) {
        const resource = await getResource(requireClient(ctx.api, 'platform'), path, { signal: ctx.signal });
        return [{ kind, address: { kind, name: '' }, ref: resource.id, fields: forms.readable(resource.attributes) }];
      },

      async create() {
        throw notSupported('created');
      },

      async update(ctx, desired, _live, fields) {
        if (Object.keys(fields).length === 0) return;
        await requireClient(ctx.api, 'platform').request({
          method: 'PATCH',
          path,
          body: resourceBody(type, forms.wire(fields, desired.spec)),
          signal: ctx.signal,
        });
      },

      async delete() {
        throw notSupported('deleted');
      },

      toManifest(live) {
        return { kind, metadata: {}, spec: forms.exportSpec(live.fields ?? {}) };
      },
    }),
    config,
  );
}
