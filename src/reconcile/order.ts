/**
 * Kind order: a kind comes after the kinds it depends on. Creates and updates
 * run in this order, deletes in reverse.
 */
import { ConvergeError } from '../errors.ts';

export function orderKinds(kinds: ReadonlyArray<{ kind: string; dependsOn: readonly string[] }>): string[] {
  const byKind = new Map(kinds.map((k) => [k.kind, k]));
  const ordered: string[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (kind: string, path: string[]): void => {
    const seen = state.get(kind);
    if (seen === 'done') return;
    if (seen === 'visiting') {
      throw new ConvergeError('PLAN_INVALID', `kinds depend on each other in a cycle: ${[...path, kind].join(' -> ')}`);
    }
    state.set(kind, 'visiting');
    for (const dep of byKind.get(kind)?.dependsOn ?? []) if (byKind.has(dep)) visit(dep, [...path, kind]);
    state.set(kind, 'done');
    ordered.push(kind);
  };
  for (const k of kinds) visit(k.kind, []);
  return ordered;
}
