/**
 * The fixed choices that make a module archive reproducible, in one place so
 * that packing, the digest and the tests agree on them. Changing any value
 * here changes the bytes (and so the sha256) of every module converge packs:
 * a published version would then look "changed" to the plan.
 */

/**
 * Every entry's mtime: 1980-01-01T00:00:00Z rather than 0. Both are accepted
 * by tar readers; 1980 is also the earliest time a zip can hold, so tools that
 * repack a module into a zip keep it, and nothing mistakes it for "unset".
 */
export const ARCHIVE_MTIME = new Date(Date.UTC(1980, 0, 1));

/** Regular files; the owner can write so an extracted module can be edited. */
export const FILE_MODE = 0o644;

/** Files with any executable bit set on disk (scripts a module ships). */
export const EXECUTABLE_MODE = 0o755;

/**
 * Fixed deflate settings. 6 is zlib's default, written out so a change of
 * Node's default cannot change the bytes; memLevel, windowBits and strategy
 * are zlib's defaults too, pinned for the same reason.
 */
export const GZIP_OPTIONS = { level: 6, memLevel: 8, windowBits: 15, strategy: 0 } as const;

/**
 * The gzip header's OS byte. zlib writes the OS it was built for (3 on Unix,
 * 10 on Windows builds), which would make the same files pack to different
 * bytes on Windows; converge always writes 3.
 */
export const GZIP_OS_UNIX = 3;

/** Tar's block size: headers are one block, bodies are padded to a multiple. */
export const TAR_BLOCK = 512;
