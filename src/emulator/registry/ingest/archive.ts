/**
 * Reads an uploaded module archive (a gzip tarball) in memory into its regular
 * files, keyed by clean relative path. The gzip layer is undone with node's
 * zlib rather than by node-tar's own sniffing because zlib can stop at a hard
 * output cap (`maxOutputLength`): a gzip bomb is refused after 50 MiB instead
 * of after node-tar's ratio check (1000×, i.e. gigabytes for a large upload).
 * node-tar then reads the plain tar stream: headers, pax and GNU long names.
 */
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { Parser, type ReadEntry } from 'tar';
import { isGzip } from '../../../registry/gzip.ts';
import { type ArchiveLinks, checkLinks } from './archive-links.ts';
import { entryPath } from './archive-paths.ts';
import { IngestError } from './errors.ts';
import { MAX_ENTRIES, MAX_UNCOMPRESSED_BYTES, MIB } from './limits.ts';

const gunzipAsync = promisify(gunzip);

/** Entry types whose bytes are a file's content; links, devices and FIFOs carry none worth reading. */
const FILE_TYPES = new Set(['File', 'OldFile', 'ContiguousFile']);

/** zstd's magic number: node-tar would decompress it without our cap. */
const isZstd = (b: Buffer): boolean => b.length >= 4 && b.readUInt32LE(0) === 0xfd2fb528;

const tooLarge = () =>
  new IngestError(`the archive is larger than ${MAX_UNCOMPRESSED_BYTES / MIB} MiB uncompressed`, 'archive');

/** The archive's regular files, path → bytes. Later duplicates win, as when extracting. */
export async function readArchive(archive: Buffer): Promise<Map<string, Buffer>> {
  if (!isGzip(archive)) throw new IngestError('the archive is not a gzip tarball', 'archive');
  const tarBytes = await gunzipped(archive);
  // A gzip inside the gzip would be decompressed by node-tar, past our cap.
  if (isGzip(tarBytes) || isZstd(tarBytes)) {
    throw new IngestError('the archive is not a gzip tarball (its gzip holds another compressed stream)', 'archive');
  }
  // node-tar calls a tarball of nothing but end-of-archive blocks unrecognised; it is just empty.
  if (tarBytes.length >= 512 && tarBytes.every((byte) => byte === 0)) return new Map();
  return untar(tarBytes);
}

async function gunzipped(archive: Buffer): Promise<Buffer> {
  try {
    return await gunzipAsync(archive, { maxOutputLength: MAX_UNCOMPRESSED_BYTES });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw tooLarge();
    throw new IngestError(`the archive is not a gzip tarball: ${(error as Error).message}`, 'archive');
  }
}

function untar(tarBytes: Buffer): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  const links: ArchiveLinks = { symbolic: new Map(), hard: new Map() };
  let entries = 0;
  return new Promise((resolve, reject) => {
    // Strict: a damaged header is an error, not a warning to skip past.
    const parser = new Parser({ strict: true, onReadEntry });
    let failed = false;
    const fail = (error: unknown) => {
      if (failed) return;
      failed = true;
      parser.abort(error instanceof Error ? error : new Error(String(error)));
      reject(error);
    };

    function onReadEntry(entry: ReadEntry): void {
      try {
        entries += 1;
        if (entries > MAX_ENTRIES)
          throw new IngestError(`the archive holds more than ${MAX_ENTRIES} entries`, 'archive');
        const path = entryPath(entry.path);
        if (entry.linkpath) {
          if (entry.type === 'SymbolicLink') links.symbolic.set(path, entry.linkpath);
          else links.hard.set(path, entry.linkpath);
        }
        if (!FILE_TYPES.has(entry.type) || path === '') {
          entry.resume();
          return;
        }
        const chunks: Buffer[] = [];
        entry.on('data', (chunk: Buffer) => chunks.push(chunk));
        entry.on('end', () => files.set(path, Buffer.concat(chunks)));
      } catch (error) {
        entry.resume();
        fail(error);
      }
    }

    parser.on('error', (error: Error) => {
      if (error instanceof IngestError) return fail(error);
      // With no entry read, the bytes were never a tarball; otherwise it is a damaged one.
      const reason =
        entries === 0
          ? 'the archive is not a gzip tarball (no tar data inside the gzip)'
          : `the tarball is damaged: ${error.message}`;
      fail(new IngestError(reason.replace(/TAR_[A-Z_]+: /, ''), 'archive'));
    });
    parser.on('end', () => {
      if (failed) return;
      try {
        // resolved once every link is known: a chain may name links that come later
        checkLinks(links);
        resolve(files);
      } catch (error) {
        fail(error);
      }
    });
    parser.end(tarBytes);
  });
}
