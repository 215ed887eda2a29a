import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { durationLimitProblem, durationSeconds, MAX_DURATION_SECONDS } from '../../../src/manifest/duration.ts';
import { durationString } from '../../../src/providers/shared/normalize.ts';

describe('durationSeconds', () => {
  it('reads the natural forms as seconds', () => {
    expect(durationSeconds('2h')).toBe(7200);
    expect(durationSeconds('90m')).toBe(5400);
    expect(durationSeconds('1.5h')).toBe(5400);
    expect(durationSeconds('3600s')).toBe(3600);
    expect(durationSeconds('1h30m')).toBe(5400);
    expect(durationSeconds('3600')).toBe(3600);
    expect(durationSeconds(1209600)).toBe(1209600);
  });

  it("reads Go's smaller units too, as the platform and the secrets engine do, to the millisecond", () => {
    const read = Object.entries({
      '1500ms': 1.5,
      '1m30s500ms': 90.5,
      '2000000us': 2,
      '2000000µs': 2,
      '3000000000ns': 3,
      '1ms': 0.001,
      // below the millisecond: rounded, as every form of the same value is
      '100ns': 0,
    });
    for (const [text, seconds] of read) expect(durationSeconds(text), text).toBe(seconds);
    expect(durationString(1.5, '1500ms')).toBe('1500ms');
    expect(durationString(1.5, '1s500ms')).toBe('1.5s');
  });

  it('makes equal durations equal', () => {
    expect(durationSeconds('1h')).toBe(durationSeconds('60m'));
    expect(durationSeconds('60m')).toBe(durationSeconds(3600));
  });

  it('rejects what the schema rejects', () => {
    for (const bad of ['2 hours', 'h', '', '-5', '1d', '1.h', '1mss', '5 ms', '1msec']) {
      expect(durationSeconds(bad), bad).toBeUndefined();
    }
    expect(durationSeconds(-5)).toBeUndefined();
    expect(durationSeconds(1.5)).toBeUndefined();
  });
});

describe('the longest duration converge keeps', () => {
  // a duration with units in the form the schema allows, decimals included, up to and near the longest
  const part = fc
    .tuple(
      fc.bigInt({ min: 0n, max: 10n ** 6n }),
      fc.option(fc.stringMatching(/^[0-9]{1,4}$/)),
      fc.constantFrom('h', 'm', 's', 'ms', 'us', 'µs', 'ns'),
    )
    .map(([whole, decimals, unit]) => `${whole}${decimals === null ? '' : `.${decimals}`}${unit}`);
  const written = fc
    .tuple(fc.constantFrom('', '2562000h', '2500000h'), fc.array(part, { minLength: 1, maxLength: 6 }))
    .map(([near, parts]) => near + parts.join(''));

  it('is 2562047h, what a Go duration holds; a field written longer is refused, naming the limit', () => {
    expect(durationSeconds('2562047h47m16s')).toBe(MAX_DURATION_SECONDS);
    expect(durationLimitProblem('2562047h47m16s')).toBeUndefined();
    expect(durationLimitProblem('2562047h47m17s')).toBe(
      'is longer than converge keeps (at most 2562047h, about 292 years: the longest a Go duration holds)',
    );
    // found by the field-table properties: 4.4e12 seconds, whose last millisecond changed on the way back
    expect(durationLimitProblem('0.1s2020430000.030m5000h19400h71113359000m1537200m2733084h')).toMatch(/^is longer/);
    // what is not a duration is not this check's: the schema refuses it, or a number past the limit
    for (const other of ['3600', 'soon', 9_999_999_999, null]) expect(durationLimitProblem(other)).toBeUndefined();
  });

  it('reads back as the same seconds from the form converge sends, whatever its parts', () => {
    fc.assert(
      fc.property(written, (value) => {
        const seconds = durationSeconds(value);
        fc.pre(seconds !== undefined && durationLimitProblem(value) === undefined);
        expect(durationSeconds(durationString(seconds as number, value) as string)).toBe(seconds);
      }),
      { numRuns: 2000 },
    );
  });
});
