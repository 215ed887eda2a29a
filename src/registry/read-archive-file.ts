/**
 * Reads a manifest's ready-made `archive:` file and checks, by its first two
 * bytes, that it is gzip at all, so that a zip or plain tar is named as such
 * instead of failing later as a broken tar.
 */
import { readFile } from 'node:fs/promises';
import { ConvergeError } from '../errors.ts';

const GZIP_MAGIC = [0x1f, 0x8b];

export async function readArchiveFile(file: string): Promise<Buffer> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
    throw new ConvergeError(
      'INPUT_INVALID',
      missing ? `module archive ${file} does not exist` : `cannot read ${file}: ${(error as Error).message}`,
      { cause: error },
    );
  }
  if (bytes[0] !== GZIP_MAGIC[0] || bytes[1] !== GZIP_MAGIC[1]) {
    throw new ConvergeError('INPUT_INVALID', `${file} is not a gzip file`, {
      hint: 'a module archive is a .tar.gz; or declare the module directory as `source` and converge packs it',
    });
  }
  return bytes;
}
