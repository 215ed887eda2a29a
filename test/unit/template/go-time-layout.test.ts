import { describe, expect, it } from 'vitest';
import { formatGoTime } from '../../../src/template/go-time-layout.ts';
import { FIXED_NOW, render } from './helpers.ts';

// FIXED_NOW is Tuesday 2024-01-02 15:04:05.123 UTC
const afternoon = FIXED_NOW;
const morning = new Date(Date.UTC(2023, 10, 9, 0, 7, 9, 0)); // Thursday 2023-11-09 00:07:09.000 UTC

describe('Go reference-time layouts', () => {
  it.each([
    ['2006-01-02T15:04:05Z07:00', '2024-01-02T15:04:05Z'],
    ['2006-01-02T15:04:05.000Z07:00', '2024-01-02T15:04:05.123Z'],
    ['2006-01-02 15:04:05 -0700 MST', '2024-01-02 15:04:05 +0000 UTC'],
    ['Mon Jan _2 15:04:05 2006', 'Tue Jan  2 15:04:05 2024'],
    ['Monday, January 2, 2006', 'Tuesday, January 2, 2024'],
    ['02/01/06 03:04:05 PM', '02/01/24 03:04:05 PM'],
    ['3:4:5 pm', '3:4:5 pm'],
    ['-07:00 -07 Z0700 Z07', '+00:00 +00 Z Z'],
    ['.000000', '.123000'],
    ['.999999', '.123'],
    ['05,000', '05,123'],
    ['002 __2', '002   2'],
    ['_2006', '_2024'],
  ])('%s', (layout, expected) => {
    expect(formatGoTime(afternoon, layout)).toBe(expected);
  });

  it('pads and 12-hour clocks in the morning', () => {
    expect(formatGoTime(morning, '1/2/06 3:04:05PM Mon')).toBe('11/9/23 12:07:09AM Thu');
    expect(formatGoTime(morning, '01-02 03 _2 Jan')).toBe('11-09 12  9 Nov');
    expect(formatGoTime(morning, '002')).toBe('313');
  });

  it('drops a .999 fraction entirely when it is zero, keeps a .000 one', () => {
    expect(formatGoTime(morning, '05.999|05.000')).toBe('09|09.000');
  });

  it('leaves text that is not a layout element alone', () => {
    expect(formatGoTime(afternoon, 'v_T:x')).toBe('v_T:x');
    // "Janet" is not a month: Jan followed by a lower-case letter is text; "Month" likewise
    expect(formatGoTime(afternoon, 'Janet Month')).toBe('Janet Month');
    // a fraction must not be followed by another digit
    expect(formatGoTime(afternoon, '.0001')).toBe('.0001');
  });

  it('is what the timestamp function prints', () => {
    expect(render('{{ timestamp "Jan 2 2006 15:04:05.000 MST" }}')).toBe('Jan 2 2024 15:04:05.123 UTC');
  });
});
