import type { HttpClient } from '../../api/types.ts';
import { ConvergeError } from '../../errors.ts';
import type { ProviderContext } from '../../reconcile/provider.ts';

/** The platform API client of a run; the session connects it for every kind that needs it. */
export function platformClient(ctx: ProviderContext): HttpClient {
  const client = ctx.api.platform;
  if (!client) {
    throw new ConvergeError('CONFIG_INVALID', 'no connection to the platform API', {
      hint: 'set CONVERGE_PLATFORM_URL and CONVERGE_PLATFORM_TOKEN, or `platform` in the configuration file',
    });
  }
  return client;
}

/** The API's base path for site administration (the site-admin API; docs/apis.md). */
export const ADMIN_PATH = '/api/v2/admin';

/** DELETE of one member of a collection, by its API id. */
export async function deleteMember(ctx: ProviderContext, collection: string, ref: string): Promise<void> {
  await platformClient(ctx).request({
    method: 'DELETE',
    path: `${collection}/${encodeURIComponent(ref)}`,
    signal: ctx.signal,
  });
}
