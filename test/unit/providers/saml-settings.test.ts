import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { samlSettings as provider } from '../../../src/providers/saml-settings/index.ts';

const cert = readFileSync(new URL('../../fixtures/idp-rotated.pem', import.meta.url), 'utf8');

describe('SAMLSettings canonical forms', () => {
  it('applies the documented defaults and leaves the certificate and URLs unmanaged until given', () => {
    expect(provider.canonicalDesired({})).toEqual({
      enabled: false,
      debug: false,
      'attr-username': 'Username',
      'attr-groups': 'MemberOf',
      'attr-site-admin': 'SiteAdmin',
      'site-admin-role': 'site-admins',
      'sso-api-token-session-timeout': 1209600,
    });
  });

  it('compares a certificate with any line endings and surrounding whitespace as the same', () => {
    const windows = `\r\n${cert.trim().replaceAll('\n', '\r\n')}\r\n\r\n`;
    expect(provider.canonicalDesired({ 'idp-cert': windows })['idp-cert']).toBe(
      provider.canonicalLive({ 'idp-cert': cert })['idp-cert'],
    );
    expect(provider.canonicalLive({ 'idp-cert': cert })['idp-cert']).toBe(cert.trim());
  });

  it('reads the session timeout in any unit as seconds', () => {
    for (const written of ['336h', '20160m', 1209600, '1209600']) {
      expect(provider.canonicalDesired({ 'sso-api-token-session-timeout': written })).toMatchObject({
        'sso-api-token-session-timeout': 1209600,
      });
    }
  });

  it('drops the read-only attributes from the live side', () => {
    const live = provider.canonicalLive({
      enabled: true,
      'old-idp-cert': cert,
      'acs-consumer-url': 'https://tfe.example.com/users/saml/auth',
      'metadata-url': 'https://tfe.example.com/users/saml/metadata',
    });
    expect(live).toEqual({ enabled: true });
  });
});
