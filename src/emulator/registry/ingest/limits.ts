/**
 * Bounds on what an uploaded archive may hold. The emulator accepts uploads
 * from anyone holding a token, so an archive is untrusted input: these limits
 * keep a gzip bomb or a tarball of millions of entries from exhausting memory.
 * Real modules are far below them (the largest fixture is a few KiB).
 */

/** The whole uncompressed tar stream (headers included); a bigger archive is refused. */
export const MAX_UNCOMPRESSED_BYTES = 50 * 1024 * 1024;

/** Entries of any kind (files, directories, links). */
export const MAX_ENTRIES = 10_000;

export const MIB = 1024 * 1024;
