import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { diffFields, fieldsToSend } from '../../../src/reconcile/diff.ts';
import type { Fields, Json } from '../../../src/reconcile/types.ts';

const none = {
  writeOnly: new Set<string>(),
  immutable: new Set<string>(),
  secret: new Set<string>(),
  sendSecrets: new Map(),
};

describe('diffFields', () => {
  it('reports nothing when desired equals live', () => {
    expect(diffFields({ a: 1, b: 'x' }, { a: 1, b: 'x', extra: true }, none)).toEqual([]);
  });

  it('compares only the keys the desired side manages', () => {
    // GIVEN a live field the manifest does not mention
    const changes = diffFields({ a: 1 }, { a: 1, unmanaged: 'changed elsewhere' }, none);
    // THEN it is not a change
    expect(changes).toEqual([]);
  });

  it('names each changed field with before and after', () => {
    expect(diffFields({ a: 2, b: 'y' }, { a: 1, b: 'y' }, none)).toEqual([{ path: 'a', before: 1, after: 2 }]);
  });

  it('walks maps so the changed key is named', () => {
    const changes = diffFields({ m: { x: '1', y: '2' } }, { m: { x: '1', z: '3' } }, none);
    expect(changes).toEqual([
      { path: 'm.y', after: '2' },
      { path: 'm.z', before: '3' },
    ]);
  });

  it('marks a change to an immutable field as a replacement', () => {
    const changes = diffFields({ dn: 'b' }, { dn: 'a' }, { ...none, immutable: new Set(['dn']) });
    expect(changes).toEqual([{ path: 'dn', before: 'a', after: 'b', replace: true }]);
  });

  it('never holds the value of an interpolated (secret) field', () => {
    const changes = diffFields({ url: 'new-secret' }, { url: 'old-secret' }, { ...none, secret: new Set(['url']) });
    expect(changes).toEqual([{ path: 'url', secret: true, note: 'secret value differs' }]);
    expect(JSON.stringify(changes)).not.toContain('secret-');
  });

  it('includes a write-only field only when it is to be sent', () => {
    const opts = { ...none, writeOnly: new Set(['password']) };
    expect(diffFields({ password: 'p' }, {}, opts)).toEqual([]);
    const send = diffFields(
      { password: 'p' },
      {},
      { ...opts, sendSecrets: new Map([['password', 'changed since last apply']]) },
    );
    expect(send).toEqual([{ path: 'password', secret: true, note: 'changed since last apply' }]);
  });

  it('is empty for any value diffed with itself (property)', () => {
    const json: fc.Arbitrary<Json> = fc.jsonValue() as fc.Arbitrary<Json>;
    fc.assert(
      fc.property(fc.dictionary(fc.string(), json), (fields: Fields) => {
        expect(diffFields(fields, structuredClone(fields), none)).toEqual([]);
      }),
    );
  });

  it('never throws on arbitrary pairs (property)', () => {
    const json = fc.jsonValue() as fc.Arbitrary<Json>;
    fc.assert(
      fc.property(fc.dictionary(fc.string(), json), fc.dictionary(fc.string(), json), (a: Fields, b: Fields) => {
        diffFields(a, b, none);
      }),
    );
  });
});

describe('fieldsToSend', () => {
  it('sends the whole top-level value of each changed field', () => {
    const desired = { m: { x: '1', y: '2' }, a: 1, b: 2 };
    expect(
      fieldsToSend(desired, [
        { path: 'm.y', after: '2' },
        { path: 'a', before: 0, after: 1 },
      ]),
    ).toEqual({
      m: { x: '1', y: '2' },
      a: 1,
    });
  });
});
