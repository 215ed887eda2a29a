import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  boolean,
  duration,
  durationString,
  formatDuration,
  integer,
  lowerCase,
  nullIfEmpty,
  pem,
} from '../../../src/providers/shared/normalize.ts';

/** Any whole number of seconds, written in any unit that divides it. */
const writtenDuration = fc
  .tuple(fc.integer({ min: 0, max: 10_000 }), fc.constantFrom(3600, 60, 1))
  .chain(([amount, unit]) => {
    const seconds = amount * unit;
    const forms: Array<string | number> = [seconds, String(seconds), `${seconds}s`];
    if (seconds % 60 === 0) forms.push(`${seconds / 60}m`);
    if (seconds % 3600 === 0) forms.push(`${seconds / 3600}h`);
    const hours = Math.floor(seconds / 3600);
    const rest = seconds % 3600;
    if (hours > 0 && rest % 60 === 0 && rest > 0) forms.push(`${hours}h${rest / 60}m`);
    return fc.record({ seconds: fc.constant(seconds), form: fc.constantFrom(...forms) });
  });

describe('duration', () => {
  it('reads every way of writing the same duration as the same number of seconds', () => {
    fc.assert(fc.property(writtenDuration, ({ seconds, form }) => duration(form) === seconds));
  });

  it('treats a bare integer as seconds and knows fractional units', () => {
    expect(duration('3h')).toBe(10800);
    expect(duration('180m')).toBe(10800);
    expect(duration(10800)).toBe(10800);
    expect(duration('10800')).toBe(10800);
    expect(duration('1.5h')).toBe(5400);
    expect(duration(' 2h ')).toBe(7200);
  });

  it('leaves a value it cannot read unchanged, so it shows as a difference', () => {
    expect(duration('two hours')).toBe('two hours');
    expect(duration(null)).toBeNull();
  });

  it('formats seconds back into a form that reads equal', () => {
    fc.assert(fc.property(fc.nat(10_000_000), (seconds) => duration(formatDuration(seconds)) === seconds));
    expect(formatDuration(7200)).toBe('2h');
    expect(formatDuration(5400)).toBe('90m');
    expect(formatDuration(45)).toBe('45s');
    expect(formatDuration(0)).toBe('0s');
  });
});

describe('durationString (the wire form of string-typed durations)', () => {
  it('sends the string the user wrote when it is one number and one unit', () => {
    expect(durationString(10800, '180m')).toBe('180m');
    expect(durationString(5400, '1.5h')).toBe('1.5h');
  });

  it('sends a compound duration as one unit, which is all the API takes', () => {
    expect(durationString(5400, '1h30m')).toBe('90m');
    expect(durationString(10800, '2h60m')).toBe('3h');
  });

  it('adds a unit to a bare number of seconds, and formats defaults', () => {
    expect(durationString(10800, 10800)).toBe('3h');
    expect(durationString(10800, '10800')).toBe('3h');
    expect(durationString(7200, undefined)).toBe('2h');
  });
});

describe('pem', () => {
  const lf = '-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIU\nAbCd==\n-----END CERTIFICATE-----';

  it('ignores line endings, indentation, blank lines and surrounding whitespace', () => {
    expect(pem(lf.replaceAll('\n', '\r\n'))).toBe(lf);
    expect(pem(`\n  ${lf.replaceAll('\n', '\n  ')}\n\n`)).toBe(lf);
    expect(pem(`${lf}\n`)).toBe(pem(lf));
  });

  it('still tells two certificates apart', () => {
    expect(pem(lf)).not.toBe(pem(lf.replace('AbCd', 'AbCe')));
  });
});

describe('scalar normalizers', () => {
  it('reads booleans and integers sent as strings', () => {
    expect(boolean('true')).toBe(true);
    expect(boolean('false')).toBe(false);
    expect(boolean(true)).toBe(true);
    expect(boolean('yes')).toBe('yes');
    expect(integer('587')).toBe(587);
    expect(integer(30)).toBe(30);
    expect(integer('30s')).toBe('30s');
  });

  it('compares checksums without case, and empty optional strings as null', () => {
    expect(lowerCase(' ABCDEF0123 ')).toBe('abcdef0123');
    expect(nullIfEmpty('')).toBeNull();
    expect(nullIfEmpty('old')).toBe('old');
  });
});
