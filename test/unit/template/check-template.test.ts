import { describe, expect, it } from 'vitest';
import { checkTemplate, DEFAULT_USERNAME_TEMPLATE, LDIF_FIELDS, USERNAME_FIELDS } from '../../../src/template/index.ts';

describe('checkTemplate', () => {
  it('renders a good template with sample values, a fixed clock and fixed randomness', () => {
    expect(checkTemplate(DEFAULT_USERNAME_TEMPLATE, USERNAME_FIELDS)).toEqual({
      problems: [],
      sample: 'v_token_dev_ABCDEFGHIJ_1704207845',
    });
  });

  it('samples every LDIF field with the engine types (RFC 3339 strings, integer seconds)', () => {
    const text =
      '{{.Username}} {{.Password}} {{.RoleName}} {{.DisplayName}}\n{{.IssueTime}} {{.IssueTimeSeconds}} {{.ExpirationTime}} {{.ExpirationTimeSeconds}}';
    expect(checkTemplate(text, LDIF_FIELDS, { ldif: true })).toEqual({
      problems: [],
      sample:
        'v_token_dev_Ab3dE9gH1k_1704207845 S4mple-Passw0rd dev token\n2024-01-02T15:04:05Z 1704207845 2024-01-02T16:04:05Z 1704211445',
    });
  });

  it('samples timestamp, uuid and long random values deterministically', () => {
    expect(checkTemplate('{{timestamp "2006-01-02"}} {{uuid}} {{random 64 | truncate 3}}', USERNAME_FIELDS)).toEqual({
      problems: [],
      sample: '2024-01-02 00000000-0000-4000-8000-000000000000 ABC',
    });
    expect(checkTemplate('{{random 64}}', []).sample).toBe(
      'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789AB',
    );
  });

  it('reports a parse error with its line and column, never throwing', () => {
    expect(checkTemplate('a\nb\n{{ .RoleName | nope }}', USERNAME_FIELDS)).toEqual({
      problems: [
        {
          line: 3,
          col: 16,
          message:
            'function "nope" not defined; known: base64, lowercase, printf, random, replace, sha256, timestamp, truncate, truncate_sha256, unix_time, unix_time_millis, uppercase, uuid',
        },
      ],
    });
    expect(checkTemplate('{{ .Username', LDIF_FIELDS)).toEqual({
      problems: [{ line: 1, col: 1, message: 'unclosed action: no matching }}' }],
    });
  });

  it('reports every field the template kind does not offer, at each use', () => {
    expect(checkTemplate('{{.Username}}_{{.RoleName}}\n  {{.Password | base64}}', USERNAME_FIELDS)).toEqual({
      problems: [
        { line: 1, col: 3, message: 'no field .Username; known: .RoleName, .DisplayName' },
        { line: 2, col: 5, message: 'no field .Password; known: .RoleName, .DisplayName' },
      ],
    });
  });

  it('reports render problems, such as a wrong type or a bad length, at the call', () => {
    expect(checkTemplate('{{ .IssueTimeSeconds | uppercase }}', LDIF_FIELDS, { ldif: true })).toEqual({
      problems: [
        {
          line: 1,
          col: 24,
          message: 'wrong type for the piped value of uppercase: expected string, got int 1704207845',
        },
      ],
    });
    expect(checkTemplate('x {{ .RoleName | truncate 0 }}', USERNAME_FIELDS)).toEqual({
      problems: [{ line: 1, col: 18, message: 'error calling truncate: max length must be > 0 but was 0' }],
    });
  });

  it('accepts the printf-of-integer form for the Seconds fields', () => {
    expect(checkTemplate('{{ printf "%d" .ExpirationTimeSeconds | truncate 4 }}', LDIF_FIELDS, { ldif: true })).toEqual(
      {
        problems: [],
        sample: '1704',
      },
    );
  });

  it('knows utf16le only in LDIF mode', () => {
    expect(checkTemplate('{{ .Password | utf16le | base64 }}', LDIF_FIELDS, { ldif: true })).toEqual({
      problems: [],
      sample: Buffer.from('S4mple-Passw0rd', 'utf16le').toString('base64'),
    });
    expect(checkTemplate('{{ .RoleName | utf16le }}', USERNAME_FIELDS)).toEqual({
      problems: [{ line: 1, col: 16, message: 'function "utf16le" is only available in LDIF templates' }],
    });
  });

  it('gives an unknown allowed field a recognisable sample', () => {
    expect(checkTemplate('{{ .Custom }}', ['Custom'])).toEqual({ problems: [], sample: 'sample-Custom' });
  });
});
