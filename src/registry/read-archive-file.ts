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
  const read = readRegularFile(file, { maxBytes: MAX_MODULE_BYTES });
  if ('error' in read) {
    if (read.code === 'TOO_LARGE') checkArchiveSize(file, read.size);
    throw new ConvergeError(
      'INPUT_INVALID',
      read.code === 'ENOENT' ? `module archive ${file} does not exist` : `cannot read ${file}: ${read.error}`,
    );
  }
  if (!isGzip(read.bytes)) {
    throw new ConvergeError('INPUT_INVALID', `${file} is not a gzip file`, {
      hint: 'a module archive is a .tar.gz; or declare the module directory as `source` and converge packs it',
    });
  }
  return read.bytes;
}
