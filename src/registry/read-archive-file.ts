/**
 * Reads a manifest's ready-made `archive:` file and checks that it is gzip
 * at all (./gzip.ts). Only a regular file is read, and only up to what one
 * upload takes (./module-size.ts), judged before the first byte is read.
 */
import { ConvergeError } from '../errors.ts';
import { readRegularFile } from '../manifest/regular-file.ts';
import { isGzip } from './gzip.ts';
import { checkArchiveSize, MAX_MODULE_BYTES } from './module-size.ts';

export function readArchiveFile(file: string): Buffer {
  const read = readRegularFile(file, {
    maxBytes: MAX_MODULE_BYTES,
    tooLarge: (size) => `it holds ${size} bytes`,
  });
  if ('error' in read) {
    if (read.size !== undefined) checkArchiveSize(file, read.size);
    const missing = read.error === 'no such file or directory';
    throw new ConvergeError(
      'INPUT_INVALID',
      missing ? `module archive ${file} does not exist` : `cannot read ${file}: ${read.error}`,
    );
  }
  if (!isGzip(read.bytes)) {
    throw new ConvergeError('INPUT_INVALID', `${file} is not a gzip file`, {
      hint: 'a module archive is a .tar.gz; or declare the module directory as `source` and converge packs it',
    });
  }
  return read.bytes;
}
