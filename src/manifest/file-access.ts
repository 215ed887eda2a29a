/**
 * What `${file:...}` may read (docs/security.md, "Interpolation"): regular
 * files inside the allowed roots (the repository: the configuration's
 * directory and the manifests' common root, plus `interpolation.fileRoots`),
 * after symlinks are resolved, up to a size limit, as UTF-8 text unless the
 * placeholder asks for base64. A manifest in a pull request can therefore
 * never publish `/etc/shadow`, a key from the home directory, or a device.
 */
import { closeSync, constants, fstatSync, openSync, readSync, realpathSync, type Stats, statSync } from 'node:fs';
import { isAbsolute, relative, sep } from 'node:path';
import { describeFsError } from './files.ts';

export interface FileAccess {
  /** Real paths of the directories `${file:}` may read below. */
  roots: readonly string[];
  /** The largest file `${file:}` reads. */
  maxBytes: number;
}

export const DEFAULT_MAX_FILE_BYTES = 1024 * 1024;

export type FileMode = 'text' | 'base64';

const OUTSIDE =
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the placeholder syntax, shown to users
  "it is outside the directories ${file:} may read (the configuration's and the manifests'); interpolation.fileRoots of the configuration allows more";

/** Real paths of the given directories (those that exist). */
export function realRoots(paths: readonly string[]): string[] {
  return paths.flatMap((path) => {
    try {
      return [realpathSync(path)];
    } catch {
      return [];
    }
  });
}

/** The file's content, or why it may not or cannot be read. */
export function readConfined(path: string, mode: FileMode, access: FileAccess): { text: string } | { error: string } {
  const outside = { error: OUTSIDE };
  // the path as written first, so that nothing outside is even looked at (not its existence either)
  if (!access.roots.some((root) => isInside(path, root))) return outside;
  let real: string;
  try {
    real = realpathSync(path);
  } catch (error) {
    return { error: describeFsError(error as NodeJS.ErrnoException) };
  }
  // then where its symbolic links lead
  if (!access.roots.some((root) => isInside(real, root))) return outside;
  const kind = notRegular(statSync(real));
  if (kind) return { error: kind };
  let fd: number;
  try {
    // O_NONBLOCK: a FIFO swapped in after the check must not hang the run
    fd = openSync(real, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    return { error: describeFsError(error as NodeJS.ErrnoException) };
  }
  try {
    const stats = fstatSync(fd);
    const again = notRegular(stats);
    if (again) return { error: again };
    if (stats.size > access.maxBytes) {
      return {
        error: `it holds ${stats.size} bytes, more than ${access.maxBytes} (interpolation.maxFileBytes)`,
      };
    }
    const bytes = Buffer.alloc(stats.size);
    let read = 0;
    while (read < bytes.length) {
      const n = readSync(fd, bytes, read, bytes.length - read, read);
      if (n === 0) break;
      read += n;
    }
    const content = bytes.subarray(0, read);
    if (mode === 'base64') return { text: content.toString('base64') };
    return decodeText(content);
  } finally {
    closeSync(fd);
  }
}

function isInside(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

function notRegular(stats: Stats): string | undefined {
  if (stats.isFile()) return undefined;
  if (stats.isDirectory()) return 'is a directory';
  return 'is not a regular file (a device, FIFO or socket)';
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

function decodeText(bytes: Buffer): { text: string } | { error: string } {
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the placeholder syntax, shown to users
  const binary = { error: 'it holds binary content; use ${file.base64:path} where the field takes base64' };
  if (bytes.includes(0)) return binary;
  try {
    return { text: UTF8.decode(bytes) };
  } catch {
    return binary;
  }
}

/**
 * Which environment variables `${env:...}` may read: never converge's own
 * tokens (they would be published into a readable field), and, when the
 * configuration lists names or prefixes (`LDAP_*`), only those.
 */
export interface EnvAccess {
  forbidden: ReadonlySet<string>;
  allow?: readonly string[];
}

export function envRefusal(name: string, access: EnvAccess): string | undefined {
  if (access.forbidden.has(name)) return `"${name}" holds a token of converge's own and is never interpolated`;
  if (access.allow === undefined) return undefined;
  const allowed = access.allow.some((entry) =>
    entry.endsWith('*') ? name.startsWith(entry.slice(0, -1)) : entry === name,
  );
  return allowed ? undefined : `"${name}" is not in interpolation.env of the configuration`;
}
