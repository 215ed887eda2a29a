import { describe, expect, it } from 'vitest';
import { DEFAULT_USERNAME_TEMPLATE, LDIF_FIELDS, parseTemplate, USERNAME_FIELDS } from '../../../src/template/index.ts';
import { fixedOptions, render } from './helpers.ts';

describe('the documented examples', () => {
  it('exposes the documented field lists and default username template', () => {
    expect(LDIF_FIELDS).toEqual([
      'Username',
      'Password',
      'RoleName',
      'DisplayName',
      'IssueTime',
      'IssueTimeSeconds',
      'ExpirationTime',
      'ExpirationTimeSeconds',
    ]);
    expect(USERNAME_FIELDS).toEqual(['RoleName', 'DisplayName']);
    expect(DEFAULT_USERNAME_TEMPLATE).toBe('v_{{.DisplayName}}_{{.RoleName}}_{{random 10}}_{{unix_time}}');
  });

  it('renders the default username template', () => {
    const t = parseTemplate(DEFAULT_USERNAME_TEMPLATE);
    expect(t.fields).toEqual(['DisplayName', 'RoleName']);
    expect(t.render({ DisplayName: 'token', RoleName: 'dev' }, fixedOptions)).toBe('v_token_dev_RRRRRRRRRR_1704207845');
  });

  it("renders the engine's own printf/truncate example", () => {
    const text =
      '{{ printf "v_%s_%s_%s_%s" (.DisplayName | truncate 8) (.RoleName | truncate 8) (random 20) (unix_time) | truncate 100 }}';
    expect(render(text, { DisplayName: 'token-with-a-long-name', RoleName: 'developers' })).toBe(
      `v_token-wi_develope_${'R'.repeat(20)}_1704207845`,
    );
    const cut = render(text.replace('truncate 100', 'truncate 30'), { DisplayName: 'token', RoleName: 'dev' });
    expect(cut).toBe('v_token_dev_RRRRRRRRRRRRRRRRRR');
  });

  it('renders an LDIF creation template', () => {
    const ldif = [
      'dn: cn={{.Username}},ou=users,dc=learn,dc=example',
      'objectClass: person',
      'objectClass: top',
      'cn: learn',
      'sn: {{.Password | utf16le | base64}}',
      'memberOf: cn=dev,ou=groups,dc=learn,dc=example',
      'userPassword: {{.Password}}',
      '',
    ].join('\n');
    const t = parseTemplate(ldif, { ldif: true });
    expect(t.fields).toEqual(['Username', 'Password']);
    expect(t.render({ Username: 'v_token_dev_x', Password: 'P@ss' }, fixedOptions)).toBe(
      [
        'dn: cn=v_token_dev_x,ou=users,dc=learn,dc=example',
        'objectClass: person',
        'objectClass: top',
        'cn: learn',
        'sn: UABAAHMAcwA=',
        'memberOf: cn=dev,ou=groups,dc=learn,dc=example',
        'userPassword: P@ss',
        '',
      ].join('\n'),
    );
  });

  it("encodes Active Directory's quoted unicodePwd", () => {
    const out = render('unicodePwd:: {{ printf "\\"%s\\"" .Password | utf16le | base64 }}', { Password: 'P@ss' }, true);
    // independently: the UTF-16LE bytes of "P@ss" with its quotes
    expect(out).toBe(`unicodePwd:: ${Buffer.from('"P@ss"', 'utf16le').toString('base64')}`);
    expect(out).toBe('unicodePwd:: IgBQAEAAcwBzACIA');
  });

  it('renders a deletion LDIF with trim markers and a comment', () => {
    const text =
      '{{- /* remove the user */ -}}\ndn: cn={{.Username}},ou=users,dc=learn,dc=example\nchangetype: delete\n';
    expect(render(text, { Username: 'u1' }, true)).toBe('dn: cn=u1,ou=users,dc=learn,dc=example\nchangetype: delete\n');
  });
});
