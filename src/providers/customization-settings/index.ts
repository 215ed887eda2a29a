import { text } from '../shared/rules.ts';
import { singletonSettingsProvider } from '../shared/settings-singleton.ts';

/** Customization settings (the site-admin API; docs/apis.md). */
export const customizationSettings = singletonSettingsProvider({
  kind: 'CustomizationSettings',
  name: 'customization',
  fields: {
    // deprecated: its default is a non-functional address, so it is compared only when given
    'support-email-address': text(),
    'login-help': text(''),
    footer: text(''),
    error: text(''),
    'new-user': text(''),
  },
});
