/**
 * How a module is named in converge: in its organization (the scope), a
 * private module is `<name>/<provider>` and a public record
 * `public/<namespace>/<name>/<provider>`; a version adds `/<version>`.
 */
import type { Fields } from '../../reconcile/types.ts';

export interface ModuleName {
  organization: string;
  registry: 'private' | 'public';
  namespace: string;
  name: string;
  provider: string;
}

export function moduleName(parts: Omit<ModuleName, 'organization'>): string {
  return parts.registry === 'public'
    ? `public/${parts.namespace}/${parts.name}/${parts.provider}`
    : `${parts.name}/${parts.provider}`;
}

export function parseModuleName(organization: string, name: string): ModuleName {
  const parts = name.split('/');
  if (parts[0] === 'public' && parts.length === 4) {
    return {
      organization,
      registry: 'public',
      namespace: parts[1] ?? '',
      name: parts[2] ?? '',
      provider: parts[3] ?? '',
    };
  }
  return { organization, registry: 'private', namespace: organization, name: parts[0] ?? '', provider: parts[1] ?? '' };
}

/** The converge name of a module the API lists. */
export function moduleKey(attributes: Fields): string {
  return moduleName({
    registry: attributes['registry-name'] === 'public' ? 'public' : 'private',
    namespace: String(attributes.namespace ?? ''),
    name: String(attributes.name ?? ''),
    provider: String(attributes.provider ?? ''),
  });
}
