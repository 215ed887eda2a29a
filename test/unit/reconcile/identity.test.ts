/**
 * Identity parts (src/reconcile/address.ts): a kind's parts formatted into
 * an address and parsed back, a child's address built from its parent's and
 * giving it back, and `--target` patterns whose scope holds `/`.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MODULE_IDENTITY, moduleAddress, moduleParts } from '../../../src/providers/registry-module/names.ts';
import {
  type Address,
  addressKey,
  childAddress,
  childIdentity,
  formatAddressPattern,
  formatIdentity,
  type Identity,
  keyOf,
  kindOfKey,
  parentOf,
  parseAddressPattern,
  parseIdentity,
  scopeInName,
} from '../../../src/reconcile/address.ts';
import { matchesTarget } from '../../../src/reconcile/selection.ts';

const ROLE: Identity = { scope: 'mount', name: [['name']] };
const LDAP_ROLE: Identity = { scope: 'mount', name: [['name']], slashInName: true };
const CA: Identity = { scope: 'mount', name: [[]] };
const VERSION = childIdentity(MODULE_IDENTITY, 'version');

// any text, `/` and `%` included, for scopes and hierarchical names
const text = fc.string({
  unit: fc.constantFrom('a', 'B', '/', '%', '2', 'F', '-', '.', ' '),
  minLength: 1,
  maxLength: 12,
});
// a segment: no `/`
const segment = fc.string({ unit: fc.constantFrom('a', 'z', '0', '%', '-', '_', '.'), minLength: 1, maxLength: 8 });
const hierarchical = fc.array(segment, { minLength: 1, maxLength: 4 }).map((s) => s.join('/'));

describe('identity parts', () => {
  it('format a module, a public record and a version, and parse them back', () => {
    const module = {
      organization: 'acme',
      registry: 'private' as const,
      namespace: 'acme',
      name: 'network',
      provider: 'aws',
    };
    const address = moduleAddress(module);
    expect(addressKey(address)).toBe('RegistryModule/acme/network/aws');
    expect(moduleParts(address)).toEqual(module);
    const record = { ...module, registry: 'public' as const, namespace: 'hashi' };
    expect(addressKey(moduleAddress(record))).toBe('RegistryModule/acme/public/hashi/network/aws');
    expect(moduleParts(moduleAddress(record))).toEqual(record);
    const version = childAddress(moduleAddress(record), 'RegistryModuleVersion', '1.2.0');
    expect(addressKey(version)).toBe('RegistryModuleVersion/acme/public/hashi/network/aws/1.2.0');
    expect(parseIdentity(VERSION, version)).toEqual({
      organization: 'acme',
      registry: 'public',
      namespace: 'hashi',
      name: 'network',
      provider: 'aws',
      version: '1.2.0',
    });
  });

  it('round-trip every identity: parts to address to parts, for scopes and names holding / and %', () => {
    fc.assert(
      fc.property(text, segment, segment, segment, (organization, name, provider, version) => {
        const parts = { organization, name, provider, version };
        const address = formatIdentity('RegistryModuleVersion', VERSION, parts);
        expect(parseIdentity(VERSION, address)).toEqual(parts);
        // the string form reads back to the same scope and name
        const pattern = parseAddressPattern(addressKey(address), () => true);
        expect({ kind: pattern.kind, scope: pattern.scope, name: pattern.name }).toEqual(address);
      }),
    );
    fc.assert(
      fc.property(text, hierarchical, (mount, name) => {
        const address = formatIdentity('LDAPStaticRole', LDAP_ROLE, { mount, name });
        expect(parseIdentity(LDAP_ROLE, address)).toEqual({ mount, name });
        expect(
          matchesTarget({ targets: [parseAddressPattern(addressKey(address), () => true)], selectors: {} }, address),
        ).toBe(true);
      }),
    );
    fc.assert(
      fc.property(text, (mount) => {
        const address = formatIdentity('SSHCertificateAuthority', CA, { mount });
        expect(parseAddressPattern(addressKey(address), () => true)).toEqual({
          kind: 'SSHCertificateAuthority',
          scope: mount,
        });
        expect(parseIdentity(CA, address)).toEqual({ mount });
      }),
    );
  });
});

describe('child addresses', () => {
  it('are built from the parent and give it back, whatever the scope and parent name hold', () => {
    fc.assert(
      fc.property(fc.option(text, { nil: undefined }), hierarchical, segment, (scope, name, key) => {
        const parent: Address = { kind: 'Parent', ...(scope !== undefined && { scope }), name };
        const child = childAddress(parent, 'Child', key);
        expect(child.kind).toBe('Child');
        expect(child.scope).toBe(scope);
        expect(parentOf(child, 'Parent')).toEqual(parent);
        expect(keyOf(child)).toBe(key);
        expect(addressKey(child).startsWith(`${addressKey(parent).replace(/^Parent/, 'Child')}/`)).toBe(true);
      }),
    );
  });

  it('of a parent with no name (one object per scope) are the key alone', () => {
    const child = childAddress({ kind: 'P', scope: 's', name: '' }, 'C', 'k');
    expect(child).toEqual({ kind: 'C', scope: 's', name: 'k' });
    expect(parentOf(child, 'P')).toEqual({ kind: 'P', scope: 's', name: '' });
  });

  it('have their kind read from their key', () => {
    expect(kindOfKey('RegistryModuleVersion/acme/network/aws/1.0.0')).toBe('RegistryModuleVersion');
    expect(kindOfKey('GeneralSettings')).toBe('GeneralSettings');
  });
});

describe('--target with a scope holding /', () => {
  const scoped = () => true;
  it('reads an unencoded scope as the declared scope it names', () => {
    const known = () => new Set(['teams/ssh-prod', 'ssh']);
    const read = (text: string) => parseAddressPattern(text, scoped, known);
    const role = (scope: string, name?: string) => ({ kind: 'SSHRole', scope, ...(name !== undefined && { name }) });
    expect(read('SSHRole/teams/ssh-prod/web')).toEqual(role('teams/ssh-prod', 'web'));
    expect(read('SSHRole/teams/ssh-prod')).toEqual(role('teams/ssh-prod'));
    // the documented reading first: a first segment that is a known scope ends the scope
    expect(read('SSHRole/ssh/web')).toEqual(role('ssh', 'web'));
    expect(read('SSHRole/teams%2Fssh-prod/web')).toEqual(role('teams/ssh-prod', 'web'));
  });

  it('names the percent-encoded form when the name cannot be a name of the kind', () => {
    const pattern = parseAddressPattern('SSHRole/teams/ssh-prod/web', scoped);
    const meant = scopeInName(ROLE, pattern);
    expect(meant).toEqual({ kind: 'SSHRole', scope: 'teams/ssh-prod', name: 'web' });
    expect(formatAddressPattern(meant!)).toBe('SSHRole/teams%2Fssh-prod/web');
    const ca = scopeInName(CA, parseAddressPattern('SSHCertificateAuthority/teams/ssh-prod', scoped));
    expect(formatAddressPattern(ca!)).toBe('SSHCertificateAuthority/teams%2Fssh-prod');
    // names that hold / (LDAP roles), and names that fit, are taken as written
    expect(scopeInName(LDAP_ROLE, parseAddressPattern('LDAPStaticRole/ldap/apps/app1', scoped))).toBeUndefined();
    expect(scopeInName(ROLE, parseAddressPattern('SSHRole/ssh/web', scoped))).toBeUndefined();
    expect(
      scopeInName(VERSION, parseAddressPattern('RegistryModuleVersion/acme/network/aws/1.0.0', scoped)),
    ).toBeUndefined();
  });

  it('formats a pattern back to what parses to it', () => {
    fc.assert(
      fc.property(text, fc.option(hierarchical, { nil: undefined }), (scope, name) => {
        const pattern = { kind: 'LDAPStaticRole', scope, ...(name !== undefined && { name }) };
        expect(parseAddressPattern(formatAddressPattern(pattern), scoped)).toEqual(pattern);
      }),
    );
  });
});
