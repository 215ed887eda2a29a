/**
 * One manifest file read and given its first pass (documents.ts): the values and the checks that
 * need no positions. The positions are the second pass, made only when one is read.
 */
import type { InputProblem } from '../errors.ts';
import { type ParsedDocument, parseDocumentData } from './documents.ts';
import type { ManifestFile } from './files.ts';
import { NOT_REGULAR, readRegularFile } from './regular-file.ts';
import { utf8Problem } from './utf8.ts';

/** The largest manifest file converge reads (docs/security.md, "Reading input"). */
export const MAX_MANIFEST_BYTES = 16 * 1024 * 1024;

export interface ParsedFile {
  /** The file's text ('' when it could not be read): the second pass reads positions from it. */
  text: string;
  documents: ParsedDocument[];
  problems: InputProblem[];
}

export function readManifest(file: Pick<ManifestFile, 'path' | 'name'>): ParsedFile {
  // a FIFO or device is refused on the open descriptor: never waited on, never read without end
  const read = readRegularFile(file.path, {
    maxBytes: MAX_MANIFEST_BYTES,
    tooLarge: (size) => `the file holds ${size} bytes; a manifest file may hold at most ${MAX_MANIFEST_BYTES}`,
  });
  if ('error' in read) {
    const message = read.code === 'NOT_REGULAR' ? `${NOT_REGULAR}: a manifest must be a file` : read.error;
    return { text: '', documents: [], problems: [{ file: file.name, line: 1, col: 1, message }] };
  }
  const notText = utf8Problem(read.bytes);
  if (notText) return { text: '', documents: [], problems: [{ file: file.name, ...notText }] };
  const text = read.bytes.toString('utf8');
  return { text, ...parseDocumentData(text, file.name) };
}
