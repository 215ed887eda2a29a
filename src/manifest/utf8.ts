/**
 * Manifests and values files are UTF-8 (YAML's own encoding for converge). A file in another
 * encoding (Latin-1, UTF-16) decoded as UTF-8 would have its bytes replaced by U+FFFD, silently,
 * and that text sent; it is refused instead, at the first byte that is not UTF-8.
 */
import { isUtf8 } from 'node:buffer';

/** Why the bytes are not UTF-8 text, at the line and column of the first bad byte; undefined when they are. */
export function utf8Problem(bytes: Uint8Array): { line: number; col: number; message: string } | undefined {
  if (isUtf8(bytes)) return undefined;
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
    return { line: 1, col: 1, message: 'the file is UTF-16 text: save it as UTF-8' };
  }
  const at = firstInvalid(bytes);
  const lineStart = bytes.lastIndexOf(0x0a, at - 1) + 1;
  let line = 1;
  for (let i = 0; i < lineStart; i++) if (bytes[i] === 0x0a) line++;
  const col = new TextDecoder().decode(bytes.subarray(lineStart, at)).length + 1;
  const byte = (bytes[at] ?? 0).toString(16).toUpperCase().padStart(2, '0');
  return {
    line,
    col,
    message: `the byte 0x${byte} here is not UTF-8 (a file in another encoding?): save the file as UTF-8`,
  };
}

/** The offset of the first byte that starts no valid UTF-8 sequence (RFC 3629: no overlong form, no surrogate). */
function firstInvalid(bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length; ) {
    const b = bytes[i] as number;
    const length =
      b < 0x80 ? 1 : b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    if (length === 0) return i;
    const second = bytes[i + 1] ?? 0;
    const [low, high] =
      b === 0xe0
        ? [0xa0, 0xbf]
        : b === 0xed
          ? [0x80, 0x9f]
          : b === 0xf0
            ? [0x90, 0xbf]
            : b === 0xf4
              ? [0x80, 0x8f]
              : [0x80, 0xbf];
    if (length > 1 && (second < low || second > high)) return i;
    for (let k = 2; k < length; k++) if (((bytes[i + k] ?? 0) & 0xc0) !== 0x80) return i;
    i += length;
  }
  return 0;
}
