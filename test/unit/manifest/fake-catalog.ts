import type { KindCatalog } from '../../../src/manifest/catalog.ts';
import type { Metadata } from '../../../src/reconcile/types.ts';

const SINGLETONS = [
  'GeneralSettings',
  'CostEstimationSettings',
  'SAMLSettings',
  'SMTPSettings',
  'SMSSettings',
  'CustomizationSettings',
];
const NAMED = ['ToolVersion', 'PolicyVersion', 'AdminUser'];
/** Scoped by organization. */
const IN_ORGANIZATION = ['RegistryModule', 'ModuleTestVariable'];
/** Scoped by mount: one per mount, or named within one. */
const PER_MOUNT = ['SSHCertificateAuthority', 'SSHZeroAddress', 'LDAPConfig'];
const NAMED_IN_MOUNT = ['SSHRole', 'LDAPStaticRole', 'LDAPDynamicRole', 'LDAPLibrarySet'];
const defaultMount = (kind: string) => (kind.startsWith('LDAP') ? 'ldap' : 'ssh');

/** The kinds, as the provider registry describes them, without the providers. */
export const fakeCatalog: KindCatalog = {
  kinds: [...SINGLETONS, ...NAMED, ...PER_MOUNT, ...NAMED_IN_MOUNT, ...IN_ORGANIZATION],
  address: (kind: string, metadata: Metadata) => {
    if (PER_MOUNT.includes(kind)) return { kind, scope: metadata.mount ?? defaultMount(kind), name: '' };
    if (NAMED_IN_MOUNT.includes(kind))
      return { kind, scope: metadata.mount ?? defaultMount(kind), name: metadata.name ?? '' };
    if (IN_ORGANIZATION.includes(kind)) {
      const name =
        kind === 'RegistryModule' ? `${metadata.name}/${metadata.provider}` : `${metadata.module}/${metadata.name}`;
      return { kind, scope: metadata.organization ?? '', name };
    }
    return { kind, name: SINGLETONS.includes(kind) ? '' : (metadata.name ?? '') };
  },
  listKeys: (kind: string) => (kind === 'RegistryModule' ? { versions: 'version' } : undefined),
};
