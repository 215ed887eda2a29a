/**
 * Schema problems never echo a secret (docs/security.md, "What is secret"): neither a secret
 * value nor anything inside one, a secret map's keys included.
 */
import { describe, expect, it } from 'vitest';
import { createAjv } from '../../../src/manifest/ajv-setup.ts';
import { explainErrors, secretWithin } from '../../../src/manifest/schema-problems.ts';

const validate = createAjv({}).compile({
  type: 'object',
  properties: {
    lengths: { type: 'object', additionalProperties: { type: 'integer' } },
    extensions: { type: 'object', additionalProperties: false, properties: { 'permit-pty': { type: 'string' } } },
  },
});

function problems(data: unknown, secret: string[]) {
  expect(validate(data)).toBe(false);
  return explainErrors(validate.errors ?? [], secretWithin(new Set(secret)));
}

describe('secretWithin', () => {
  it('finds the secret path that holds a path: itself or the nearest secret ancestor', () => {
    const at = secretWithin(new Set(['spec.lengths', 'spec.token']));
    expect(at('spec.lengths')).toBe('spec.lengths');
    expect(at('spec.lengths.rsa.1')).toBe('spec.lengths');
    expect(at('spec.lengthsX')).toBeUndefined();
    expect(at('spec')).toBeUndefined();
    expect(secretWithin(new Set())('spec.lengths')).toBeUndefined();
  });
});

describe('a problem inside a secret value', () => {
  it('is told at the secret field, without the key or the value', () => {
    const data = { lengths: { SECRETKEY: 'SECRETVALUE' }, extensions: { OTHERKEY: 'x' } };
    expect(problems(data, ['lengths', 'extensions'])).toEqual([
      {
        path: 'lengths',
        atKey: false,
        message: 'lengths holds a value that must be an integer (got a string, value hidden)',
      },
      {
        path: 'extensions',
        atKey: false,
        message: 'extensions has a key that is not allowed there (the key is hidden: the value is secret)',
      },
    ]);
  });

  it('is told as before where nothing is secret', () => {
    const data = { lengths: { rsa: 'x' }, extensions: { other: 'x' } };
    expect(problems(data, []).map((p) => p.message)).toEqual([
      'lengths.rsa must be an integer (got string "x")',
      'unknown field "other" in extensions (expected one of: permit-pty)',
    ]);
  });
});
