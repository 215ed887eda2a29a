/**
 * Whether bytes begin as gzip does (RFC 1952's magic 0x1f 0x8b): how a
 * manifest's `archive:` is checked offline, read before an upload, and
 * recognised by the emulator's ingestion, so that a zip or a plain tar is
 * named as such instead of failing later as a broken tar.
 */
export function isGzip(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
}
