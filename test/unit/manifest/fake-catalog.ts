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

/** The admin kinds, as the provider registry will describe them. */
export const fakeCatalog: KindCatalog = {
  kinds: [...SINGLETONS, ...NAMED],
  address: (kind: string, metadata: Metadata) => ({
    kind,
    name: SINGLETONS.includes(kind) ? '' : (metadata.name ?? ''),
  }),
};
