/**
 * Where an invalid configuration's values and keys are, so its problems are told at
 * `file:line:col` as a manifest's are: the file read again, only when it is invalid, by the
 * manifests' reader (src/manifest/documents.ts). A configuration written as code has none.
 */
import { readFileSync } from 'node:fs';
import { parseDocumentData, withPositions } from '../manifest/documents.ts';
import type { ConfigPositions } from './problems.ts';

export function configPositions(file: string): ConfigPositions | undefined {
  try {
    const text = readFileSync(file, 'utf8');
    const [first] = withPositions(text, file, parseDocumentData(text, file).documents);
    return first && { values: first.values, keys: first.keys };
  } catch {
    return undefined; // the problems are still told, without their lines
  }
}
