/**
 * Reading a file that the input names, in bounded time and memory
 * (docs/security.md, "Reading input"): only a regular file is read, judged on
 * the open descriptor (so a FIFO swapped in after a check cannot hang the
 * run: it is opened without blocking and refused), and only up to a size
 * known before the first byte is read. A FIFO, socket or device that looks
 * like input is an error, never skipped and never waited on.
 */
import { closeSync, constants, fstatSync, openSync, readSync, realpathSync, type Stats } from 'node:fs';
import { isAbsolute, relative, sep } from 'node:path';

export const NOT_REGULAR = 'is not a regular file (a device, FIFO or socket)';

/** Why `stats` is not something to read as a file, or undefined when it is one. */
export function notRegular(stats: Stats): string | undefined {
  if (stats.isFile()) return undefined;
  if (stats.isDirectory()) return 'is a directory';
  return NOT_REGULAR;
}

export interface ReadLimit {
  maxBytes: number;
  /**
   * How a file over the limit is described: `it holds N bytes, more than M (setting)`; left out
   * by a caller that words the refusal itself from the size.
   */
  tooLarge?: (size: number) => string;
  /** Refuse a symbolic link as the last component instead of following it. */
  noFollow?: boolean;
}

/**
 * How input is opened: without waiting for a writer, so a FIFO swapped in is opened and then
 * refused (`checkOpened`) instead of hanging the run; with `noFollow`, a symbolic link as the
 * last component is refused rather than followed (no O_NOFOLLOW on Windows).
 */
export function openFlags(noFollow = false): number {
  return constants.O_RDONLY | constants.O_NONBLOCK | (noFollow ? (constants.O_NOFOLLOW ?? 0) : 0);
}

/**
 * Why a file was not read: `error` for messages, `code` for callers that treat a case apart
 * (a missing file, one over the limit, with its `size`), so none compares message text.
 */
export type ReadRefusal =
  | { code: 'TOO_LARGE'; error: string; size: number }
  | { code: 'ENOENT' | 'NOT_REGULAR' | 'IS_DIRECTORY' | 'SYMLINK' | 'UNREADABLE'; error: string };

/** Why the file opened, judged on its descriptor's `stats`, is not to be read: not a regular file, or over the limit. */
export function checkOpened(stats: Stats, limit: Pick<ReadLimit, 'maxBytes' | 'tooLarge'>): ReadRefusal | undefined {
  const why = notRegular(stats);
  if (why) return { code: stats.isDirectory() ? 'IS_DIRECTORY' : 'NOT_REGULAR', error: why };
  if (stats.size <= limit.maxBytes) return undefined;
  const error = limit.tooLarge?.(stats.size) ?? `it holds ${stats.size} bytes, more than ${limit.maxBytes}`;
  return { code: 'TOO_LARGE', error, size: stats.size };
}

/** The whole file, or why it was not read. */
export function readRegularFile(path: string, limit: ReadLimit): { bytes: Buffer } | ReadRefusal {
  let fd: number;
  try {
    fd = openSync(path, openFlags(limit.noFollow));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (limit.noFollow && code === 'ELOOP') return { code: 'SYMLINK', error: 'is a symbolic link' };
    return fsRefusal(error as NodeJS.ErrnoException);
  }
  try {
    const stats = fstatSync(fd);
    const refused = checkOpened(stats, limit);
    if (refused) return refused;
    const bytes = Buffer.alloc(stats.size);
    let read = 0;
    while (read < bytes.length) {
      const n = readSync(fd, bytes, read, bytes.length - read, read);
      if (n === 0) break;
      read += n;
    }
    return { bytes: bytes.subarray(0, read) };
  } catch (error) {
    return fsRefusal(error as NodeJS.ErrnoException);
  } finally {
    closeSync(fd);
  }
}

function fsRefusal(error: NodeJS.ErrnoException): ReadRefusal {
  const code = error.code === 'ENOENT' ? 'ENOENT' : error.code === 'EISDIR' ? 'IS_DIRECTORY' : 'UNREADABLE';
  return { code, error: describeFsError(error) };
}

/** Whether `path` is `root` or below it (both absolute, neither needing to exist). */
export function isInside(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/**
 * Where `path` really is, refused when it is outside `roots` (real paths; undefined confines
 * nothing): the path as written first, so that nothing outside is even looked at (not its
 * existence either), then where its symbolic links lead (`real`, named in the refusal).
 * `asWritten: false` judges only where it leads, for a path found below a directory that was
 * given explicitly (taken wherever it is).
 */
export function confinedRealPath(
  path: string,
  roots: readonly string[] | undefined,
  { asWritten = true }: { asWritten?: boolean } = {},
): { real: string } | { outside: 'written' | 'link'; real?: string } | { fsError: NodeJS.ErrnoException } {
  const inside = (at: string): boolean => roots === undefined || roots.some((root) => isInside(at, root));
  if (asWritten && !inside(path)) return { outside: 'written' };
  let real: string;
  try {
    real = realpathSync(path);
  } catch (error) {
    return { fsError: error as NodeJS.ErrnoException };
  }
  return inside(real) ? { real } : { outside: 'link', real };
}

export function describeFsError(error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case 'ENOENT':
      return 'no such file or directory';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'is a directory';
    case 'ELOOP':
      return 'too many levels of symbolic links';
    default:
      return error.code ?? error.message;
  }
}
