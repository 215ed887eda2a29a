import type { ProviderContext } from '../../reconcile/provider.ts';

/** The API's base path for site administration (the site-admin API; docs/apis.md). */
export const ADMIN_PATH = '/api/v2/admin';

/** DELETE of one member of a collection, by its API id. */
export async function deleteMember(ctx: ProviderContext, collection: string, ref: string): Promise<void> {
  await ctx.client.request({
    method: 'DELETE',
    path: `${collection}/${encodeURIComponent(ref)}`,
    signal: ctx.signal,
  });
}
