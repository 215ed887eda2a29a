import { describe, expect, it } from 'vitest';
import { catalog, providerFor, providers } from '../../../src/providers/index.ts';

const siteAdminKinds = [
  'GeneralSettings',
  'CostEstimationSettings',
  'SAMLSettings',
  'SMTPSettings',
  'SMSSettings',
  'CustomizationSettings',
  'ToolVersion',
  'PolicyVersion',
  'AdminUser',
];

describe('provider registry', () => {
  it('has one provider per kind', () => {
    const kinds = providers.map((p) => p.kind);
    expect(new Set(kinds).size).toBe(kinds.length);
    expect(kinds).toEqual(expect.arrayContaining(siteAdminKinds));
    for (const kind of siteAdminKinds) expect(providerFor(kind)?.kind).toBe(kind);
    expect(providerFor('NoSuchKind')).toBeUndefined();
  });

  it('serves the manifest loader as its kind catalog', () => {
    expect(catalog.kinds).toEqual(providers.map((p) => p.kind));
    expect(catalog.singleton('SMTPSettings')).toBe(true);
    expect(catalog.singleton('ToolVersion')).toBe(false);
    expect(catalog.identity('SMTPSettings', {})).toBe('');
    expect(catalog.identity('PolicyVersion', { name: '0.23.0' })).toBe('0.23.0');
    expect(catalog.identity('AdminUser', { name: 'ann' })).toBe('ann');
    expect(() => catalog.identity('NoSuchKind', {})).toThrow(/NoSuchKind/);
  });

  it('declares every site-admin kind global, on the platform API, without dependencies', () => {
    for (const kind of siteAdminKinds) {
      const provider = providerFor(kind)!;
      expect(provider.api).toBe('platform');
      expect(provider.scope({ name: 'x' })).toBe('');
      expect(provider.dependsOn).toEqual([]);
      expect(provider.immutable).toEqual([]);
    }
  });
});
