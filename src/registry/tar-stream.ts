/**
 * The uncompressed tar stream of a module's files, with every header field
 * fixed except the path, the size and the executable bit: mtime ARCHIVE_MTIME,
 * uid/gid 0, empty uname/gname, mode 0644 or 0755. Headers are encoded by
 * node-tar's `Header` (ustar); a path too long or not ASCII for ustar gets a
 * pax header holding the path (and the fixed mtime) only: never atime, ctime,
 * dev or inode, which differ between machines.
 *
 * Files are read a few at a time ahead of the one being written, so a large
 * module does not wait on one read at a time, while chunks still come out in
 * the sorted order; only that window of files is in memory.
 */
import { open } from 'node:fs/promises';
import { Header, Pax } from 'tar';
import { ConvergeError } from '../errors.ts';
import { checkOpened, openFlags } from '../manifest/regular-file.ts';
import { ARCHIVE_MTIME, EXECUTABLE_MODE, FILE_MODE, TAR_BLOCK } from './archive-format.ts';
import type { ModuleFile } from './list-module-files.ts';

const READ_AHEAD = 8;

interface FileContent {
  bytes: Buffer;
  executable: boolean;
}

export async function* tarStream(files: readonly ModuleFile[]): AsyncGenerator<Buffer> {
  const pending: Promise<FileContent>[] = [];
  let next = 0;
  const fill = () => {
    while (next < files.length && pending.length < READ_AHEAD) {
      const read = readModuleFile(files[next++]!);
      // reads that fail after an earlier one has already failed must not surface as unhandled rejections
      read.catch(() => {});
      pending.push(read);
    }
  };
  for (const file of files) {
    fill();
    const content = await pending.shift()!;
    yield* entry(file.path, content);
  }
  // end of archive: two zero blocks
  yield Buffer.alloc(TAR_BLOCK * 2);
}

function* entry(path: string, { bytes, executable }: FileContent): Generator<Buffer> {
  const header = new Header({
    path,
    type: 'File',
    mode: executable ? EXECUTABLE_MODE : FILE_MODE,
    uid: 0,
    gid: 0,
    size: bytes.length,
    mtime: ARCHIVE_MTIME,
    uname: '',
    gname: '',
    devmaj: 0,
    devmin: 0,
  });
  if (header.encode()) yield new Pax({ path, mtime: ARCHIVE_MTIME }).encode();
  yield header.block!;
  if (bytes.length === 0) return;
  yield bytes;
  const padding = (TAR_BLOCK - (bytes.length % TAR_BLOCK)) % TAR_BLOCK;
  if (padding > 0) yield Buffer.alloc(padding);
}

async function readModuleFile(file: ModuleFile): Promise<FileContent> {
  try {
    // a file swapped for a link after listing is refused rather than followed,
    // and one swapped for a FIFO is opened without waiting for a writer, then refused as not a file
    const handle = await open(file.absolute, openFlags(true));
    try {
      // mode and bytes from the same open file, so they describe one version of it
      const stat = await handle.stat();
      // what was listed is what the size check (./module-size.ts) counted: a file that grew is not read
      const refused = checkOpened(stat, {
        maxBytes: file.size,
        tooLarge: (size) => `it grew from ${file.size} to ${size} bytes while it was packed`,
      });
      if (refused) throw new Error(refused.code === 'TOO_LARGE' ? refused.error : 'not a regular file');
      // no more than that size, even if the file grows while it is read
      const bytes = Buffer.alloc(stat.size);
      let read = 0;
      while (read < bytes.length) {
        const { bytesRead } = await handle.read(bytes, read, bytes.length - read, read);
        if (bytesRead === 0) break;
        read += bytesRead;
      }
      return { bytes: bytes.subarray(0, read), executable: (stat.mode & 0o111) !== 0 };
    } finally {
      await handle.close();
    }
  } catch (error) {
    throw new ConvergeError('INPUT_INVALID', `cannot read ${file.absolute}: ${(error as Error).message}`, {
      cause: error,
    });
  }
}
