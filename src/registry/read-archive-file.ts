/**
 * Reads a manifest's ready-made `archive:` file and checks that it is gzip
 * at all (./gzip.ts).
 */
import { readFile } from 'node:fs/promises';
import { ConvergeError } from '../errors.ts';
import { isGzip } from './gzip.ts';

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
  if (!isGzip(bytes)) {
    throw new ConvergeError('INPUT_INVALID', `${file} is not a gzip file`, {
      hint: 'a module archive is a .tar.gz; or declare the module directory as `source` and converge packs it',
    });
  }
  return bytes;
}
