/**
 * The subset of Go's fmt.Sprintf behind the `printf` template function:
 * verbs %s %v %d %q %x %X and %%, with the flags `-` `+` `0` `#`, a width and
 * a precision. Mistakes that Go's fmt prints into the output instead of
 * failing (a missing argument, a verb of the wrong type, an extra argument)
 * print the same `%!...` marks here, and are also reported through `note` so
 * that `converge validate` can flag them. Verbs outside the subset (%f, %t,
 * %c, argument indexes such as %[1]s, * widths) fail with a clear error
 * rather than print something Go would not.
 */
import { quoteRune, quoteString } from './go-strings.ts';
import { checkValueSize, sizeOf } from './limits.ts';
import { TemplateFunctionError } from './template-error.ts';
import { concatValues, goTypeOf, printValue, toBytes, toText, type Value } from './values.ts';

const supportedVerbs = 's v d q x X';

interface Spec {
  minus: boolean;
  plus: boolean;
  zero: boolean;
  sharp: boolean;
  width: number | undefined;
  precision: number | undefined;
  verb: string;
}

/** Pads to the width in characters; `0` pads with zeros after any sign, as Go does for numbers and strings. */
function pad(text: string, spec: Spec): string {
  const length = [...text].length;
  if (spec.width === undefined || length >= spec.width) return text;
  const fill = spec.width - length;
  if (spec.minus) return text + ' '.repeat(fill);
  if (spec.zero) {
    const sign = /^[+-]/.test(text) ? text[0]! : '';
    return sign + '0'.repeat(fill) + text.slice(sign.length);
  }
  return ' '.repeat(fill) + text;
}

function hexOfBytes(bytes: Uint8Array, upper: boolean): string {
  const hex = Buffer.from(bytes).toString('hex');
  return upper ? hex.toUpperCase() : hex;
}

function formatInteger(n: number, spec: Spec): string {
  const negative = n < 0;
  let digits = Math.abs(n).toString(spec.verb === 'd' ? 10 : 16);
  if (spec.verb === 'X') digits = digits.toUpperCase();
  if (spec.precision !== undefined) digits = digits.padStart(spec.precision, '0');
  const prefix = spec.sharp && spec.verb !== 'd' ? (spec.verb === 'X' ? '0X' : '0x') : '';
  return (negative ? '-' : spec.plus ? '+' : '') + prefix + digits;
}

/** The bad-verb mark Go prints, e.g. %!d(string=abc). */
function badVerb(spec: Spec, arg: Value): string {
  return `%!${spec.verb}(${goTypeOf(arg)}=${toText(printValue(arg))})`;
}

/** One verb applied to one argument: text, or bytes when a byte string passes through %s/%v untouched. */
function formatArg(spec: Spec, arg: Value, note: (message: string) => void): string | Uint8Array {
  const type = goTypeOf(arg);
  const bad = (): string => {
    note(`printf: %${spec.verb} cannot format a ${type} (${toText(printValue(arg))})`);
    return badVerb(spec, arg);
  };
  switch (spec.verb) {
    case 's':
    case 'v': {
      if (typeof arg === 'number')
        return spec.verb === 'v' ? pad(formatInteger(arg, { ...spec, verb: 'd' }), spec) : bad();
      if (typeof arg === 'boolean') return spec.verb === 'v' ? pad(String(arg), spec) : bad();
      if (spec.verb === 'v' && spec.sharp) return pad(quoteString(arg), spec);
      if (spec.precision === undefined && spec.width === undefined) return arg;
      const text = toText(arg);
      const cut = spec.precision === undefined ? text : [...text].slice(0, spec.precision).join('');
      return pad(cut, spec);
    }
    case 'd':
      return typeof arg === 'number' ? pad(formatInteger(arg, spec), spec) : bad();
    case 'q':
      if (typeof arg === 'number') return pad(quoteRune(arg), spec);
      return typeof arg === 'boolean' ? bad() : pad(quoteString(arg), spec);
    default: {
      // x and X
      if (typeof arg === 'number') return pad(formatInteger(arg, spec), spec);
      if (typeof arg === 'boolean') return bad();
      let bytes = toBytes(arg);
      if (spec.precision !== undefined) bytes = bytes.subarray(0, spec.precision);
      const prefix = spec.sharp ? (spec.verb === 'X' ? '0X' : '0x') : '';
      return pad(prefix + hexOfBytes(bytes, spec.verb === 'X'), spec);
    }
  }
}

