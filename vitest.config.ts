import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Most test files wait (on injected latency, timers, an emulator on loopback, a CLI process) rather
 * than compute, so files run side by side overlap their waits. Vitest's default, one worker fewer
 * than the cores, is a single worker on a 2-core machine: the files then run one after another.
 * One and a half workers per core keeps both cores busy there and scales on larger machines; two
 * per core spent more CPU than it saved in waits (docs/performance.md, "Test suite").
 * CONVERGE_TEST_WORKERS overrides it.
 */
const WORKERS = Number(process.env.CONVERGE_TEST_WORKERS) || Math.max(2, Math.ceil(availableParallelism() * 1.5));

/** The inner loop (`npm run test:fast`): no emulator process and no CLI process in these files. */
const FAST = ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts', 'src/**/*.test.ts'];

/** Files that replace a module (vi.mock): they need a module graph of their own. */
const MOCKING = ['test/unit/registry/pack-unreadable.test.ts'];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // cleanups of helper modules, run in every file (test/helpers/teardown.ts says why)
    setupFiles: ['test/helpers/teardown-hooks.ts'],
    maxWorkers: WORKERS,
    projects: [
      // one worker process runs many files: no process start and no module graph built again per file
      {
        extends: true,
        test: {
          name: 'fast',
          include: FAST,
          exclude: [...configDefaults.exclude, ...MOCKING],
          isolate: false,
        },
      },
      { extends: true, test: { name: 'fast-mocking', include: MOCKING } },
      {
        extends: true,
        test: {
          name: 'slow',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...FAST],
          // the CLI the tests here run as a process: the bundle, built once per run (test/helpers/cli-bundle.ts)
          globalSetup: ['test/helpers/cli-bundle.ts'],
          // as in `fast`: a worker runs many files on one module graph. Isolated, each of some 110
          // files started a process and evaluated the emulator and the engine again: about 85 s
          // of the run's CPU (docs/performance.md, "Test suite"). No file here replaces a module.
          isolate: false,
          // a test here runs several CLI processes: beside two other workers on a busy machine, each
          // start takes seconds; the limit is for a hung test, not a slow one
          testTimeout: 60_000,
        },
      },
    ],
  },
});
