import { flag, integer, stringDuration } from '../shared/rules.ts';
import { singletonSettingsProvider } from '../shared/settings-singleton.ts';

/** Site-wide general settings (the site-admin API, general-settings; docs/apis.md). */
export const generalSettings = singletonSettingsProvider({
  kind: 'GeneralSettings',
  name: 'general',
  fields: {
    'limit-user-organization-creation': flag(true),
    'api-rate-limiting-enabled': flag(true),
    'api-rate-limit': integer(30),
    'plan-timeout': stringDuration('2h'),
    'apply-timeout': stringDuration('24h'),
    'send-passing-statuses-for-untriggered-speculative-plans': flag(false),
    'allow-speculative-plans-on-pull-requests-from-forks': flag(false),
    'default-remote-state-access': flag(true),
    // deprecated: no default, so compared only when a manifest still sets them
    'engine-build-worker-plan-timeout': { ...stringDuration(), aliasOf: 'plan-timeout' },
    'engine-build-worker-apply-timeout': { ...stringDuration(), aliasOf: 'apply-timeout' },
  },
});
