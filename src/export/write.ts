/**
 * Writing an export's files below `--out`, never outside it (docs/security.md,
 * "Export"): the directory named by `--out` may itself be a link (the user
 * chose it), but no file export writes and no directory between `--out` and
 * that file may be a symbolic link, with `--force` or without: a link
 * committed into an output directory (`imported/tool-version.yaml ->
 * ~/.bashrc`) would otherwise be written through. Everything is checked
 * before the first file is written; each file is then opened with
 * O_NOFOLLOW, so a link put in its place after the check is refused too.
 * A file may be filled by its writer (a module archive, streamed as it
 * downloads): one whose fill fails is removed, and nothing after it is written.
 */
import { constants, lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { type FileHandle, mkdir, open, unlink } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import type { BodySink } from '../api/types.ts';
import { ConvergeError } from '../errors.ts';

export type ExportWrite = {
  /** Absolute, below the output directory. */
  path: string;
} & (
  | { content: string }
  /** Streams the file's content into `sink` (an archive, as it downloads); a failed fill leaves no file. */
  | { fill(sink: BodySink): Promise<void> }
);

const WRITE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | (constants.O_NOFOLLOW ?? 0);

/** Writes every file, or none when one would overwrite (without `force`) or go through a link. */
export async function writeExport(
  outDir: string,
  writes: readonly ExportWrite[],
  options: { force: boolean; shown: (path: string) => string },
): Promise<void> {
  const links = new Set<string>();
  const existing: string[] = [];
  for (const w of writes) {
    for (const at of pathsBelow(outDir, w.path)) {
      const info = lstatIfExists(at);
      if (info?.isSymbolicLink()) links.add(at);
      if (!info || info.isSymbolicLink()) break;
      if (at === w.path) existing.push(w.path);
    }
  }
  if (links.size > 0) {
    const listed = [...links].map((p) => `  ${options.shown(p)} -> ${readlinkSync(p)}`).join('\n');
    throw new ConvergeError(
      'INPUT_INVALID',
      `export would write through ${links.size} symbolic link(s) in the output directory, and never follows one:\n${listed}`,
      { hint: 'remove the links, or choose another --out directory; nothing was written' },
    );
  }
  if (!options.force && existing.length > 0) {
    throw new ConvergeError(
      'INPUT_INVALID',
      `export would overwrite ${existing.length} existing file(s):\n${existing.map((p) => `  ${options.shown(p)}`).join('\n')}`,
      { hint: 'choose another --out directory, or pass --force to overwrite them' },
    );
  }
  await mkdir(outDir, { recursive: true });
  const realOut = realpathSync(outDir);
  for (const w of writes) {
    const dir = dirname(w.path);
    await mkdir(dir, { recursive: true });
    // a directory swapped for a link since the check: its real path says so
    if (realpathSync(dir) !== join(realOut, relative(outDir, dir))) {
      throw new ConvergeError('INPUT_INVALID', `${options.shown(dir)} became a symbolic link while export wrote`);
    }
    const handle = await open(w.path, WRITE_FLAGS, 0o666).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ELOOP') throw error;
      throw new ConvergeError('INPUT_INVALID', `${options.shown(w.path)} became a symbolic link while export wrote`);
    });
    let complete = false;
    try {
      if ('content' in w) await handle.writeFile(w.content);
      else await w.fill(fileSink(handle));
      complete = true;
    } finally {
      await handle.close();
      // a fill cut short (a download that failed) leaves no partial file behind
      if (!complete) await unlink(w.path).catch(() => undefined);
    }
  }
}

/** A body sink into an open file: each attempt starts the file over (src/api/types.ts, `BodySink`). */
function fileSink(file: FileHandle): BodySink {
  let position = 0;
  return {
    async begin() {
      position = 0;
      await file.truncate(0);
    },
    async write(chunk) {
      for (let done = 0; done < chunk.length; ) {
        const { bytesWritten } = await file.write(chunk, done, chunk.length - done, position);
        done += bytesWritten;
        position += bytesWritten;
      }
    },
  };
}

/** `path` and the directories between `outDir` and it, outermost first (not `outDir` itself). */
function pathsBelow(outDir: string, path: string): string[] {
  const parts = relative(outDir, path).split(sep);
  return parts.map((_, i) => join(outDir, ...parts.slice(0, i + 1)));
}

function lstatIfExists(path: string) {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}
