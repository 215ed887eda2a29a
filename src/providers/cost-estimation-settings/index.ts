import { flag, whenEnabled, writeOnly } from '../shared/rules.ts';
import { singletonSettingsProvider } from '../shared/settings-singleton.ts';

/**
 * Cost estimation settings (the site-admin API; docs/apis.md). Every credential is
 * write-only: some servers echo them back, but converge never compares nor
 * exports them, so a secret never travels further than the request. The
 * identifiers (key id, client, tenant, subscription) are treated so too: they
 * come from the same secret store as their keys, and an export must not
 * write them into a Git repository. Drift in them shows through the
 * fingerprint store, like the keys. Export writes them as placeholders only
 * while cost estimation is enabled: a disabled feature has no credentials to ask for.
 */
export const costEstimationSettings = singletonSettingsProvider({
  kind: 'CostEstimationSettings',
  name: 'cost-estimation',
  fields: {
    enabled: flag(false),
    'cloud-a-access-key-id': writeOnly({ exportedWhen: whenEnabled }),
    'cloud-a-secret-key': writeOnly({ exportedWhen: whenEnabled }),
    'cloud-b-credentials': writeOnly({ exportedWhen: whenEnabled }),
    'cloud-c-client-id': writeOnly({ exportedWhen: whenEnabled }),
    'cloud-c-client-secret': writeOnly({ exportedWhen: whenEnabled }),
    'cloud-c-subscription-id': writeOnly({ exportedWhen: whenEnabled }),
    'cloud-c-tenant-id': writeOnly({ exportedWhen: whenEnabled }),
  },
});
