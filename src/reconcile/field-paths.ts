/**
 * Dotted paths into nested field maps (`test-config.tests-enabled`), for the
 * field tables of kinds whose API nests attributes. A key without a dot is a
 * path of one step, so flat tables read the same.
 */
import { isPlainObject } from './equal.ts';
import type { Fields, Json } from './types.ts';

export function getPath(fields: Fields, path: string): Json | undefined {
  // most tables are flat: one property lookup, no split
  if (!path.includes('.')) return fields[path];
  let value: Json | undefined = fields;
  for (const step of path.split('.')) {
    if (!isPlainObject(value)) return undefined;
    value = value[step];
  }
  return value;
}

/** Sets a value at a path in `fields` (mutated), making the maps on the way. */
export function setPath(fields: Fields, path: string, value: Json): void {
  if (!path.includes('.')) {
    fields[path] = value;
    return;
  }
  const steps = path.split('.');
  const last = steps.pop()!;
  let node: Fields = fields;
  for (const step of steps) {
    const next = node[step];
    if (isPlainObject(next)) node = next;
    else node = node[step] = {};
  }
  node[last] = value;
}

/** Removes a path from `fields` (mutated), and the maps it leaves empty. */
export function deletePath(fields: Fields, path: string): void {
  if (!path.includes('.')) {
    delete fields[path];
    return;
  }
  const steps = path.split('.');
  const last = steps.pop()!;
  const trail: Array<[Fields, string]> = [];
  let node: Fields = fields;
  for (const step of steps) {
    const next = node[step];
    if (!isPlainObject(next)) return;
    trail.push([node, step]);
    node = next;
  }
  delete node[last];
  for (const [parent, step] of trail.reverse()) {
    const child = parent[step];
    if (isPlainObject(child) && Object.keys(child).length === 0) delete parent[step];
    else break;
  }
}

/** A copy of `fields` without the values at `paths` (a flat path list costs a shallow copy only). */
export function withoutPaths(fields: Fields, paths: readonly string[]): Fields {
  if (!paths.some((path) => getPath(fields, path) !== undefined)) return fields;
  const out = paths.some((path) => path.includes('.')) ? structuredClone(fields) : { ...fields };
  for (const path of paths) deletePath(out, path);
  return out;
}

/** Whether `path` is `ancestor` or lies inside it (`vcs-repo.identifier` inside `vcs-repo`). */
export function isWithin(path: string, ancestor: string): boolean {
  return path === ancestor || path.startsWith(`${ancestor}.`);
}

/** The top-level fields of a table's rows (`test-config` for `test-config.tests-enabled`). */
export function topFields(rows: readonly string[]): string[] {
  return rows.map((row) => row.split('.')[0] as string);
}

/** The maps on the way to each path (`a` and `a.b` for `a.b.c`). */
export function parentPaths(paths: Iterable<string>): Set<string> {
  const out = new Set<string>();
  for (const path of paths) {
    for (let dot = path.indexOf('.'); dot !== -1; dot = path.indexOf('.', dot + 1)) out.add(path.slice(0, dot));
  }
  return out;
}
