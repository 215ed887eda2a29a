import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The CLI from source, as `npm run converge` runs it. */
export const MAIN = join(ROOT, 'src/cli/main.ts');
/** The CLI as published (`npm run build`). */
export const BUILT_MAIN = join(ROOT, 'dist/cli/main.js');

export function tempDir(name: string): Promise<string> {
  return mkdtemp(join(tmpdir(), `converge-bench-${name}-`));
}
