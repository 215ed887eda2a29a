import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { utf8Problem } from '../../../src/manifest/utf8.ts';

const bytes = (text: string) => new Uint8Array(Buffer.from(text, 'utf8'));

describe('utf8Problem', () => {
  it('takes any UTF-8 text, a byte-order mark included', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (text) => {
        expect(utf8Problem(bytes(text))).toBeUndefined();
      }),
    );
    expect(utf8Problem(bytes('\uFEFFkind: ToolVersion\n'))).toBeUndefined();
  });

  it('points at the first byte that is not UTF-8, by line and character', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme' }).filter((t) => !t.includes('\n')),
        fc.string({ unit: 'grapheme' }),
        fc.constantFrom(0xe9, 0xff, 0xc0, 0x80),
        (before, after, bad) => {
          const lines = `a: 1\nb: ${before}`;
          const data = Buffer.concat([Buffer.from(lines), Buffer.from([bad]), Buffer.from(after)]);
          expect(utf8Problem(data)).toMatchObject({ line: 2, col: `b: ${before}`.length + 1 });
        },
      ),
    );
  });

  it('refuses overlong forms and surrogates, and names UTF-16', () => {
    for (const seq of [
      [0xc0, 0xaf],
      [0xe0, 0x80, 0xaf],
      [0xed, 0xa0, 0x80],
      [0xf4, 0x90, 0x80, 0x80],
    ]) {
      expect(utf8Problem(new Uint8Array([0x61, ...seq])), seq.join(' ')).toMatchObject({ line: 1, col: 2 });
    }
    expect(utf8Problem(new Uint8Array([0xff, 0xfe, 0x6b, 0x00]))?.message).toBe(
      'the file is UTF-16 text: save it as UTF-8',
    );
  });
});
