import { describe, expect, it } from 'vitest';
import { closest, didYouMean } from '../../../src/manifest/suggest.ts';

describe('closest', () => {
  const fields = ['api-rate-limit', 'api-rate-limiting-enabled', 'plan-timeout', 'apply-timeout'];

  it('finds a near typo, ignoring case', () => {
    expect(closest('api-rate-limt', fields)).toBe('api-rate-limit');
    expect(closest('Plan-Timeout', fields)).toBe('plan-timeout');
    expect(closest('GeneralSetting', ['GeneralSettings', 'SMTPSettings'])).toBe('GeneralSettings');
  });

  it('suggests nothing when nothing is close', () => {
    expect(closest('colour', ['is-admin', 'is-suspended'])).toBeUndefined();
    expect(closest('x', ['ab'])).toBeUndefined();
    expect(didYouMean('banana', fields)).toBe('');
  });
});
