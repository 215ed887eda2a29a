import { describe, expect, it } from 'vitest';
import { addressKey, compareAddresses, describeAddress, parseAddressPattern } from '../../../src/reconcile/address.ts';
import { matchesTarget, type Selection } from '../../../src/reconcile/selection.ts';

const SCOPED = new Set(['SSHRole', 'LDAPStaticRole', 'SSHCertificateAuthority', 'ModuleTestVariable']);
const scoped = (kind: string) => SCOPED.has(kind);

describe('address keys', () => {
  it('name a settings kind by its kind alone, a global object by kind/name', () => {
    expect(addressKey({ kind: 'GeneralSettings', name: '' })).toBe('GeneralSettings');
    expect(addressKey({ kind: 'ToolVersion', name: '1.6.0' })).toBe('ToolVersion/1.6.0');
  });

  it('put the scope between kind and name, and leave the name out for one object per scope', () => {
    expect(addressKey({ kind: 'SSHRole', scope: 'ssh', name: 'web' })).toBe('SSHRole/ssh/web');
    expect(addressKey({ kind: 'SSHCertificateAuthority', scope: 'ssh-prod', name: '' })).toBe(
      'SSHCertificateAuthority/ssh-prod',
    );
  });

  it('keep a name with / as it is, and percent-encode / and % in a scope', () => {
    expect(addressKey({ kind: 'LDAPStaticRole', scope: 'ldap', name: 'apps/app1' })).toBe(
      'LDAPStaticRole/ldap/apps/app1',
    );
    expect(addressKey({ kind: 'LDAPStaticRole', scope: 'team/ldap', name: 'a' })).toBe('LDAPStaticRole/team%2Fldap/a');
    expect(addressKey({ kind: 'LDAPStaticRole', scope: '100%', name: 'a' })).toBe('LDAPStaticRole/100%25/a');
  });

  it('differ for the same name in two scopes', () => {
    const a = addressKey({ kind: 'SSHRole', scope: 'ssh', name: 'web' });
    const b = addressKey({ kind: 'SSHRole', scope: 'ssh-prod', name: 'web' });
    expect(a).not.toBe(b);
  });

  it('read as a sentence in messages', () => {
    expect(describeAddress({ kind: 'SSHRole', scope: 'ssh', name: 'web' })).toBe('SSHRole "web" in ssh');
    expect(describeAddress({ kind: 'GeneralSettings', name: '' })).toBe('GeneralSettings');
  });

  it('sort by kind, then scope, then name', () => {
    const sorted = [
      { kind: 'SSHRole', scope: 'b', name: 'a' },
      { kind: 'SSHRole', scope: 'a', name: 'z' },
      { kind: 'LDAPStaticRole', scope: 'z', name: 'a' },
    ].sort(compareAddresses);
    expect(sorted.map(addressKey)).toEqual(['LDAPStaticRole/z/a', 'SSHRole/a/z', 'SSHRole/b/a']);
  });
});

describe('address patterns (--target)', () => {
  it('parse every key form back to its parts', () => {
    for (const address of [
      { kind: 'ToolVersion', name: '1.6.0' },
      { kind: 'SSHRole', scope: 'ssh', name: 'web' },
      { kind: 'LDAPStaticRole', scope: 'ldap', name: 'apps/app1' },
      { kind: 'LDAPStaticRole', scope: 'team/ldap', name: 'apps/x/y' },
      { kind: 'SSHCertificateAuthority', scope: 'ssh', name: '' },
    ]) {
      const pattern = parseAddressPattern(addressKey(address), scoped);
      expect(matchesTarget(select(addressKey(address)), address), addressKey(address)).toBe(true);
      expect(pattern.kind).toBe(address.kind);
      expect(pattern.scope).toBe(address.scope);
    }
  });

  it('take the first segment after a scoped kind as the scope, the rest as the name', () => {
    expect(parseAddressPattern('LDAPStaticRole/ldap/apps/app1', scoped)).toEqual({
      kind: 'LDAPStaticRole',
      scope: 'ldap',
      name: 'apps/app1',
    });
    expect(parseAddressPattern('ToolVersion/1.6.0', scoped)).toEqual({ kind: 'ToolVersion', name: '1.6.0' });
    expect(parseAddressPattern('SSHRole', scoped)).toEqual({ kind: 'SSHRole' });
  });

  it('select a whole scope with Kind/scope, and not the same name in another scope', () => {
    const selection = select('SSHRole/ssh');
    expect(matchesTarget(selection, { kind: 'SSHRole', scope: 'ssh', name: 'web' })).toBe(true);
    expect(matchesTarget(selection, { kind: 'SSHRole', scope: 'ssh-prod', name: 'web' })).toBe(false);
  });

  it('take globs over scope and name; * stays inside one name segment, ** crosses', () => {
    expect(matchesTarget(select('SSHRole/*/web'), { kind: 'SSHRole', scope: 'ssh-prod', name: 'web' })).toBe(true);
    expect(matchesTarget(select('LDAPStaticRole/ldap/apps/*'), ldap('apps/app1'))).toBe(true);
    expect(matchesTarget(select('LDAPStaticRole/ldap/*'), ldap('apps/app1'))).toBe(false);
    expect(matchesTarget(select('LDAPStaticRole/ldap/**'), ldap('apps/app1'))).toBe(true);
  });

  it('match names that hold glob characters literally too', () => {
    expect(matchesTarget(select('LDAPStaticRole/ldap/a[1]'), ldap('a[1]'))).toBe(true);
  });
});

function ldap(name: string) {
  return { kind: 'LDAPStaticRole', scope: 'ldap', name };
}

function select(...targets: string[]): Selection {
  return { targets: targets.map((t) => parseAddressPattern(t, scoped)), selectors: {} };
}
