/**
 * Administrator rights and suspension of existing users (the site-admin API;
 * docs/apis.md). The API does not create users, and the flags are changed
 * through action endpoints rather than PATCH; a user is deleted only by
 * `ensure: absent`.
 */
import { listResources } from '../../api/jsonapi.ts';
import type { LiveObject } from '../../reconcile/types.ts';
import { defineProvider } from '../shared/define.ts';
import { ADMIN_PATH, deleteMember } from '../shared/platform.ts';
import { flag } from '../shared/rules.ts';
import { userActions } from './actions.ts';

const kind = 'AdminUser';
const path = `${ADMIN_PATH}/users`;

export const adminUser = defineProvider(
  (forms) => ({
    kind,
    // no create: users sign up (or are provisioned by SSO); a declared one that does not exist is a plan problem
    deletePolicy: 'absent-only',
    address: (metadata) => ({ kind, name: metadata.name ?? '' }),

    async list(ctx) {
      const users = await listResources(ctx.client, path, {}, { signal: ctx.signal });
      return users.flatMap((user): LiveObject[] => {
        const username = user.attributes.username;
        return typeof username === 'string'
          ? [{ kind, address: { kind, name: username }, ref: user.id, fields: { ...user.attributes } }]
          : [];
      });
    },

    // one action per changed flag, in order: they are not repeatable, so none is sent twice
    async update(ctx, _desired, live, fields) {
      const client = ctx.client;
      const current = forms.live(live.fields ?? {});
      for (const action of userActions(forms.desired(fields), current)) {
        await client.request({
          method: 'POST',
          path: `${path}/${encodeURIComponent(live.ref)}/actions/${action}`,
          signal: ctx.signal,
        });
      }
    },

    async delete(ctx, live) {
      await deleteMember(ctx, path, live.ref);
    },

    toManifest(live) {
      return { kind, metadata: { name: live.address.name }, spec: forms.exportSpec(live.fields ?? {}) };
    },
  }),
  // no defaults: a flag the manifest leaves out is not managed
  { fields: { 'is-admin': flag(), 'is-suspended': flag() } },
);
