/**
 * Go's time.Format layouts for the `timestamp` function. Go describes a layout
 * by writing its reference time, Mon Jan 2 15:04:05 MST 2006 (-0700), the way
 * the output should look; this scans a layout for those elements in the same
 * order and with the same precedence as Go's time.nextStdChunk, so that
 * "2006-01-02T15:04:05Z07:00" or "Jan _2 3:04PM" print what Vault prints.
 *
 * Times are formatted in UTC: the engine runs with a UTC clock in practice,
 * and a fixed zone keeps the emulator and `validate` deterministic. So MST
 * prints "UTC", -0700 prints "+0000" and Z07:00 prints "Z".
 */

const longMonths = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const longDays = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** One element of a layout; `render` prints it for a UTC date. */
type Element = (d: Date) => string;

const pad = (n: number, width: number, fill = '0'): string => String(n).padStart(width, fill);

function dayOfYear(d: Date): number {
  return Math.floor((d.getTime() - Date.UTC(d.getUTCFullYear(), 0, 1)) / 86_400_000) + 1;
}

function hour12(d: Date): number {
  const h = d.getUTCHours() % 12;
  return h === 0 ? 12 : h;
}

/** Fractional seconds: `.000` always prints the digits, `.999` drops trailing zeros (and the dot if nothing is left). */
function fraction(separator: string, digits: number, trimZeros: boolean): Element {
  return (d) => {
    // JS dates carry milliseconds; the nanoseconds below them are zero.
    let frac = (pad(d.getUTCMilliseconds(), 3) + '000000').slice(0, digits);
    if (trimZeros) frac = frac.replace(/0+$/, '');
    return frac === '' ? '' : separator + frac;
  };
}

const fixed =
  (text: string): Element =>
  () =>
    text;

/** The zone elements: the offset is always zero, so only the spelling differs. */
function zone(layout: string): Element {
  if (layout.startsWith('Z')) return fixed('Z');
  // -0700 -> +0000, -07:00:00 -> +00:00:00, -07 -> +00
  return fixed('+' + layout.slice(1).replace(/[0-9]/g, '0'));
}

const zoneLayouts = [
  '-070000',
  '-07:00:00',
  '-0700',
  '-07:00',
  '-07',
  'Z070000',
  'Z07:00:00',
  'Z0700',
  'Z07:00',
  'Z07',
];

const startsWithLower = (s: string): boolean => s.length > 0 && s[0]! >= 'a' && s[0]! <= 'z';

/** The element at layout[i], as Go's nextStdChunk would find it, or undefined when layout[i] is literal text. */
function elementAt(layout: string, i: number): { element: Element; length: number } | undefined {
  const rest = layout.slice(i);
  const at = (length: number, element: Element) => ({ element, length });
  switch (rest[0]) {
    case 'J':
      if (rest.startsWith('January')) return at(7, (d) => longMonths[d.getUTCMonth()]!);
      if (rest.startsWith('Jan') && !startsWithLower(rest.slice(3))) {
        return at(3, (d) => longMonths[d.getUTCMonth()]!.slice(0, 3));
      }
      return undefined;
    case 'M':
      if (rest.startsWith('Monday')) return at(6, (d) => longDays[d.getUTCDay()]!);
      if (rest.startsWith('Mon') && !startsWithLower(rest.slice(3))) {
        return at(3, (d) => longDays[d.getUTCDay()]!.slice(0, 3));
      }
      if (rest.startsWith('MST')) return at(3, fixed('UTC'));
      return undefined;
    case '0':
      switch (rest[1]) {
        case '1':
          return at(2, (d) => pad(d.getUTCMonth() + 1, 2));
        case '2':
          return at(2, (d) => pad(d.getUTCDate(), 2));
        case '3':
          return at(2, (d) => pad(hour12(d), 2));
        case '4':
          return at(2, (d) => pad(d.getUTCMinutes(), 2));
        case '5':
          return at(2, (d) => pad(d.getUTCSeconds(), 2));
        case '6':
          return at(2, (d) => pad(d.getUTCFullYear() % 100, 2));
      }
      if (rest.startsWith('002')) return at(3, (d) => pad(dayOfYear(d), 3));
      return undefined;
    case '1':
      if (rest[1] === '5') return at(2, (d) => pad(d.getUTCHours(), 2));
      return at(1, (d) => String(d.getUTCMonth() + 1));
    case '2':
      if (rest.startsWith('2006')) return at(4, (d) => pad(d.getUTCFullYear(), 4));
      return at(1, (d) => String(d.getUTCDate()));
    case '_':
      // "_2006" is a literal underscore before the year, not a padded day.
      if (rest.startsWith('_2006')) return at(1, fixed('_'));
      if (rest.startsWith('_2')) return at(2, (d) => pad(d.getUTCDate(), 2, ' '));
      if (rest.startsWith('__2')) return at(3, (d) => pad(dayOfYear(d), 3, ' '));
      return undefined;
    case '3':
      return at(1, (d) => String(hour12(d)));
    case '4':
      return at(1, (d) => String(d.getUTCMinutes()));
    case '5':
      return at(1, (d) => String(d.getUTCSeconds()));
    case 'P':
      if (rest[1] === 'M') return at(2, (d) => (d.getUTCHours() >= 12 ? 'PM' : 'AM'));
      return undefined;
    case 'p':
      if (rest[1] === 'm') return at(2, (d) => (d.getUTCHours() >= 12 ? 'pm' : 'am'));
      return undefined;
    case '-':
    case 'Z': {
      const z = zoneLayouts.find((l) => rest.startsWith(l));
      return z ? at(z.length, zone(z)) : undefined;
    }
    case '.':
    case ',': {
      const digit = rest[1];
      if (digit !== '0' && digit !== '9') return undefined;
      let j = 1;
      while (rest[j] === digit) j++;
      // Only a run of 0s or 9s that is not followed by another digit is a fraction.
      const next = rest[j];
      if (next !== undefined && next >= '0' && next <= '9') return undefined;
      return at(j, fraction(rest[0], j - 1, digit === '9'));
    }
  }
  return undefined;
}

/** time.Time.Format for `date` in UTC. */
export function formatGoTime(date: Date, layout: string): string {
  let out = '';
  for (let i = 0; i < layout.length; ) {
    const found = elementAt(layout, i);
    if (found) {
      out += found.element(date);
      i += found.length;
    } else {
      out += layout[i];
      i++;
    }
  }
  return out;
}
