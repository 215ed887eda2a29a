/**
 * A module's identity (docs/architecture.md, "Identity parts"): in its
 * organization (the scope), a private module is `name/provider` and a public
 * record `public/namespace/name/provider`. Its versions and test variables
 * are its children: their addresses are built from the module's
 * (`childAddress`) and give it back (`parentOf`). The string forms are
 * src/reconcile/address.ts's to write and read; this file only says which
 * parts there are.
 */
import {
  type Address,
  childIdentity,
  formatIdentity,
  type Identity,
  keyOf,
  parentOf,
  parseIdentity,
} from '../../reconcile/address.ts';
import type { Fields } from '../../reconcile/types.ts';
import { orgPath } from './api.ts';

export const MODULE_KIND = 'RegistryModule';

export const MODULE_IDENTITY: Identity = {
  scope: 'organization',
  name: [
    ['name', 'provider'],
    ['registry', 'namespace', 'name', 'provider'],
  ],
};

/** A version is its module and its version number. */
export const VERSION_IDENTITY: Identity = childIdentity(MODULE_IDENTITY, 'version');

export interface ModuleName {
  organization: string;
  registry: 'private' | 'public';
  namespace: string;
  name: string;
  provider: string;
}

/** A module's address from its parts; a private module's namespace is its organization, and not written. */
export function moduleAddress(module: ModuleName): Address {
  const { organization, name, provider } = module;
  return formatIdentity(
    MODULE_KIND,
    MODULE_IDENTITY,
    module.registry === 'public'
      ? { organization, registry: 'public', namespace: module.namespace, name, provider }
      : { organization, name, provider },
  );
}

/** The parts of a module's address. */
export function moduleParts(address: Address): ModuleName {
  const parts = parseIdentity(MODULE_IDENTITY, address);
  const organization = parts.organization ?? '';
  const registry = parts.registry === 'public' ? 'public' : 'private';
  return {
    organization,
    registry,
    namespace: registry === 'public' ? (parts.namespace ?? '') : organization,
    name: parts.name ?? '',
    provider: parts.provider ?? '',
  };
}

/** The address of a module the API lists in an organization. */
export function listedModule(organization: string, attributes: Fields): Address {
  return moduleAddress({
    organization,
    registry: attributes['registry-name'] === 'public' ? 'public' : 'private',
    namespace: String(attributes.namespace ?? ''),
    name: String(attributes.name ?? ''),
    provider: String(attributes.provider ?? ''),
  });
}

/** `/api/v2/organizations/<org>/registry-modules/<registry>/<namespace>/<name>/<provider>` of a module's address. */
export function modulePathOf(module: Address): string {
  const { organization, registry, namespace, name, provider } = moduleParts(module);
  const parts = [registry, namespace, name, provider].map(encodeURIComponent);
  return `${orgPath(organization)}/registry-modules/${parts.join('/')}`;
}

/** The module a version (or a test variable) belongs to. */
export function moduleOf(child: Address): Address {
  return parentOf(child, MODULE_KIND);
}

/** A version's number. */
export const versionOf = keyOf;
