/**
 * Field patterns: a spec path whose `*` stands for one segment (`default_extensions.*`). One
 * matcher serves what a document leaves to someone else (`ignore:`, ignore.ts) and what it marks
 * secret (`sensitive:`, manifest/sensitive-paths.ts); each list is checked against its own table.
 */

export const segmentsOf = (path: string): string[] => path.split('.');

/** Whether `pattern` names `path` itself (segment by segment, `*` for any one). */
export function names(pattern: readonly string[], path: readonly string[]): boolean {
  return pattern.length === path.length && pattern.every((step, i) => step === '*' || step === path[i]);
}

/** Whether `path` lies on the way to what `pattern` names (`a` on the way to `a.*`). */
function leadsTo(pattern: readonly string[], path: readonly string[]): boolean {
  return pattern.length > path.length && path.every((step, i) => pattern[i] === '*' || pattern[i] === step);
}

/**
 * The paths under `value` the patterns name, outermost only (what a pattern names goes with all
 * inside it), in the order `entriesOf` gives each container's entries; a value it gives none
 * for (undefined) is a leaf.
 */
export function namedPaths(
  value: unknown,
  patterns: readonly string[],
  entriesOf: (value: unknown) => Iterable<[string, unknown]> | undefined,
): string[] {
  const wanted = patterns.map(segmentsOf);
  const out: string[] = [];
  const walk = (node: unknown, prefix: readonly string[]) => {
    for (const [key, child] of entriesOf(node) ?? []) {
      const path = [...prefix, key];
      if (wanted.some((pattern) => names(pattern, path))) out.push(path.join('.'));
      else if (wanted.some((pattern) => leadsTo(pattern, path))) walk(child, path);
    }
  };
  walk(value, []);
  return out;
}
