/**
 * `export --scope` (src/export/scopes.ts): each scope goes to the kinds of its sort, decided
 * from the kinds in play alone, before any request; one no manifest could name is refused in
 * `validate`'s words.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { scopesBySort } from '../../../src/export/scopes.ts';
import { type SchemaSet, schemaSet } from '../../../src/manifest/schemas.ts';
import { providerFor } from '../../../src/providers/index.ts';

const kinds = (...names: string[]) => names.map((n) => providerFor(n)!);
const ALL = kinds('ToolVersion', 'RegistryModule', 'LDAPConfig', 'SSHRole');

let schemas: SchemaSet;
beforeAll(async () => {
  schemas = await schemaSet();
});

describe('export --scope', () => {
  it('gives organization= to the registry kinds and mount= to the engines, each once', () => {
    const scopes = scopesBySort(
      ['organization=example-org', 'mount=ldap', 'mount=teams/ssh', 'mount=ldap'],
      ALL,
      schemas,
    );
    expect(Object.fromEntries(scopes)).toEqual({ organization: ['example-org'], mount: ['ldap', 'teams/ssh'] });
  });

  it('takes a bare scope for the one sort of the kinds in play', () => {
    expect(Object.fromEntries(scopesBySort(['example-org'], kinds('RegistryModule', 'ToolVersion'), schemas))).toEqual({
      organization: ['example-org'],
    });
  });

  it('refuses a bare scope of either sort, a sort no kind has, and any scope for global kinds', () => {
    expect(() => scopesBySort(['ldap'], ALL, schemas)).toThrow(
      /live in (organizations and mounts|mounts and organizations)/,
    );
    expect(() => scopesBySort(['organization=x'], kinds('SSHRole'), schemas)).toThrow(
      /none of the kinds exported lives in organizations/,
    );
    expect(() => scopesBySort(['x'], kinds('ToolVersion'), schemas)).toThrow(/none of the kinds exported has scopes/);
    expect(() => scopesBySort(['mount='], ALL, schemas)).toThrow(/the mount is missing/);
  });

  it.each([
    [
      'a path outside the engines',
      'mount=../sys',
      'metadata.mount must be a mount path like "ssh" or "teams/ssh-prod"',
    ],
    ['a bare one, for the one sort in play', '../sys', 'metadata.mount must be a mount path like "ssh"'],
    [
      "the service's own mount",
      'mount=sys',
      'mount "sys" is reserved by the secrets service (sys/, auth/, identity/, cubbyhole/, audit/ are its own paths)',
    ],
    ['a path under it', 'mount=auth/token', 'mount "auth/token" is reserved by the secrets service'],
  ])('refuses %s as validate refuses it in metadata.mount', (_what, scope, message) => {
    expect(() => scopesBySort([scope], kinds('SSHRole'), schemas)).toThrow(`--scope ${scope}: ${message}`);
  });

  it('checks a scope by the schema of the kinds of its sort only, each in its own words', () => {
    expect(() => scopesBySort(['mount=a b'], kinds('LDAPDynamicRole', 'ToolVersion'), schemas)).toThrow(
      '--scope mount=a b: metadata.mount must be a mount path like "ldap" or "teams/ldap-prod" (got string "a b")',
    );
    expect(() => scopesBySort(['organization=../x'], ALL, schemas)).toThrow(
      /--scope organization=\.\.\/x: metadata\.organization must be/,
    );
    // a mount that is only unusual is a mount
    expect(Object.fromEntries(scopesBySort(['mount=teams/ssh_prod-2'], kinds('SSHRole'), schemas))).toEqual({
      mount: ['teams/ssh_prod-2'],
    });
  });
});
