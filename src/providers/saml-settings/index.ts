import { flag, pem, secondsDuration, text } from '../shared/rules.ts';
import { singletonSettingsProvider } from '../shared/settings-singleton.ts';

/**
 * SAML settings (the site-admin API; docs/apis.md). The read-only attributes
 * (old-idp-cert, acs-consumer-url, metadata-url) are not in the table, so
 * they are neither compared nor exported.
 */
export const samlSettings = singletonSettingsProvider({
  kind: 'SAMLSettings',
  name: 'saml',
  fields: {
    enabled: flag(false),
    debug: flag(false),
    'idp-cert': pem(),
    'slo-endpoint-url': text(),
    'sso-endpoint-url': text(),
    'attr-username': text('Username'),
    'attr-groups': text('MemberOf'),
    'attr-site-admin': text('SiteAdmin'),
    'site-admin-role': text('site-admins'),
    'sso-api-token-session-timeout': secondsDuration(1209600),
  },
});
