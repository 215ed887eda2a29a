/**
 * The policy check, run without V8's optimizing compiler (docs/policies.md, "Cost").
 *
 * A check is a short, synchronous burst of the CEL library's evaluator: tens of thousands of
 * runs of a few small syntax trees, in a process that ends soon after. The evaluator's recursive
 * functions turn hot within it, and V8 then compiles each with Turbofan on its worker threads
 * (10 to 15 ms of CPU each); the code it makes runs for a few milliseconds before the process
 * exits, so it never pays back what it cost. Maglev, V8's quicker compiler, still compiles
 * them. Measured over the policies bench's 10,000 objects: ~50 ms less CPU for the check, its
 * time on the main thread the same. The flag is V8's, read when it decides what to compile, so
 * turning it off for the burst and on after it (the documented use of `v8.setFlagsFromString`)
 * leaves the rest of the run as it was. Nothing else runs meanwhile: the work is synchronous.
 *
 * When the check is the run's last work (`validate`: one line of output follows it), V8's
 * incremental marking is also turned off, and stays off. The check's allocations bring the heap
 * near V8's limit for starting a major collection, which would then mark the whole heap (tens of
 * megabytes of manifests) on the main thread and the worker threads just before the exit discards
 * it: in the policies bench, a second Mark-Compact in every run with policies, none without them,
 * 25 to 60 ms of CPU. Without incremental marking V8 still collects in full if the heap reaches
 * its limit, so memory stays bounded; `plan`, `apply` and `drift` have work after their check and
 * keep it on.
 */
import { createRequire } from 'node:module';

/** node:v8, loaded when a check runs: `validate` without policies loads no module it does not use. */
const v8 = () => createRequire(import.meta.url)('node:v8') as typeof import('node:v8');

/** Flags a user gave node that decide the compilers: then theirs stand, untouched. */
const COMPILER_FLAG = /--(no-?)?(turbofan|opt|jitless|max-opt)\b/;
/** Flags a user gave node that decide how the heap is marked: then theirs stand. */
const MARKING_FLAG = /--(no-?)?(incremental-marking|concurrent-marking|single-threaded-gc|predictable)\b/;

// V8 takes `--no_turbofan` and `--max_opt` as well: compared with `-` for `_`
const userChose = (flag: RegExp): boolean => {
  const chosen = (flags: string): boolean => flag.test(flags.replaceAll('_', '-'));
  return process.execArgv.some(chosen) || chosen(process.env.NODE_OPTIONS ?? '');
};

export interface BurstOptions {
  /** Nothing but a line of output follows the work: incremental marking is turned off for good. */
  endsRun?: boolean;
}

/**
 * `work`, run while V8 does not optimize with Turbofan; it is on again afterwards, thrown or not.
 * `policies`: how many the check runs; with none there is no burst, and nothing is changed.
 */
export function withoutTurbofan<T>(policies: number, work: () => T, options: BurstOptions = {}): T {
  if (policies === 0) return work();
  if (options.endsRun && !userChose(MARKING_FLAG)) v8().setFlagsFromString('--no-incremental-marking');
  if (userChose(COMPILER_FLAG)) return work();
  const { setFlagsFromString } = v8();
  setFlagsFromString('--no-turbofan');
  try {
    return work();
  } finally {
    setFlagsFromString('--turbofan');
  }
}
