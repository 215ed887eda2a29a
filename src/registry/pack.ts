/**
 * Module archives for the private registry: a manifest version either names a
 * directory (`source`), which converge packs here, or a ready gzip tarball
 * (`archive`), which converge checks here. Either way the module is at the
 * archive's root and the sha256 is of the gzip bytes as uploaded.
 *
 * Packing is reproducible: the same file contents and executable bits give
 * the same bytes on any machine, whatever the mtimes, owners, creation order
 * or file system. The fixed choices are in archive-format.ts, what is left out
 * in module-ignore.ts, which files go in and in what order in
 * list-module-files.ts.
 */
import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { ConvergeError } from '../errors.ts';
import { inspectArchive } from './archive-layout.ts';
import { gzipTo } from './deterministic-gzip.ts';
import { listModule, type ModuleFile } from './list-module-files.ts';
import { checkArchiveSize } from './module-size.ts';
import { readArchiveFile } from './read-archive-file.ts';
import { tarStream } from './tar-stream.ts';

export interface PackedModule {
  bytes: Buffer;
  /** Hex sha256 of `bytes`, the gzip as uploaded. */
  sha256: string;
  /** Paths of the packed files, sorted by their UTF-8 bytes. */
  files: string[];
  /** `bytes.length`. */
  size: number;
}

export async function packModule(dir: string): Promise<PackedModule> {
  const files = await moduleFiles(dir);
  const chunks: Buffer[] = [];
  const hash = createHash('sha256');
  await gzipTo(tarStream(files), (chunk) => {
    hash.update(chunk);
    chunks.push(chunk);
  });
  const bytes = Buffer.concat(chunks);
  checkArchiveSize(dir, bytes.length);
  return { bytes, sha256: hash.digest('hex'), files: files.map((f) => f.path), size: bytes.length };
}

/** A ready `.tar.gz`: checked to be a gzip tar with the module at its root. */
export async function readArchive(file: string): Promise<PackedModule> {
  const bytes = readArchiveFile(file);
  const files = await inspectArchive(file, bytes);
  return { bytes, sha256: createHash('sha256').update(bytes).digest('hex'), files, size: bytes.length };
}

/**
 * The sha256 `packModule` would give, for the plan's "local content changed"
 * check: compressed chunks are hashed and dropped as they come.
 */
export async function contentDigest(dir: string): Promise<string> {
  const files = await moduleFiles(dir);
  const hash = createHash('sha256');
  await gzipTo(tarStream(files), (chunk) => hash.update(chunk));
  return hash.digest('hex');
}

async function moduleFiles(dir: string): Promise<ModuleFile[]> {
  await requireDirectory(dir);
  return listModule(dir);
}

// the module directory itself may be a link (stat follows it); links inside it are refused by list-module-files.ts
async function requireDirectory(dir: string): Promise<void> {
  let isDirectory: boolean;
  try {
    isDirectory = (await stat(dir)).isDirectory();
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
    throw new ConvergeError(
      'INPUT_INVALID',
      missing ? `module directory ${dir} does not exist` : `cannot read ${dir}: ${(error as Error).message}`,
      { cause: error },
    );
  }
  if (!isDirectory) throw new ConvergeError('INPUT_INVALID', `module source ${dir} is not a directory`);
}
