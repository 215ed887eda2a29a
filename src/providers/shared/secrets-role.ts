/**
 * The shape shared by the secrets engines' roles (SSH roles, and the LDAP
 * engine's roles and library sets): named objects at
 * `/v1/<mount>/<collection>/<name>`, listed by name only (so each is read
 * with one GET), written with a POST that rebuilds the object from its body
 * (`replace`: every desired field is sent), and deleted with DELETE. The
 * list unit is the mount.
 */
import type { Address } from '../../reconcile/address.ts';
import type { Provider, ProviderContext } from '../../reconcile/provider.ts';
import type { DesiredObject, LiveObject } from '../../reconcile/types.ts';
import type { ProviderShape } from './define.ts';
import { defineProvider } from './define.ts';
import type { CanonicalForms, FieldsConfig } from './fields.ts';
import { deletePath, listNames, readData, secretsPath, writeData } from './secrets-api.ts';

export interface SecretsRoleConfig extends FieldsConfig {
  kind: string;
  /** The mount when the manifest names none (the schema fills it too). */
  defaultMount: string;
  /** The collection under the mount: `roles` for `/v1/ssh/roles/:name`. */
  collection: string;
  /**
   * Names may hold `/` (LDAP roles): a list answers one level, folders end
   * in `/`, and listing walks them to the leaves.
   */
  hierarchical?: boolean;
  /** Anything else the kind says itself (offline rules, plan notes). */
  extra?: (forms: CanonicalForms) => Partial<ProviderShape>;
}

/** Every name under a hierarchical collection: one list per level, the folders of a level listed together. */
async function walk(ctx: ProviderContext, mount: string, collection: string): Promise<string[]> {
  const names: string[] = [];
  let folders = [''];
  while (folders.length > 0) {
    const levels = await Promise.all(
      folders.map(async (folder) => {
        // `apps/` ends the path in `/`: the list of that level
        const keys = await listNames(ctx, mount, collection, folder);
        return keys.map((key) => `${folder}${key}`);
      }),
    );
    const found = levels.flat();
    names.push(...found.filter((name) => !name.endsWith('/')));
    folders = found.filter((name) => name.endsWith('/'));
  }
  return names;
}

export function secretsRoleProvider(config: SecretsRoleConfig): Provider {
  const { kind, collection } = config;
  const address = (mount: string, name: string): Address => ({ kind, scope: mount, name });
  const mountOf = (a: Address) => a.scope ?? config.defaultMount;
  const pathOf = (a: Address) => secretsPath(mountOf(a), collection, a.name);

  return defineProvider((forms) => {
    const toLive = (a: Address, data: Record<string, unknown> | undefined): LiveObject | undefined =>
      data && { kind, address: a, ref: a.name, fields: forms.readable(data as LiveObject['fields'] & object) };
    const get = async (ctx: ProviderContext, a: Address) =>
      toLive(a, await readData(ctx, mountOf(a), collection, a.name));
    const write = async (ctx: ProviderContext, desired: DesiredObject, fields: LiveObject['fields']) => {
      await writeData(ctx, pathOf(desired.address), forms.wire(fields ?? {}, desired.spec));
    };
    return {
      kind,
      api: 'secrets',
      scoped: true,
      // `mount/name`; a hierarchical name holds `/`
      identity: { scope: 'mount', name: [['name']], slashInName: config.hierarchical === true },
      updateStyle: 'replace',
      address: (metadata) => address(metadata.mount ?? config.defaultMount, metadata.name ?? ''),

      // names only: the engine reads each one that it needs with `read`
      async list(ctx, unit) {
        const mount = unit.scope ?? config.defaultMount;
        const names = await (config.hierarchical ? walk(ctx, mount, collection) : listNames(ctx, mount, collection));
        return names.map((name) => ({ kind, address: address(mount, name), ref: name }));
      },
      read: (ctx, live) => get(ctx, live.address),
      get,

      async create(ctx, desired, fields) {
        await write(ctx, desired, fields);
        return undefined;
      },
      async update(ctx, desired, _live, fields) {
        await write(ctx, desired, fields);
      },
      async delete(ctx, live) {
        await deletePath(ctx, pathOf(live.address));
      },

      toManifest(live) {
        return {
          kind,
          metadata: { mount: mountOf(live.address), name: live.address.name },
          spec: forms.exportSpec(live.fields ?? {}),
        };
      },
      ...config.extra?.(forms),
    };
  }, config);
}
