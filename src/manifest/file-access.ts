/**
 * What `${file:...}` may read (docs/security.md, "Interpolation"): regular
 * files inside the allowed roots (the repository: the configuration's
 * directory and the manifests' common root, plus `interpolation.fileRoots`),
 * after symlinks are resolved, up to a size limit, as UTF-8 text unless the
 * placeholder asks for base64. A manifest in a pull request can therefore
 * never publish `/etc/shadow`, a key from the home directory, or a device.
 */
import { realpathSync, statSync } from 'node:fs';
import { confinedRealPath, describeFsError, notRegular, readRegularFile } from './regular-file.ts';

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
  const confined = confinedRealPath(path, access.roots);
  if ('fsError' in confined) return { error: describeFsError(confined.fsError) };
  if ('outside' in confined) return { error: OUTSIDE };
  const kind = notRegular(statSync(confined.real));
  if (kind) return { error: kind };
  const read = readRegularFile(confined.real, {
    maxBytes: access.maxBytes,
    tooLarge: (size) => `it holds ${size} bytes, more than ${access.maxBytes} (interpolation.maxFileBytes)`,
  });
  if ('error' in read) return { error: read.error };
  if (mode === 'base64') return { text: read.bytes.toString('base64') };
  return decodeText(read.bytes);
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
