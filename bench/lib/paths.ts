import { existsSync, readdirSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The CLI from source, as `npm run converge` runs it. */
export const MAIN = join(ROOT, 'src/cli/main.ts');
/** The CLI as published (`npm run build`). */
export const BUILT_MAIN = join(ROOT, 'dist/cli/main.js');

const made: string[] = [];

/** A scratch directory for a suite's manifests and files, removed by `removeTempDirs`. */
export async function tempDir(name: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), `converge-bench-${name}-`));
  made.push(dir);
  return dir;
}

/** Removes the scratch directories made so far: after each suite, whose manifests reach 50,000 objects. */
export async function removeTempDirs(): Promise<void> {
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
}

/** Why a suite times the sources alone and not the build: a smoke run, or no build; undefined when there is one to time. */
export function unbuiltNote(smoke: boolean): string | undefined {
  if (smoke) return 'a smoke run: the build is not measured';
  if (!existsSync(BUILT_MAIN)) return 'dist/cli/main.js is missing: run `npm run build` to measure the build';
  return undefined;
}

/**
 * The first source file newer than the build, when there is a build: its figures would then be
 * of older code than the tree's (`npm run build` first). Undefined when the build is current or
 * absent (the suites then time the sources alone).
 */
export function staleBuildSource(): string | undefined {
  if (!existsSync(BUILT_MAIN)) return undefined;
  const built = statSync(BUILT_MAIN).mtimeMs;
  for (const dir of ['src', 'schemas']) {
    for (const entry of readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })) {
      if (!entry.isFile()) continue;
      const file = join(entry.parentPath, entry.name);
      if (statSync(file).mtimeMs > built) return file.slice(ROOT.length);
    }
  }
  return undefined;
}
