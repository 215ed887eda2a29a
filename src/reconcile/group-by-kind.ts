/** Items by their kind, each list in the items' order, kinds in order of first appearance. */
export function groupByKind<T extends { kind: string }>(items: readonly T[]): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const item of items) {
    const list = map.get(item.kind);
    if (list) list.push(item);
    else map.set(item.kind, [item]);
  }
  return map;
}
