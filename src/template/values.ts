/**
 * The values that flow through a template pipeline. Go strings are byte
 * strings, and some functions produce bytes that are not UTF-8 text (utf16le,
 * a truncate that cuts a character in half, "\xff" literals). Those stay a
 * Uint8Array so that `| base64` and `| sha256` see the exact bytes; everything
 * that is valid UTF-8 is kept as an ordinary JS string.
 */

export type Value = string | number | boolean | Uint8Array;

/** The Go type a value stands for, as named in messages and printf's `%!verb(type=value)`. */
export type GoType = 'string' | 'int' | 'bool';

const encoder = new TextEncoder();
// ignoreBOM keeps a leading U+FEFF: Go strings keep every byte, so decoding must too.
const strictDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const lenientDecoder = new TextDecoder('utf-8', { ignoreBOM: true });

export function goTypeOf(value: Value): GoType {
  if (typeof value === 'number') return 'int';
  if (typeof value === 'boolean') return 'bool';
  return 'string';
}

export function isByteString(value: Value): value is string | Uint8Array {
  return typeof value === 'string' || value instanceof Uint8Array;
}

/** The UTF-8 bytes of a string value (bytes pass through untouched). */
export function toBytes(value: string | Uint8Array): Uint8Array {
  return typeof value === 'string' ? encoder.encode(value) : value;
}

/** Bytes back to a value: a JS string when they are valid UTF-8, else the bytes themselves. */
export function fromBytes(bytes: Uint8Array): string | Uint8Array {
  try {
    return strictDecoder.decode(bytes);
  } catch {
    return bytes;
  }
}

/** Text for functions that work on characters; invalid UTF-8 becomes U+FFFD, as Go's strings.Map does. */
export function toText(value: string | Uint8Array): string {
  return typeof value === 'string' ? value : lenientDecoder.decode(value);
}

/** Length in bytes, which is what Go's len() measures and so what truncate counts. */
export function byteLength(value: string | Uint8Array): number {
  return toBytes(value).length;
}

/** Joins output pieces, dropping to bytes only when some piece is not text. */
export function concatValues(parts: ReadonlyArray<string | Uint8Array>): string | Uint8Array {
  if (parts.every((p) => typeof p === 'string')) return parts.join('');
  const chunks = parts.map(toBytes);
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return fromBytes(out);
}

/** How an action prints a value: Go's default formatting (%v) for our types. */
export function printValue(value: Value): string | Uint8Array {
  if (typeof value === 'number') return String(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return value;
}
