/**
 * `export --scope` (src/export/scopes.ts): each scope goes to the kinds of its sort, decided
 * from the kinds in play alone, before any request.
 */
import { describe, expect, it } from 'vitest';
import { scopesBySort } from '../../../src/export/scopes.ts';
import { providerFor } from '../../../src/providers/index.ts';

const kinds = (...names: string[]) => names.map((n) => providerFor(n)!);
const ALL = kinds('ToolVersion', 'RegistryModule', 'LDAPConfig', 'SSHRole');

describe('export --scope', () => {
  it('gives organization= to the registry kinds and mount= to the engines, each once', () => {
    const scopes = scopesBySort(['organization=example-org', 'mount=ldap', 'mount=teams/ssh', 'mount=ldap'], ALL);
    expect(Object.fromEntries(scopes)).toEqual({ organization: ['example-org'], mount: ['ldap', 'teams/ssh'] });
  });

  it('takes a bare scope for the one sort of the kinds in play', () => {
    expect(Object.fromEntries(scopesBySort(['example-org'], kinds('RegistryModule', 'ToolVersion')))).toEqual({
      organization: ['example-org'],
    });
  });

  it('refuses a bare scope of either sort, a sort no kind has, and any scope for global kinds', () => {
    expect(() => scopesBySort(['ldap'], ALL)).toThrow(/live in (organizations and mounts|mounts and organizations)/);
    expect(() => scopesBySort(['organization=x'], kinds('SSHRole'))).toThrow(
      /none of the kinds exported lives in organizations/,
    );
    expect(() => scopesBySort(['x'], kinds('ToolVersion'))).toThrow(/none of the kinds exported has scopes/);
    expect(() => scopesBySort(['mount='], ALL)).toThrow(/the mount is missing/);
  });
});
