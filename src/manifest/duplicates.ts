import { formatPosition, type InputProblem } from '../errors.ts';
import { addressKey, describeAddress } from '../reconcile/address.ts';
import type { DesiredObject } from '../reconcile/types.ts';

/** The same address declared twice, anywhere: each later declaration names the first. */
export function findDuplicates(objects: readonly DesiredObject[]): InputProblem[] {
  const first = new Map<string, DesiredObject>();
  const problems: InputProblem[] = [];
  for (const object of objects) {
    const key = addressKey(object.address);
    const earlier = first.get(key);
    if (!earlier) {
      first.set(key, object);
      continue;
    }
    const what = describeAddress(object.address);
    problems.push({
      ...object.source,
      message: `duplicate ${what} (also declared at ${formatPosition(earlier.source)})`,
    });
  }
  return problems;
}
