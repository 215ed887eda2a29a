/**
 * The functions templates may call, with the signatures of Vault's
 * sdk/helper/template (the username templates) plus the LDAP engine's LDIF-only
 * `utf16le`. Signatures are declared so the parser can check argument counts
 * and literal types before anything runs, and the renderer can check the rest.
 *
 * truncate_sha256 follows hashicorp/vault sdk/helper/template/funcs.go:
 * a max length of 8 or less is an error; a value no longer than the max length
 * (in bytes) is returned unchanged; otherwise the result is
 * value[:max-8] + the first 8 hex characters of sha256(value[max-8:]), so it is
 * exactly `max` bytes long and the hash covers only the part that was cut.
 */
import { goSprintf } from './go-printf.ts';
import { formatGoTime } from './go-time-layout.ts';
import { checkValueSize } from './limits.ts';
import { TemplateFunctionError } from './template-error.ts';
import { byteLength, concatValues, fromBytes, toBytes, toText, type Value } from './values.ts';

/** What a parameter accepts: `int` an integer, `string` a string or byte string, `any` anything printf can print. */
export type ParamType = 'int' | 'string' | 'any';

/** What a function may use besides its arguments: the clock and the sources of randomness, all replaceable. */
export interface CallContext {
  now(): Date;
  random(length: number): string;
  uuid(): string;
  /** Records a problem that Go would print into the output rather than fail on (printf's %!verb marks). */
  note(message: string): void;
}

export interface TemplateFunction {
  readonly params: readonly ParamType[];
  /** The type of any further arguments (printf's); absent means exactly `params`. */
  readonly variadic?: ParamType;
  /** Only LDIF templates have it (utf16le). */
  readonly ldifOnly?: boolean;
  /** Arguments arrive checked against `params`: ints are integers, strings are string or Uint8Array. */
  call(args: readonly Value[], ctx: CallContext): Value;
}

/** Function name -> implementation. */
export interface TemplateFunctions {
  readonly [name: string]: TemplateFunction;
}

/** Vault's random charset (go-secure-stdlib base62): letters and digits. */
export const RANDOM_CHARSET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/**
 * node:crypto, loaded on first use: `validate` checks templates without running them, and loading
 * crypto is a few ms of every start that imports this module (docs/performance.md, "Start-up").
 */
const crypto = () => process.getBuiltinModule('node:crypto');

export function defaultRandom(length: number): string {
  const { randomInt } = crypto();
  let out = '';
  for (let i = 0; i < length; i++) out += RANDOM_CHARSET[randomInt(RANDOM_CHARSET.length)];
  return out;
}

export const defaultUuid = (): string => crypto().randomUUID();

const str = (v: Value): string | Uint8Array => v as string | Uint8Array;
const int = (v: Value): number => v as number;

const sha256Hex = (v: string | Uint8Array): string => crypto().createHash('sha256').update(toBytes(v)).digest('hex');

/**
 * Go's strings.ToUpper/ToLower map one rune to one rune; JS maps 'ß' to "SS".
 * Keep a character whose case mapping would change its length, as Go does.
 */
function mapRunes(text: string, map: (ch: string) => string): string {
  let out = '';
  for (const ch of text) {
    const mapped = map(ch);
    out += [...mapped].length === 1 ? mapped : ch;
  }
  return out;
}

/** Go's strings.ReplaceAll, including an empty `find`, which inserts `replacement` around every character. */
function replaceAll(text: string, find: string, replacement: string): string {
  // the size is known before the string is built: a short text can grow by the replacement's length per match
  if (find === '') {
    const characters = [...text];
    checkValueSize(text.length + (characters.length + 1) * replacement.length, 'the result');
    return replacement + characters.join(replacement) + (text === '' ? '' : replacement);
  }
  const pieces = text.split(find);
  checkValueSize(text.length + (pieces.length - 1) * (replacement.length - find.length), 'the result');
  return pieces.join(replacement);
}

function truncateBytes(value: string | Uint8Array, maxLen: number): string | Uint8Array {
  // Go slices bytes: a cut inside a character leaves bytes that are not UTF-8, kept as such.
  return byteLength(value) > maxLen ? fromBytes(toBytes(value).subarray(0, maxLen)) : value;
}

const SHA256_HASH_LEN = 8;

export const BUILTIN_FUNCTIONS: TemplateFunctions = Object.freeze({
  random: {
    params: ['int'],
    call: ([n], ctx) => {
      if (int(n!) < 0) throw new TemplateFunctionError(`length must be >= 0 but was ${n}`);
      checkValueSize(int(n!), 'the result');
      return ctx.random(int(n!));
    },
  },
  truncate: {
    params: ['int', 'string'],
    call: ([n, s]) => {
      if (int(n!) <= 0) throw new TemplateFunctionError(`max length must be > 0 but was ${n}`);
      return truncateBytes(str(s!), int(n!));
    },
  },
  truncate_sha256: {
    params: ['int', 'string'],
    call: ([n, s]) => {
      const maxLen = int(n!);
      const value = str(s!);
      if (maxLen <= SHA256_HASH_LEN) throw new TemplateFunctionError(`max length must be > 8 but was ${maxLen}`);
      if (byteLength(value) <= maxLen) return value;
      const bytes = toBytes(value);
      const cut = maxLen - SHA256_HASH_LEN;
      const hash = sha256Hex(bytes.subarray(cut)).slice(0, SHA256_HASH_LEN);
      return concatValues([fromBytes(bytes.subarray(0, cut)), hash]);
    },
  },
  uppercase: { params: ['string'], call: ([s]) => mapRunes(toText(str(s!)), (c) => c.toUpperCase()) },
  lowercase: { params: ['string'], call: ([s]) => mapRunes(toText(str(s!)), (c) => c.toLowerCase()) },
  replace: {
    params: ['string', 'string', 'string'],
    call: ([find, replacement, s]) => replaceAll(toText(str(s!)), toText(str(find!)), toText(str(replacement!))),
  },
  sha256: { params: ['string'], call: ([s]) => sha256Hex(str(s!)) },
  base64: { params: ['string'], call: ([s]) => Buffer.from(toBytes(str(s!))).toString('base64') },
  unix_time: { params: [], call: (_, ctx) => String(Math.floor(ctx.now().getTime() / 1000)) },
  unix_time_millis: { params: [], call: (_, ctx) => String(ctx.now().getTime()) },
  timestamp: { params: ['string'], call: ([layout], ctx) => formatGoTime(ctx.now(), toText(str(layout!))) },
  uuid: { params: [], call: (_, ctx) => ctx.uuid() },
  printf: {
    params: ['string'],
    variadic: 'any',
    call: ([format, ...rest], ctx) => goSprintf(str(format!), rest, (m) => ctx.note(m)),
  },
  utf16le: {
    params: ['string'],
    ldifOnly: true,
    // Active Directory's unicodePwd wants UTF-16LE bytes; they are not text, so they stay bytes for base64.
    call: ([s]) => new Uint8Array(Buffer.from(toText(str(s!)), 'utf16le')),
  },
} satisfies TemplateFunctions);

export const FUNCTION_NAMES: readonly string[] = Object.keys(BUILTIN_FUNCTIONS).sort();
