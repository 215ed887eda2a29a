/**
 * What validate checks of a module version's content, offline and before
 * anything is sent: where it is, and that it packs. A version's `source`
 * (a directory) or `archive` (a .tar.gz) is read only inside the repository,
 * the directories `${file:}` may read (docs/security.md, "Module sources"):
 * the path as written first, then where its symbolic links lead, so a
 * manifest in a pull request cannot publish a directory from elsewhere on the
 * runner (its state files, its secrets) to the registry. A directory is then
 * listed as packing lists it: a link, FIFO, device or non-UTF-8 name inside
 * it, an unreadable `.terraformignore`, no .tf file at its root, or more
 * bytes than one upload takes is a problem here, not a failure mid-apply.
 */
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { ConvergeError } from '../errors.ts';
import { confinedRealPath, describeFsError, openFlags } from '../manifest/regular-file.ts';
import { isGzip } from './gzip.ts';
import { listModule } from './list-module-files.ts';
import { checkArchiveSize } from './module-size.ts';

export interface ModuleContent {
  kind: 'source' | 'archive';
  /** Absolute, as the manifest names it (not resolved through links). */
  path: string;
  /** As the manifest writes it, for messages (or its field's name, when the value is a secret). */
  shown: string;
  /** The value is a secret: no message shows where it leads either. */
  secret?: boolean;
}

const ROOTS =
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the placeholder syntax, shown to users
  "module sources are read only where ${file:} may read (below the configuration's and the manifests' directories); interpolation.fileRoots of the configuration allows more";

/** Why the content cannot be published, or undefined. `roots`: real paths of the repository's directories. */
export function contentProblem(content: ModuleContent, roots: readonly string[] | undefined): string | undefined {
  const { kind, path, shown } = content;
  const confined = confinedRealPath(path, roots);
  if ('fsError' in confined) {
    const e = confined.fsError;
    return e.code === 'ENOENT' ? `${shown} does not exist` : `${shown}: ${describeFsError(e)}`;
  }
  if ('outside' in confined) {
    return confined.outside === 'written'
      ? `${shown} is outside the repository: ${ROOTS}`
      : `${shown} leads outside the repository through a symbolic link${content.secret ? '' : ` (to ${confined.real})`}: ${ROOTS}`;
  }
  const { real } = confined;
  const stats = statSync(real);
  try {
    if (kind === 'source') {
      if (!stats.isDirectory()) return `${shown} is not a directory`;
      listModule(path, shown);
      return undefined;
    }
    if (!stats.isFile()) return `${shown} is not a file`;
    checkArchiveSize(shown, stats.size);
    if (!fileIsGzip(real)) return `${shown} is not a gzip tarball`;
    return undefined;
  } catch (error) {
    if (ConvergeError.is(error)) return error.message;
    throw error;
  }
}

/** Only the first two bytes are read, without waiting on a FIFO swapped in: validate never reads a whole archive. */
function fileIsGzip(path: string): boolean {
  const fd = openSync(path, openFlags());
  try {
    const magic = Buffer.alloc(2);
    readSync(fd, magic, 0, 2, 0);
    return isGzip(magic);
  } finally {
    closeSync(fd);
  }
}
