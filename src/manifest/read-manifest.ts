/**
 * One manifest file read and given its first pass (documents.ts): the values and the checks that
 * need no positions. The positions are the second pass, made only when one is read.
 */
import { readFileSync, statSync } from 'node:fs';
import type { InputProblem } from '../errors.ts';
import { type ParsedDocument, parseDocumentData } from './documents.ts';
import { describeFsError, type ManifestFile } from './files.ts';

/** The largest manifest file converge reads (docs/security.md, "Reading input"). */
export const MAX_MANIFEST_BYTES = 16 * 1024 * 1024;

export interface ParsedFile {
  /** The file's text ('' when it could not be read): the second pass reads positions from it. */
  text: string;
  documents: ParsedDocument[];
  problems: InputProblem[];
}

export function readManifest(file: ManifestFile): ParsedFile {
  let text: string;
  try {
    const size = statSync(file.path).size;
    if (size > MAX_MANIFEST_BYTES) {
      const message = `the file holds ${size} bytes; a manifest file may hold at most ${MAX_MANIFEST_BYTES}`;
      return { text: '', documents: [], problems: [{ file: file.name, line: 1, col: 1, message }] };
    }
    text = readFileSync(file.path, 'utf8');
  } catch (error) {
    const message = describeFsError(error as NodeJS.ErrnoException);
    return { text: '', documents: [], problems: [{ file: file.name, line: 1, col: 1, message }] };
  }
  return { text, ...parseDocumentData(text, file.name) };
}
