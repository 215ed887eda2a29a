/**
 * Checks what is inside a ready-made module archive before it is uploaded:
 * a tar with at least one file, the module's .tf files at the root (the
 * registry serves the archive as the module, so `network/main.tf` would be a
 * module with no configuration), no paths that escape the extraction
 * directory, and no links, which converge refuses when it packs too
 * (list-module-files.ts).
 */
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { Parser, type ReadEntry } from 'tar';
import { ConvergeError } from '../errors.ts';
import { TAR_BLOCK } from './archive-format.ts';

const gunzipAsync = promisify(gunzip);
// far above any module; stops a decompression bomb before it fills memory
const MAX_UNPACKED_BYTES = 1024 * 1024 * 1024;
const FILE_TYPES = new Set(['File', 'OldFile', 'ContiguousFile']);

/** The archive's file paths (without `./`), sorted by their UTF-8 bytes. */
export async function inspectArchive(file: string, gzipped: Buffer): Promise<string[]> {
  const tar = await decompress(file, gzipped);
  if (tar.length === 0 || isZeroBlock(tar.subarray(0, TAR_BLOCK))) {
    throw new ConvergeError('INPUT_INVALID', `${file} is an empty archive`);
  }
  const paths = await entryPaths(file, tar);
  const files = [...new Set(paths)].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  requireRootModule(file, files);
  return files;
}

async function decompress(file: string, gzipped: Buffer): Promise<Buffer> {
  try {
    return await gunzipAsync(gzipped, { maxOutputLength: MAX_UNPACKED_BYTES });
  } catch (error) {
    throw new ConvergeError('INPUT_INVALID', `${file} is not valid gzip: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

function isZeroBlock(block: Buffer): boolean {
  return block.every((byte) => byte === 0);
}

async function entryPaths(file: string, tar: Buffer): Promise<string[]> {
  const paths: string[] = [];
  let refused: ConvergeError | undefined;
  const onReadEntry = (entry: ReadEntry) => {
    entry.resume();
    if (refused) return;
    const path = entry.path.replace(/^(\.\/)+/, '');
    if (path.startsWith('/') || path.split('/').includes('..')) {
      refused = new ConvergeError('INPUT_INVALID', `${file}: entry ${entry.path} points outside the archive`);
    } else if (FILE_TYPES.has(entry.type)) {
      paths.push(path);
    } else if (entry.type !== 'Directory') {
      refused = new ConvergeError(
        'INPUT_INVALID',
        `${file}: entry ${entry.path} is a ${entry.type}; module archives hold only files and directories`,
      );
    }
  };
  // strict: a header that does not parse is an error here, not a warning to skip past
  const parser = new Parser({ strict: true, onReadEntry });
  await new Promise<void>((resolve, reject) => {
    parser.on('error', (error: Error) =>
      reject(
        new ConvergeError('INPUT_INVALID', `${file} is not a valid tar archive: ${error.message}`, { cause: error }),
      ),
    );
    parser.on('end', () => resolve());
    parser.end(tar);
  });
  if (refused) throw refused;
  return paths;
}

function requireRootModule(file: string, files: readonly string[]): void {
  if (files.some((path) => !path.includes('/') && path.endsWith('.tf'))) return;
  const tfFiles = files.filter((path) => path.endsWith('.tf'));
  const tops = new Set(tfFiles.map((path) => path.slice(0, path.indexOf('/'))));
  if (tops.size === 1) {
    const [top] = tops;
    throw new ConvergeError(
      'INPUT_INVALID',
      `${file}: the module must be at the archive's root, not in a subdirectory (its .tf files are under ${top}/)`,
      { hint: `pack the directory's contents, e.g. tar -czf ${file} -C ${top} .` },
    );
  }
  throw new ConvergeError('INPUT_INVALID', `${file} is not a module: no .tf file at the archive's root`);
}
