import { describe, expect, it } from 'vitest';
import { customizationSettings as provider } from '../../../src/providers/customization-settings/index.ts';

describe('CustomizationSettings canonical forms', () => {
  it('defaults the texts to empty and leaves the deprecated support address unmanaged', () => {
    expect(provider.canonicalDesired({})).toEqual({ 'login-help': '', footer: '', error: '', 'new-user': '' });
  });

  it('compares the support address when a manifest gives it', () => {
    const spec = { 'support-email-address': 'help@example.com' };
    expect(provider.canonicalDesired(spec)['support-email-address']).toBe('help@example.com');
    expect(provider.canonicalLive({ 'support-email-address': 'help@example.com' })).toEqual(spec);
  });

  it('keeps HTML as written: the API only escapes it inside JSON', () => {
    const footer = '<p>Operated by <b>IT</b></p>\n';
    expect(provider.canonicalLive(JSON.parse(JSON.stringify({ footer }).replaceAll('<', '\\u003c')))).toEqual({
      footer,
    });
  });
});
