/**
 * Which secrets validate warns about (src/cli/desired-secrets.ts): write-only
 * values shorter than the redactor masks anywhere, at their place, never
 * with the value; longer ones, and interpolated values that are not
 * write-only, are not warned about.
 */
import { describe, expect, it } from 'vitest';
import { shortSecretWarnings } from '../../../src/cli/desired-secrets.ts';
import { desired } from '../reconcile/builders.ts';

const at = { 'spec.password': { file: 'smtp.yaml', line: 9, col: 13 } };

describe('short secret warnings', () => {
  it('names the object, the field and its place, never the value', () => {
    const smtp = desired('SMTPSettings', '', { auth: 'login', password: 'pw12' }, { positions: at });
    const [warning, ...rest] = shortSecretWarnings([smtp]);
    expect(rest).toEqual([]);
    expect(warning).toMatch(/^smtp\.yaml:9:13: warning: SMTPSettings spec\.password: this secret is shorter than 8/);
    expect(warning).not.toContain('pw12');
  });

  it('says nothing of a secret long enough, an empty one (refused elsewhere), or a value that is no secret', () => {
    const long = desired('SMTPSettings', '', { auth: 'login', password: 'long-enough' }, { positions: at });
    const empty = desired('SMTPSettings', '', { auth: 'login', password: '' }, { positions: at });
    // interpolated, so never printed, but not a secret of its kind
    const port = desired('SMTPSettings', '', { auth: 'none', port: '25' }, { secretFields: ['port'] });
    expect(shortSecretWarnings([long, empty, port])).toEqual([]);
  });
});
