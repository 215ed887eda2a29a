/**
 * Temporary directories for tests, removed when the test file that made them ends (a suite run
 * used to leave about a hundred `converge-*` directories in the OS temp dir each time). After the
 * file, not the test: a directory made in `beforeAll`, or memoised for several tests, outlives
 * the test that made it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEveryFile } from './teardown.ts';

const created: string[] = [];

afterEveryFile(() => {
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A fresh empty directory `converge-<name>-XXXXXX` in the OS temp dir, removed after the test file. */
export async function tempDir(name: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), `converge-${name}-`));
  created.push(dir);
  return dir;
}

/** `tempDir` for code that cannot wait (a synchronous fixture). */
export function tempDirSync(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `converge-${name}-`));
  created.push(dir);
  return dir;
}
