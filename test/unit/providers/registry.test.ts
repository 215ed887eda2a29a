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
    expect(catalog.address('SMTPSettings', {})).toEqual({ kind: 'SMTPSettings', name: '' });
    expect(catalog.address('PolicyVersion', { name: '0.23.0' })).toEqual({ kind: 'PolicyVersion', name: '0.23.0' });
    expect(() => catalog.address('NoSuchKind', {})).toThrow(/NoSuchKind/);
  });
});
