/**
 * Vitest global setup of the projects whose tests run the CLI as a process: builds the bundle users
 * run (scripts/build.ts, the package's bin) once per vitest run, into a directory laid out as the
 * package is, and hands its path to the tests (test/helpers/cli.ts). A process of the bundle starts
 * on about half the CPU of one of the sources (docs/performance.md, "Start-up"), and the tests start
 * several hundred of them. The build reads src/ each run, so a run tests the sources as they are;
 * CONVERGE_TEST_FROM_SOURCE=1 skips it and runs src/cli/main.ts instead (README.md, "Development").
 */
import { mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { buildDist } from '../../scripts/build.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The bin of the bundle built for this run; absent when the tests run the sources. */
    convergeBundle?: string;
    /** What esbuild says each output of that bundle holds (its metafile, as JSON); absent with it. */
    convergeBundleMetafile?: string;
  }
}

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  if (process.env.CONVERGE_TEST_FROM_SOURCE === '1') return undefined;
  const dir = await mkdtemp(join(tmpdir(), 'converge-test-bundle-'));
  // the package's layout (scripts/build.ts): the bundle finds package.json, schemas/ and the
  // dependencies it leaves as imports beside dist/
  await writeFile(join(dir, 'package.json'), await readFile(join(ROOT, 'package.json')));
  await symlink(join(ROOT, 'schemas'), join(dir, 'schemas'));
  await symlink(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  const build = async () => {
    try {
      // the bundle alone: the validators are committed (scripts/build-validators.ts) and the
      // typecheck is `npm run typecheck`; the sources run unchecked too
      const metafile = await buildDist({ out: join(dir, 'dist'), full: false });
      // for test/e2e/build.test.ts, which checks what each command's chunks load without a build of its own
      await writeFile(join(dir, 'metafile.json'), JSON.stringify(metafile));
    } catch (error) {
      await rm(dir, { recursive: true, force: true });
      throw new Error(
        `the CLI bundle the tests run did not build (scripts/build.ts); fix the build, or run the sources with CONVERGE_TEST_FROM_SOURCE=1: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  };
  await build();
  // watch mode: each rerun tests the sources as they are then
  project.onTestsRerun(build);
  project.provide('convergeBundle', join(dir, 'dist/cli/main.js'));
  project.provide('convergeBundleMetafile', join(dir, 'metafile.json'));
  return () => rm(dir, { recursive: true, force: true });
}
