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
 */
import { createRequire } from 'node:module';

/** node:v8, loaded when a check runs: `validate` without policies loads no module it does not use. */
const v8 = () => createRequire(import.meta.url)('node:v8') as typeof import('node:v8');

/** Flags a user gave node that decide the compilers: then theirs stand, untouched. */
const COMPILER_FLAG = /--(no-?)?(turbofan|opt|jitless|max-opt)\b/;

// V8 takes `--no_turbofan` and `--max_opt` as well: compared with `-` for `_`
const chosen = (flags: string): boolean => COMPILER_FLAG.test(flags.replaceAll('_', '-'));
const userChoseCompilers = (): boolean => process.execArgv.some(chosen) || chosen(process.env.NODE_OPTIONS ?? '');

/**
 * `work`, run while V8 does not optimize with Turbofan; it is on again afterwards, thrown or not.
 * `policies`: how many the check runs; with none there is no burst, and nothing is changed.
 */
export function withoutTurbofan<T>(policies: number, work: () => T): T {
  if (policies === 0 || userChoseCompilers()) return work();
  const { setFlagsFromString } = v8();
  setFlagsFromString('--no-turbofan');
  try {
    return work();
  } finally {
    setFlagsFromString('--turbofan');
  }
}
