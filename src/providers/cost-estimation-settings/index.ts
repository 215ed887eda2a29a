import { flag, writeOnly } from '../shared/rules.ts';
import { singletonSettingsProvider } from '../shared/settings-singleton.ts';

/**
 * Cost estimation settings (the site-admin API; docs/apis.md). Every credential is
 * write-only: some servers echo them back, but converge never compares nor
 * exports them, so a secret never travels further than the request. The
 * identifiers (key id, client, tenant, subscription) are treated so too: they
 * come from the same secret store as their keys, and an export must not
 * write them into a Git repository. Drift in them shows through the
 * fingerprint store, like the keys.
 */
export const costEstimationSettings = singletonSettingsProvider({
  kind: 'CostEstimationSettings',
  name: 'cost-estimation',
  fields: {
    enabled: flag(false),
    'cloud-a-access-key-id': writeOnly(),
    'cloud-a-secret-key': writeOnly(),
    'cloud-b-credentials': writeOnly(),
    'cloud-c-client-id': writeOnly(),
    'cloud-c-client-secret': writeOnly(),
    'cloud-c-subscription-id': writeOnly(),
    'cloud-c-tenant-id': writeOnly(),
  },
});
