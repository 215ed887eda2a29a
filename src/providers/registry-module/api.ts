/**
 * The registry's management API as the module kinds use it (docs/apis.md):
 * an organization's modules are listed page by page once per run, and that
 * one list serves the modules, their versions (`version-statuses`) and the
 * units of their test variables, so a plan reads each organization's
 * registry at the lower bound.
 */
import { listResources } from '../../api/jsonapi.ts';
import type { Resource } from '../../api/types.ts';
import type { ProviderContext } from '../../reconcile/provider.ts';

export const orgPath = (organization: string) => `/api/v2/organizations/${encodeURIComponent(organization)}`;

/** The module of a module's tests API: `/organizations/<org>/tests/registry-modules/private/<ns>/<name>/<provider>`. */
export function testsPath(organization: string, name: string, provider: string): string {
  return `${orgPath(organization)}/tests/registry-modules/private/${[organization, name, provider].map(encodeURIComponent).join('/')}`;
}

/**
 * The organization's modules, read once per run whoever asks first (the
 * engine's shared read: src/reconcile/services.ts).
 */
export function organizationModules(ctx: ProviderContext, organization: string): Promise<Resource[]> {
  const path = `${orgPath(organization)}/registry-modules`;
  return ctx.shared(`GET ${path}`, () => listResources(ctx.client, path, {}, { signal: ctx.signal }));
}
