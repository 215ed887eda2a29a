/**
 * What helper modules clean up after each test or each file. A helper cannot register vitest's
 * hooks itself: the files of a worker share one module graph (`isolate: false`,
 * vitest.config.ts), so a helper module is evaluated once per worker, and hooks registered then
 * would run for the first file that imported it only. A helper hands its cleanup here once; the
 * setup file (test/helpers/teardown-hooks.ts), which vitest runs in every file, runs them.
 */
type Task = () => unknown;

const afterTest: Task[] = [];
const afterFile: Task[] = [];

/** `task` runs after every test, in every file (a helper's emulators, temporary directories). */
export function afterEveryTest(task: Task): void {
  afterTest.push(task);
}

/** `task` runs after every test file. */
export function afterEveryFile(task: Task): void {
  afterFile.push(task);
}

export async function runAfterTest(): Promise<void> {
  for (const task of afterTest) await task();
}

export async function runAfterFile(): Promise<void> {
  for (const task of afterFile) await task();
}
