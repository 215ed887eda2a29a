import { flag, integer, text, writeOnly } from '../shared/rules.ts';
import { singletonSettingsProvider } from '../shared/settings-singleton.ts';

/** SMTP settings (the site-admin API; docs/apis.md). The password is never returned; the test address is not even stored. */
export const smtpSettings = singletonSettingsProvider({
  kind: 'SMTPSettings',
  name: 'smtp',
  fields: {
    enabled: flag(false),
    host: text(),
    port: integer(),
    sender: text(),
    auth: text('none'),
    username: text(),
    // the API requires it for `login` and `plain` authentication only: exported then
    password: writeOnly({ exportedWhen: (live) => live.auth === 'login' || live.auth === 'plain' }),
    // the API mails it on every update and does not keep it (the site-admin API; docs/apis.md)
    'test-email-address': writeOnly({ configuration: false }),
  },
});
