/**
 * Which values of the manifests join the redactor, and which secrets validate
 * warns about (src/cli/desired-secrets.ts): secret values, as written and as
 * sent, not the plain items beside one in a list; write-only values shorter than the redactor
 * masks anywhere, at their place, never with the value; longer ones, and
 * interpolated values that are not write-only, are not warned about.
 */
import { describe, expect, it } from 'vitest';
import { redact } from '../../../src/api/redact.ts';
import { registerDesiredSecrets, shortSecretWarnings } from '../../../src/cli/desired-secrets.ts';
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

// the redactor is process-wide and test files share a worker: every value here is this file's own
describe('registering the secrets of the manifests', () => {
  const quoted = (value: string) => redact(`"${value}"`);

  it('registers the secret items of a list, not its plain items (shown wherever else they are written)', () => {
    const role = desired(
      'SSHRole',
      'r1',
      { allowed_users: ['plain-user-q1', 'sens-user-q1'], default_extensions: { a: 'plain-ext-q1', b: 'env-ext-q1' } },
      {
        secretFields: ['allowed_users', 'default_extensions'],
        secretPaths: ['allowed_users.1', 'default_extensions.b'],
      },
    );
    registerDesiredSecrets([role], new Map());
    expect(quoted('sens-user-q1')).toBe('"***"');
    expect(quoted('env-ext-q1')).toBe('"***"');
    expect(quoted('plain-user-q1')).toBe('"plain-user-q1"');
    expect(quoted('plain-ext-q1')).toBe('"plain-ext-q1"');
  });

  it('registers a whole value at a secret path, a write-only value, and a field whose secret paths are unknown', () => {
    const role = desired(
      'SSHRole',
      'r2',
      { allowed_users: ['whole-a-q2', 'whole-b-q2'], cidr_list: ['unknown-a-q2'], ttl: 'sens-ttl-q2' },
      { secretFields: ['allowed_users', 'cidr_list', 'ttl'] },
    );
    role.secretPaths = ['allowed_users', 'ttl'];
    // cidr_list: secret, with no secret path known inside it (an object built without them)
    const smtp = desired('SMTPSettings', '', { auth: 'login', password: 'smtp-password-q2' });
    registerDesiredSecrets([role, smtp], new Map());
    for (const value of ['whole-a-q2', 'whole-b-q2', 'unknown-a-q2', 'sens-ttl-q2', 'smtp-password-q2']) {
      expect(quoted(value), value).toBe('"***"');
    }
  });

  it('registers a secret as it is sent, normalized: the engine echoes a DN in its own spelling', () => {
    const dn = 'CN=Ghost-Unit-Q4, OU=Service,DC=example,DC=org';
    const role = desired(
      'LDAPStaticRole',
      'ghost',
      { username: 'Ghost-Unit-Q4', dn, rotation_period: '1h' },
      { secretFields: ['dn', 'username'], secretPaths: ['dn', 'username'] },
    );
    registerDesiredSecrets([role], new Map());
    expect(redact('could not find the account "cn=ghost-unit-q4,ou=service,dc=example,dc=org"')).toBe(
      'could not find the account "***"',
    );
  });

  it('normalizes the secret items of a list alone, and no secret empty as written (its default is no secret)', () => {
    const role = desired(
      'SSHRole',
      'r5',
      // sorted as sent, the plain item would stand where the secret was written
      { key_type: 'ca', allowed_users: [' sens-user-q5 ', 'aaa-plain-q5'], algorithm_signer: '' },
      { secretFields: ['allowed_users', 'algorithm_signer'], secretPaths: ['allowed_users.0', 'algorithm_signer'] },
    );
    registerDesiredSecrets([role], new Map());
    // trimmed, as it is sent
    expect(quoted('sens-user-q5')).toBe('"***"');
    expect(quoted('aaa-plain-q5')).toBe('"aaa-plain-q5"');
    // `algorithm_signer: ""` is sent as `default`, which every other role may say
    expect(quoted('default')).toBe('"default"');
  });

  it("registers every sensitive variable's value, used or not, and no plain variable's", () => {
    const declared = { file: 'vars.yaml', line: 1, col: 1 };
    registerDesiredSecrets(
      [],
      new Map([
        ['unused', { value: ['sens-var-q3'], sensitive: true, invalid: false, declared }],
        ['plain', { value: 'plain-var-q3', sensitive: false, invalid: false, declared }],
      ]),
    );
    expect(quoted('sens-var-q3')).toBe('"***"');
    expect(quoted('plain-var-q3')).toBe('"plain-var-q3"');
  });
});
