/**
 * The files of a module directory that go into its archive, sorted.
 *
 * Decisions (see also module-ignore.ts for what is skipped):
 * - Only regular files become entries; directories do not. Terraform reads
 *   files only, every tar reader creates parent directories on extraction,
 *   and git does not keep empty directories: with directory entries a fresh
 *   clone and a working copy holding a leftover empty directory would pack to
 *   different bytes.
 * - Symbolic links are refused, naming the link, whether they point inside
 *   the module or not: following them would let files from outside the
 *   directory in, and keeping them as links would ship something that may not
 *   resolve where the module is unpacked. A link that `.terraformignore`
 *   excludes is not an error, it is never looked at.
 * - Other special files (sockets, FIFOs, devices) are refused too, and so is
 *   a name that is not UTF-8 (the error shows its bytes as `\xe9`): an
 *   archive path is UTF-8, so such a file could not be packed as named.
 * - Archive paths are NFC-normalised, so a module checked out on a file system
 *   that stores names decomposed (HFS+) packs to the same bytes as on Linux.
 * - Entries are sorted by the bytes of their UTF-8 path, not by locale.
 */
import { type Dirent, lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ConvergeError } from '../errors.ts';
import { loadModuleIgnore, type ModuleIgnore } from './module-ignore.ts';
import { checkModuleSize } from './module-size.ts';

export interface ModuleFile {
  /** Path inside the archive: module-relative, `/`-separated, NFC. */
  path: string;
  /** Where to read it. */
  absolute: string;
  /** Its size when listed: what packing may read of it (./module-size.ts). */
  size: number;
}

/**
 * The files a module directory packs: no links, FIFOs or devices, a .tf file
 * at the root, and no more bytes than one upload takes (./module-size.ts),
 * known from their sizes before any is read. Validate (./module-source.ts)
 * and packing (./pack.ts) both list a directory here.
 */
export function listModule(dir: string, shown = dir): ModuleFile[] {
  const files = listModuleFiles(dir, loadModuleIgnore(dir, shown), shown);
  if (!files.some((f) => !f.path.includes('/') && f.path.endsWith('.tf'))) {
    throw new ConvergeError('INPUT_INVALID', `${shown} is not a module: no .tf file at its root`, {
      hint: 'point `source` at the directory holding the module’s .tf files (is one excluded by .terraformignore?)',
    });
  }
  checkModuleSize(shown, files);
  return files;
}

/** Synchronous: validate lists a module as it checks a manifest, offline and before anything else. */
/** `shown` is how messages name `dir`: the manifest's own words at validate. */
export function listModuleFiles(dir: string, ignored: ModuleIgnore, shown = dir): ModuleFile[] {
  const files: ModuleFile[] = [];
  walk({ dir, shown, ignored, out: files }, '');
  const keyed = files.map((file) => ({ file, key: Buffer.from(file.path, 'utf8') }));
  keyed.sort((a, b) => Buffer.compare(a.key, b.key));
  const sorted = keyed.map(({ file }) => file);
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i]!.path === sorted[i - 1]!.path) {
      throw new ConvergeError(
        'INPUT_INVALID',
        `two files in ${shown} have the same name once normalised: ${sorted[i]!.path}`,
        {
          hint: 'rename one of them; their names differ only in how accented characters are encoded',
        },
      );
    }
  }
  return sorted;
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

interface Walk {
  dir: string;
  shown: string;
  ignored: ModuleIgnore;
  out: ModuleFile[];
}

function walk(w: Walk, prefix: string): void {
  const absoluteDir = prefix === '' ? w.dir : join(w.dir, prefix);
  let entries: Dirent<Buffer>[];
  try {
    // names as bytes: one that is not UTF-8 would otherwise come back altered, and be missing when read
    entries = readdirSync(absoluteDir, { withFileTypes: true, encoding: 'buffer' });
  } catch (error) {
    throw new ConvergeError(
      'INPUT_INVALID',
      `cannot read directory ${join(w.shown, prefix)}: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
  for (const entry of entries) {
    const name = utf8Name(join(w.shown, prefix), entry.name);
    const relative = prefix + name;
    const isDirectory = entry.isDirectory();
    if (w.ignored.skips(relative, isDirectory)) continue;
    const absolute = join(absoluteDir, name);
    const shown = join(w.shown, relative);
    if (entry.isSymbolicLink()) {
      throw new ConvergeError('INPUT_INVALID', `${shown} is a symbolic link; converge does not pack links`, {
        hint: `replace ${relative} with the file it points to, or list it in .terraformignore`,
      });
    }
    if (isDirectory) walk(w, `${relative}/`);
    else if (entry.isFile()) w.out.push({ path: relative.normalize('NFC'), absolute, size: lstatSync(absolute).size });
    else {
      throw new ConvergeError(
        'INPUT_INVALID',
        `${shown} is not a regular file, directory or link (a FIFO, socket or device); converge packs only files`,
        { hint: `remove it, or list ${relative} in .terraformignore` },
      );
    }
  }
}

/** A name as text; one that is not UTF-8 cannot be an archive path that every system reads alike. */
function utf8Name(dir: string, bytes: Buffer): string {
  try {
    return UTF8.decode(bytes);
  } catch {
    const shown = [...bytes]
      .map((b) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : `\\x${b.toString(16).padStart(2, '0')}`))
      .join('');
    throw new ConvergeError('INPUT_INVALID', `${join(dir, shown)}: the file name is not UTF-8`, {
      hint: 'rename it in UTF-8: module archives carry UTF-8 paths, and Terraform reads only those',
    });
  }
}
