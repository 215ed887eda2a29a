/** Manifest files on disk, from documents: what validate, plan and the CLI read. */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { stringify } from 'yaml';
import type { Doc } from '../kinds.ts';

/** Documents per file: a real repository keeps many documents per file, and many files. */
const PER_FILE = 500;

/**
 * Writes `docs` as YAML streams into `dir` (created), and `files` (name ->
 * content: what the documents read with `${file:name}`) beside them;
 * returns the directory.
 */
export async function writeManifests(
  dir: string,
  docs: readonly Doc[],
  files: Readonly<Record<string, string>> = {},
): Promise<string> {
  await mkdir(dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
  for (let start = 0, file = 0; start < docs.length; start += PER_FILE, file++) {
    const text = docs
      .slice(start, start + PER_FILE)
      .map((doc) => stringify(doc))
      .join('---\n');
    await writeFile(join(dir, `objects-${String(file).padStart(3, '0')}.yaml`), text);
  }
  return dir;
}
