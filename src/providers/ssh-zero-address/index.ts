/**
 * The SSH engine's zero-address list, one per mount (docs/kinds.md,
 * SSHZeroAddress): OTP roles that accept any address. It names roles, so it
 * is written after them; a role that is neither declared nor live is a plan
 * error, because the API refuses the list.
 */
import type { Address } from '../../reconcile/address.ts';
import { defineProvider } from '../shared/define.ts';
import { commaSet } from '../shared/rules.ts';
import { deletePath, readData, secretsPath, writeData } from '../shared/secrets-api.ts';

const kind = 'SSHZeroAddress';
const DEFAULT_MOUNT = 'ssh';

export const sshZeroAddress = defineProvider(
  (forms) => {
    const pathOf = (mount: string) => secretsPath(mount, 'config', 'zeroaddress');
    const address = (mount: string): Address => ({ kind, scope: mount, name: '' });
    const get = async (ctx: Parameters<typeof readData>[0], mount: string) => {
      const data = await readData(ctx, pathOf(mount));
      return data && { kind, address: address(mount), ref: mount, fields: forms.readable(data) };
    };
    const write = async (ctx: Parameters<typeof readData>[0], mount: string, fields: Record<string, unknown>) => {
      await writeData(ctx, pathOf(mount), forms.wire(fields as never, {}));
    };
    return {
      kind,
      api: 'secrets',
      cardinality: 'one-per-scope',
      scoped: true,
      updateStyle: 'replace',
      dependsOn: ['SSHRole'],
      address: (metadata) => address(metadata.mount ?? DEFAULT_MOUNT),
      references: (desired) => {
        const roles = forms.desired(desired.spec).roles;
        const mount = desired.address.scope ?? DEFAULT_MOUNT;
        return Array.isArray(roles) ? roles.map((name) => ({ kind: 'SSHRole', scope: mount, name: String(name) })) : [];
      },

      async list(ctx, mount) {
        const live = await get(ctx, mount);
        return live ? [live] : [];
      },
      get: (ctx, a) => get(ctx, a.scope ?? DEFAULT_MOUNT),
      async create(ctx, desired, fields) {
        await write(ctx, desired.address.scope ?? DEFAULT_MOUNT, fields);
        return undefined;
      },
      async update(ctx, desired, _live, fields) {
        await write(ctx, desired.address.scope ?? DEFAULT_MOUNT, fields);
      },
      async delete(ctx, live) {
        await deletePath(ctx, pathOf(live.address.scope ?? DEFAULT_MOUNT));
      },
      toManifest(live) {
        return {
          kind,
          metadata: { mount: live.address.scope ?? DEFAULT_MOUNT },
          spec: forms.exportSpec(live.fields ?? {}),
        };
      },
    };
  },
  { fields: { roles: commaSet() } },
);