/** Reads the flags, width, precision and verb after a `%` at format[i]; returns the spec and where it ends. */
function readSpec(format: string, i: number): { spec: Spec | undefined; end: number } {
  const spec: Spec = {
    minus: false,
    plus: false,
    zero: false,
    sharp: false,
    width: undefined,
    precision: undefined,
    verb: '',
  };
  let j = i + 1;
  for (; j < format.length; j++) {
    const c = format[j];
    if (c === '-') {
      spec.minus = true;
      spec.zero = false;
    } else if (c === '+') spec.plus = true;
    else if (c === '0') spec.zero = !spec.minus;
    else if (c === '#') spec.sharp = true;
    else if (c === ' ') throw new TemplateFunctionError('printf: the space flag is not supported');
    else break;
  }
  const width = /^[0-9]+/.exec(format.slice(j));
  if (width) {
    spec.width = Number(width[0]);
    checkValueSize(spec.width, `printf: the width ${width[0]}`);
    j += width[0].length;
  }
  if (format[j] === '.') {
    const precision = /^[0-9]*/.exec(format.slice(j + 1))![0];
    spec.precision = Number(precision || '0');
    checkValueSize(spec.precision, `printf: the precision ${precision}`);
    j += 1 + precision.length;
  }
  if (j >= format.length) return { spec: undefined, end: j };
  const verb = String.fromCodePoint(format.codePointAt(j)!);
  if (verb === '[' || verb === '*') {
    throw new TemplateFunctionError(`printf: ${verb === '[' ? 'argument indexes' : '* widths'} are not supported`);
  }
  spec.verb = verb;
  return { spec, end: j + verb.length };
}

/** fmt.Sprintf(format, args...) for the supported verbs. */
export function goSprintf(
  format: string | Uint8Array,
  args: readonly Value[],
  note: (message: string) => void,
): string | Uint8Array {
  const text = toText(format);
  const parts: Array<string | Uint8Array> = [];
  // many verbs over one large argument add up: the total is checked as the parts come
  let size = 0;
  const push = (part: string | Uint8Array) => {
    size += sizeOf(part);
    checkValueSize(size, 'the result');
    parts.push(part);
  };
  let argIndex = 0;
  let literalStart = 0;
  for (let i = 0; i < text.length; ) {
    if (text[i] !== '%') {
      i++;
      continue;
    }
    push(text.slice(literalStart, i));
    const { spec, end } = readSpec(text, i);
    i = end;
    literalStart = end;
    if (!spec) {
      note('printf: the format ends with a lone %');
      push('%!(NOVERB)');
      break;
    }
    if (spec.verb === '%') {
      push('%');
      continue;
    }
    if (!supportedVerbs.split(' ').includes(spec.verb)) {
      throw new TemplateFunctionError(`printf: verb %${spec.verb} is not supported (supported: %s %v %d %q %x %X %%)`);
    }
    const arg = args[argIndex++];
    if (arg === undefined) {
      note(`printf: %${spec.verb} has no argument`);
      push(`%!${spec.verb}(MISSING)`);
      continue;
    }
    push(formatArg(spec, arg, note));
  }
  push(text.slice(literalStart));
  if (argIndex < args.length) {
    const extra = args.slice(argIndex);
    note(`printf: ${extra.length} argument(s) more than the format uses`);
    push(`%!(EXTRA ${extra.map((a) => `${goTypeOf(a)}=${toText(printValue(a))}`).join(', ')})`);
  }
  return concatValues(parts);
}
