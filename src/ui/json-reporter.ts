import type { ReconcileEvent } from '../reconcile/events.ts';
import type { Output } from './output.ts';

/** One JSON object per line for machines: the same events the other views render. */
export function jsonReporter(output: Output): (event: ReconcileEvent) => void {
  return (event) => output.out(JSON.stringify(event));
}
