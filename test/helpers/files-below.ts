/** The files below a directory, by their paths relative to it, sorted: what a command wrote. */
import { readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';

export async function filesBelow(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .sort();
}
