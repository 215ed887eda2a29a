/**
 * Stops V8's young generation growing once it reaches 32 MB (two semi-spaces of 16 MB) in a run
 * that loads manifests. V8 sizes it from the machine's memory: on a machine
 * of some gigabytes it doubles up to 128 MB once a few tens of megabytes have
 * survived collections (the objects of a few thousand documents, then the
 * live objects read for them). Those 128 MB were the largest item of a plan's
 * peak RSS, about 40 % of it at 10,000 SSH roles, and bought no speed a run
 * of converge needs (docs/performance.md, "Memory").
 *
 * `--max-semi-space-size=16` says the same at start-up, but only in
 * NODE_OPTIONS: V8 reads it when the heap is made, and the bin cannot pass
 * node flags portably. The growth factor is read at each growth, so setting
 * it to 1 stops the growth where it is. It is set once the young generation
 * reaches the cap, not at start: stopped at its first size (a few MB), the
 * many more collections cost half a second of CPU in the same plan.
 *
 * A user who sizes the young generation in NODE_OPTIONS keeps their sizing.
 *
 * node:v8 and node:perf_hooks are loaded only once the heap could hold a young generation at the
 * cap, or when the reads begin (`watchYoungGeneration`): a `validate` of a few files never needs
 * them, and loading them is a few ms of its start (docs/performance.md, "Start-up").
 */

/** The young generation's size (both semi-spaces, as V8 reports `new_space`) at which it stops growing. */
export const YOUNG_GENERATION_CAP = 32 * 1024 * 1024;

const USER_SIZED = /--(max|min)-semi-space-size|--semi-space-growth-factor|--max-heap-size/;

let state: 'off' | 'watching' | 'capped' = 'off';

/**
 * While loading the manifests, after each file: the young generation is part of the heap's total,
 * so while that total is under the cap there is nothing to check or watch yet. No collection is
 * reported during the synchronous load, hence a check per file.
 */
export function capYoungGeneration(): void {
  if (state === 'off' && process.memoryUsage().heapTotal < YOUNG_GENERATION_CAP) return;
  watchYoungGeneration();
}

/**
 * Stops the growth now if the young generation has reached the cap, else once a collection
 * finds it there. Called before the reads of a command that talks to the APIs: what they
 * read grows the heap while collections are reported.
 */
export function watchYoungGeneration(): void {
  if (state === 'capped') return;
  if (state === 'off' && USER_SIZED.test(`${process.env.NODE_OPTIONS ?? ''} ${process.execArgv.join(' ')}`)) {
    state = 'capped';
    return;
  }
  if (capIfReached()) return;
  if (state === 'watching') return;
  state = 'watching';
  const { PerformanceObserver } = process.getBuiltinModule('node:perf_hooks');
  const observer = new PerformanceObserver(() => {
    if (state !== 'capped' && !capIfReached()) return;
    observer.disconnect();
  });
  observer.observe({ entryTypes: ['gc'] });
}

function capIfReached(): boolean {
  const v8 = process.getBuiltinModule('node:v8');
  const young = v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0;
  if (young < YOUNG_GENERATION_CAP) return false;
  v8.setFlagsFromString('--semi-space-growth-factor=1');
  state = 'capped';
  return true;
}
