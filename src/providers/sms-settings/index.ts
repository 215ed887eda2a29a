import { flag, text, whenEnabled, writeOnly } from '../shared/rules.ts';
import { singletonSettingsProvider } from '../shared/settings-singleton.ts';

/** SMS settings (the site-admin API, docs/apis.md; the real service calls them twilio-settings). */
export const smsSettings = singletonSettingsProvider({
  kind: 'SMSSettings',
  name: 'sms',
  fields: {
    enabled: flag(false),
    'account-sid': text(),
    // exported only while SMS is enabled: a disabled feature has no token to ask for
    'auth-token': writeOnly({ exportedWhen: whenEnabled }),
    'from-number': text(),
  },
});
