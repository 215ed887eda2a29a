import type { InputProblem } from '../errors.ts';
import type { DesiredObject } from '../reconcile/types.ts';

/** The same kind and identity declared twice, anywhere: each later declaration names the first. */
export function findDuplicates(objects: readonly DesiredObject[]): InputProblem[] {
  const first = new Map<string, DesiredObject>();
  const problems: InputProblem[] = [];
  for (const object of objects) {
    const key = `${object.kind}\0${object.id}`;
    const earlier = first.get(key);
    if (!earlier) {
      first.set(key, object);
      continue;
    }
    const what = object.id === '' ? object.kind : `${object.kind} "${object.id}"`;
    const { file, line, col } = earlier.source;
    problems.push({ ...object.source, message: `duplicate ${what} (also declared at ${file}:${line}:${col})` });
  }
  return problems;
}
