import { describe, expect, it } from 'vitest';
import { closest, didYouMean, unknownKind } from '../../../src/manifest/suggest.ts';

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

describe('unknownKind', () => {
  const kinds = ['SSHRole', 'ToolVersion', 'AdminUser'];

  it('names the nearest kind when there is one', () => {
    expect(unknownKind('ToolVersions', kinds)).toBe('unknown kind "ToolVersions"; did you mean "ToolVersion"?');
  });

  it('else lists every kind, sorted, with what else the place accepts', () => {
    expect(unknownKind('Banana', kinds)).toBe(
      'unknown kind "Banana"; expected one of: AdminUser, SSHRole, ToolVersion',
    );
    expect(unknownKind('Banana', new Set(kinds), ', or * for every kind')).toBe(
      'unknown kind "Banana"; expected one of: AdminUser, SSHRole, ToolVersion, or * for every kind',
    );
    expect(kinds).toEqual(['SSHRole', 'ToolVersion', 'AdminUser']);
  });
});
