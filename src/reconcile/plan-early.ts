/**
 * Plans each declared object soon after its live answer arrives, while the
 * other reads are in flight: canonical forms and diffs are most of the CPU
 * of building a plan, and during the reads the client mostly waits, so
 * little of that CPU is left for after the last answer (docs/performance.md,
 * "Scale"). The planner (plan.ts) reuses a result only for the live object
 * it was made with, and plans anything not done here itself.
 *
 * The work waits for the loop turn after the answers of a turn are handled:
 * the client is one thread, and every microsecond spent between an answer
 * and the request that takes its place in the window lengthens the round
 * trip of all 64 requests in flight.
 */
import { addressKey } from './address.ts';
import { type EarlyResult, type PlanOptions, planObject } from './plan.ts';
import type { Provider } from './provider.ts';
import type { OnRead } from './read.ts';
import type { DesiredObject, LiveObject } from './types.ts';

export interface EarlyPlans {
  onRead: OnRead;
  planned: ReadonlyMap<string, EarlyResult>;
  /** No more work: the reads are done and the planner takes over what is left. */
  stop(): void;
}

export function planEarly(
  byKind: ReadonlyMap<string, readonly DesiredObject[]>,
  providers: ReadonlyMap<string, Provider>,
  options: PlanOptions,
): EarlyPlans {
  const declared = new Map<string, DesiredObject>();
  for (const desired of byKind.values()) for (const d of desired) declared.set(addressKey(d.address), d);
  const planned = new Map<string, EarlyResult>();
  let pending: Array<{ kind: string; key: string; live: LiveObject }> = [];
  let scheduled = false;
  let stopped = false;

  const plan = (kind: string, key: string, live: LiveObject) => {
    const desired = declared.get(key);
    const provider = providers.get(kind);
    if (!desired || desired.kind !== kind || desired.ensure !== 'present' || !provider) return;
    try {
      planned.set(key, { live, result: planObject(provider, desired, key, live, options) });
    } catch {
      // planned again with the whole plan, which reports the error where it always has
    }
  };
  const drain = () => {
    scheduled = false;
    const batch = pending;
    pending = [];
    if (!stopped) for (const { kind, key, live } of batch) plan(kind, key, live);
  };

  return {
    onRead(kind, key, live) {
      if (stopped) return;
      pending.push({ kind, key, live });
      if (scheduled) return;
      scheduled = true;
      // two hops: the first lands among the check-phase callbacks that send the next
      // requests (undici writes from setImmediate), the second runs after them
      setImmediate(() => setImmediate(drain));
    },
    planned,
    stop() {
      stopped = true;
      pending = [];
    },
  };
}
