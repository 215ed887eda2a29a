import { describe, expect, it } from 'vitest';
import { durationSeconds } from '../../../src/manifest/duration.ts';

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

  it('makes equal durations equal', () => {
    expect(durationSeconds('1h')).toBe(durationSeconds('60m'));
    expect(durationSeconds('60m')).toBe(durationSeconds(3600));
  });

  it('rejects what the schema rejects', () => {
    for (const bad of ['2 hours', 'h', '', '-5', '1d', '1.h']) expect(durationSeconds(bad), bad).toBeUndefined();
    expect(durationSeconds(-5)).toBeUndefined();
    expect(durationSeconds(1.5)).toBeUndefined();
  });
});
