/**
 * The provider registry: one line per kind. The manifest loader sees it only
 * through `catalog`, so it never depends on providers.
 */
import type { KindCatalog } from '../manifest/catalog.ts';
import type { Provider } from '../reconcile/provider.ts';
import { adminUser } from './admin-user/index.ts';
import { costEstimationSettings } from './cost-estimation-settings/index.ts';
import { customizationSettings } from './customization-settings/index.ts';
import { generalSettings } from './general-settings/index.ts';
import { ldapConfig } from './ldap-config/index.ts';
import { ldapDynamicRole } from './ldap-dynamic-role/index.ts';
import { ldapLibrarySet } from './ldap-library-set/index.ts';
import { ldapStaticRole } from './ldap-static-role/index.ts';
import { moduleTestVariable } from './module-test-variable/index.ts';
import { policyVersion } from './policy-version/index.ts';
import { registryModule } from './registry-module/index.ts';
import { samlSettings } from './saml-settings/index.ts';
import { smsSettings } from './sms-settings/index.ts';
import { smtpSettings } from './smtp-settings/index.ts';
import { sshCertificateAuthority } from './ssh-certificate-authority/index.ts';
import { sshRole } from './ssh-role/index.ts';
import { sshZeroAddress } from './ssh-zero-address/index.ts';
import { toolVersion } from './tool-version/index.ts';

export const providers: readonly Provider[] = [
  generalSettings,
  costEstimationSettings,
  samlSettings,
  smtpSettings,
  smsSettings,
  customizationSettings,
  toolVersion,
  policyVersion,
  adminUser,
  registryModule,
  moduleTestVariable,
  sshRole,
  sshCertificateAuthority,
  sshZeroAddress,
  ldapConfig,
  ldapStaticRole,
  ldapDynamicRole,
  ldapLibrarySet,
];

/** The providers by kind, those of keyed child lists (a module's versions) included. */
export const providerMap: ReadonlyMap<string, Provider> = new Map(
  providers.flatMap((p) => [p, ...(p.children ?? []).map((c) => c.provider)]).map((p) => [p.kind, p]),
);

export function providerFor(kind: string): Provider | undefined {
  return providerMap.get(kind);
}

export const catalog: KindCatalog = {
  kinds: providers.map((p) => p.kind),
  address(kind, metadata) {
    const provider = providerMap.get(kind);
    if (!provider) throw new Error(`no provider for kind ${kind}`);
    return provider.address(metadata);
  },
  fieldPaths: (kind) => providerMap.get(kind)?.fieldPaths,
  check(object, all) {
    return providerMap.get(object.kind)?.check?.(object, all) ?? [];
  },
  // a keyed child list (a module's versions) is the kind's keyed list: its items are objects
  listKeys(kind) {
    const children = providerMap.get(kind)?.children ?? [];
    return children.length === 0 ? undefined : Object.fromEntries(children.map((c) => [c.field, c.key]));
  },
};
