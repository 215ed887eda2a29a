/**
 * The shape shared by a secrets engine's one-per-mount objects (an SSH CA,
 * the SSH zero-address list, an LDAP engine's config): one path under the
 * mount, read with GET (404: none), written with POST, removed with DELETE.
 * The mount is the object's scope and its list unit.
 */
import type { Address } from '../../reconcile/address.ts';
import type { Provider, ProviderContext, UpdateStyle } from '../../reconcile/provider.ts';
import type { DesiredObject, Fields } from '../../reconcile/types.ts';
import { defineProvider, type ProviderShape } from './define.ts';
import type { CanonicalForms, FieldsConfig } from './fields.ts';
import { deletePath, readData, secretsPath, writeData } from './secrets-api.ts';

export interface MountSingletonConfig extends FieldsConfig {
  kind: string;
  /** The mount when the manifest names none (the schema fills it too). */
  defaultMount: string;
  /** The object's path under the mount: `['config', 'ca']`. */
  path: readonly string[];
  /**
   * `patch` when a POST updates only the fields it sends (an LDAP config), `replace` when it
   * rebuilds; `never` when an existing object is never written again (an SSH CA): no update.
   */
  updateStyle: UpdateStyle | 'never';
  /** What else the kind says itself (offline rules, references, consent to replace). */
  extra?: (forms: CanonicalForms) => Partial<ProviderShape>;
}

export function mountSingletonProvider(config: MountSingletonConfig): Provider {
  const { kind, defaultMount } = config;
  const address = (mount: string): Address => ({ kind, scope: mount, name: '' });
  const mountOf = (a: Address) => a.scope ?? defaultMount;
  const pathOf = (mount: string) => secretsPath(mount, ...config.path);

  return defineProvider((forms) => {
    const live = (mount: string, data: Fields) => ({
      kind,
      address: address(mount),
      ref: mount,
      fields: forms.readable(data),
    });
    const get = async (ctx: ProviderContext, mount: string) => {
      const data = await readData(ctx, mount, ...config.path);
      return data && live(mount, data);
    };
    const write = async (ctx: ProviderContext, desired: DesiredObject, fields: Fields) =>
      writeData(ctx, pathOf(mountOf(desired.address)), forms.wire(fields, desired.spec));
    return {
      kind,
      api: 'secrets',
      cardinality: 'one-per-scope',
      scoped: true,
      identity: { scope: 'mount', name: [[]] },
      address: (metadata) => address(metadata.mount ?? defaultMount),
      async list(ctx, unit) {
        const found = await get(ctx, unit.scope ?? defaultMount);
        return found ? [found] : [];
      },
      get: (ctx, a) => get(ctx, mountOf(a)),
      // an answer with data (a generated CA's public key) is the object as it now is
      async create(ctx, desired, fields) {
        const data = await write(ctx, desired, fields);
        return data && live(mountOf(desired.address), data);
      },
      ...(config.updateStyle !== 'never' && {
        updateStyle: config.updateStyle,
        async update(ctx: ProviderContext, desired: DesiredObject, _live: unknown, fields: Fields) {
          if (Object.keys(fields).length > 0) await write(ctx, desired, fields);
        },
      }),
      async delete(ctx, object) {
        await deletePath(ctx, pathOf(mountOf(object.address)));
      },
      toManifest(object) {
        return { kind, metadata: { mount: mountOf(object.address) }, spec: forms.exportSpec(object.fields ?? {}) };
      },
      ...config.extra?.(forms),
    };
  }, config);
}
