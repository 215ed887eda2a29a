/**
 * Gzip with a header that depends on nothing but the settings: node:zlib
 * already writes mtime 0 and no file name; this pins the compression settings
 * and overwrites the one byte zlib takes from the build (the OS byte). The
 * header is not covered by gzip's CRC, so rewriting that byte is safe.
 *
 * zlib's output does not depend on how its input is split into chunks, so the
 * streamed result equals compressing the whole tar at once.
 *
 * Limit: the deflate bytes are those of the zlib Node is built with
 * (`process.versions.zlib`). Official Node builds bundle the same zlib on every
 * platform, but a Node linked against another zlib (a distribution's shared
 * library) may compress the same tar to different bytes, and so a different
 * sha256; the tar inside stays identical.
 */
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { GZIP_OPTIONS, GZIP_OS_UNIX } from './archive-format.ts';

const OS_BYTE = 9;

/** Compresses `source` and hands each compressed chunk, in order, to `sink`. */
export async function gzipTo(source: AsyncIterable<Buffer>, sink: (chunk: Buffer) => void): Promise<void> {
  let offset = 0;
  await pipeline(source, createGzip(GZIP_OPTIONS), async (compressed: AsyncIterable<Buffer>) => {
    for await (const chunk of compressed) {
      if (offset <= OS_BYTE && OS_BYTE < offset + chunk.length) chunk[OS_BYTE - offset] = GZIP_OS_UNIX;
      offset += chunk.length;
      sink(chunk);
    }
  });
}
