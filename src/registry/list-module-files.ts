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
 * - Other special files (sockets, FIFOs, devices) are refused too.
 * - Archive paths are NFC-normalised, so a module checked out on a file system
 *   that stores names decomposed (HFS+) packs to the same bytes as on Linux.
 * - Entries are sorted by the bytes of their UTF-8 path, not by locale.
 */
import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { ConvergeError } from '../errors.ts';
import type { ModuleIgnore } from './module-ignore.ts';

export interface ModuleFile {
  /** Path inside the archive: module-relative, `/`-separated, NFC. */
  path: string;
  /** Where to read it. */
  absolute: string;
}

export async function listModuleFiles(dir: string, ignored: ModuleIgnore): Promise<ModuleFile[]> {
  const files: ModuleFile[] = [];
  await walk(dir, '', ignored, files);
  const keyed = files.map((file) => ({ file, key: Buffer.from(file.path, 'utf8') }));
  keyed.sort((a, b) => Buffer.compare(a.key, b.key));
  const sorted = keyed.map(({ file }) => file);
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i]!.path === sorted[i - 1]!.path) {
      throw new ConvergeError(
        'INPUT_INVALID',
        `two files in ${dir} have the same name once normalised: ${sorted[i]!.path}`,
        {
          hint: 'rename one of them; their names differ only in how accented characters are encoded',
        },
      );
    }
  }
  return sorted;
}

async function walk(dir: string, prefix: string, ignored: ModuleIgnore, out: ModuleFile[]): Promise<void> {
  const absoluteDir = prefix === '' ? dir : join(dir, prefix);
  let entries: Dirent[];
  try {
    entries = await readdir(absoluteDir, { withFileTypes: true });
  } catch (error) {
    throw new ConvergeError('INPUT_INVALID', `cannot read directory ${absoluteDir}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  const subdirectories: Promise<void>[] = [];
  for (const entry of entries) {
    const relative = prefix + entry.name;
    const isDirectory = entry.isDirectory();
    if (ignored.skips(relative, isDirectory)) continue;
    const absolute = join(absoluteDir, entry.name);
    if (entry.isSymbolicLink()) {
      throw new ConvergeError('INPUT_INVALID', `${absolute} is a symbolic link; converge does not pack links`, {
        hint: `replace ${relative} with the file it points to, or list it in .terraformignore`,
      });
    }
    if (isDirectory) subdirectories.push(walk(dir, `${relative}/`, ignored, out));
    else if (entry.isFile()) out.push({ path: relative.normalize('NFC'), absolute });
    else throw new ConvergeError('INPUT_INVALID', `${absolute} is not a regular file, directory or link`);
  }
  await Promise.all(subdirectories);
}
