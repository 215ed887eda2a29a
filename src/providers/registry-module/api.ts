/**
 * The registry's management API as the module kinds use it (docs/apis.md):
 * an organization's modules are listed page by page once per run, and that
 * one list serves both the modules and their versions (`version-statuses`),
 * so a plan reads each organization's registry at the lower bound.
 */
import { listResources } from '../../api/jsonapi.ts';
import { requireClient } from '../../api/require-client.ts';
import type { Resource } from '../../api/types.ts';
import type { ProviderContext } from '../../reconcile/provider.ts';

export const orgPath = (organization: string) => `/api/v2/organizations/${encodeURIComponent(organization)}`;

/** `/api/v2/organizations/<org>/registry-modules/<registry>/<namespace>/<name>/<provider>`. */
export function modulePath(
  organization: string,
  registry: string,
  namespace: string,
  name: string,
  provider: string,
): string {
  return `${orgPath(organization)}/registry-modules/${[registry, namespace, name, provider].map(encodeURIComponent).join('/')}`;
}

/** The module of a module's tests API: `/organizations/<org>/tests/registry-modules/private/<ns>/<name>/<provider>`. */
export function testsPath(organization: string, name: string, provider: string): string {
  return `${orgPath(organization)}/tests/registry-modules/private/${[organization, name, provider].map(encodeURIComponent).join('/')}`;
}

/** What a run (the context) keeps by name, made when first asked for: gone with the run. */
export function perRun<T>(kept: WeakMap<ProviderContext, Map<string, T>>, ctx: ProviderContext): Map<string, T> {
  let byName = kept.get(ctx);
  if (!byName) {
    byName = new Map();
    kept.set(ctx, byName);
  }
  return byName;
}

const runs = new WeakMap<ProviderContext, Map<string, Promise<Resource[]>>>();

/** The organization's modules, read once per run (the context) whoever asks first. */
export function organizationModules(ctx: ProviderContext, organization: string): Promise<Resource[]> {
  const cache = perRun(runs, ctx);
  let listed = cache.get(organization);
  if (!listed) {
    listed = listResources(
      requireClient(ctx.api, 'platform'),
      `${orgPath(organization)}/registry-modules`,
      {},
      { signal: ctx.signal },
    );
    cache.set(organization, listed);
    // a failed read is not remembered: the next caller tries again
    listed.catch(() => cache.delete(organization));
  }
  return listed;
}
