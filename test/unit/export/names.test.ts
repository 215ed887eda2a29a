import { describe, expect, it } from 'vitest';
import { envSegment, kebabKind, objectFileName, placeholderName, screamingKind } from '../../../src/export/names.ts';

describe('names made up by export', () => {
  it('turns kinds into file and variable names, keeping acronyms whole', () => {
    expect(kebabKind('SMTPSettings')).toBe('smtp-settings');
    expect(kebabKind('ToolVersion')).toBe('tool-version');
    expect(kebabKind('LDAPStaticRole')).toBe('ldap-static-role');
    expect(kebabKind('SSHCertificateAuthority')).toBe('ssh-certificate-authority');
    expect(screamingKind('CostEstimationSettings')).toBe('COST_ESTIMATION_SETTINGS');
    expect(screamingKind('SAMLSettings')).toBe('SAML_SETTINGS');
  });

  it('names a singleton field by kind and field, and other objects by name too', () => {
    const taken = new Set<string>();
    expect(placeholderName({ kind: 'SMTPSettings', scope: '', name: '', field: 'password' }, taken)).toBe(
      'SMTP_SETTINGS_PASSWORD',
    );
    expect(
      placeholderName({ kind: 'CostEstimationSettings', scope: '', name: '', field: 'cloud-a-secret-key' }, taken),
    ).toBe('COST_ESTIMATION_SETTINGS_CLOUD_A_SECRET_KEY');
    expect(placeholderName({ kind: 'LDAPStaticRole', scope: 'ldap', name: 'team/web', field: 'password' }, taken)).toBe(
      'LDAP_STATIC_ROLE_LDAP_TEAM_WEB_PASSWORD',
    );
  });

  it('keeps names unique when identities differ only in punctuation', () => {
    const taken = new Set<string>();
    const a = placeholderName({ kind: 'LDAPStaticRole', scope: 'ldap', name: 'a-b', field: 'password' }, taken);
    const b = placeholderName({ kind: 'LDAPStaticRole', scope: 'ldap', name: 'a_b', field: 'password' }, taken);
    const c = placeholderName({ kind: 'LDAPStaticRole', scope: 'ldap', name: 'a.b', field: 'password' }, taken);
    expect([a, b, c]).toEqual([
      'LDAP_STATIC_ROLE_LDAP_A_B_PASSWORD',
      'LDAP_STATIC_ROLE_LDAP_A_B_PASSWORD_2',
      'LDAP_STATIC_ROLE_LDAP_A_B_PASSWORD_3',
    ]);
    expect(envSegment('--x  y--')).toBe('X_Y');
  });

  it('makes safe, unique file names from identities', () => {
    const taken = new Set<string>();
    expect(objectFileName('1.10.0', taken)).toBe('1.10.0.yaml');
    expect(objectFileName('team/web', taken)).toBe('team_web.yaml');
    expect(objectFileName('team_web', taken)).toBe('team_web-2.yaml');
    expect(objectFileName('Team_Web', taken)).toBe('Team_Web-3.yaml'); // case-insensitive file systems
    expect(objectFileName('..', taken)).toBe('_.yaml');
    expect(objectFileName('', taken)).toBe('_-2.yaml');
  });
});
