/**
 * Links in an uploaded archive are never followed here, but one that would
 * lead out of the module's root once extracted makes the archive hostile,
 * and the registry refuses it (the version ends `reg_ingress_failed` with
 * the reason). Two rules that a check of each link alone misses:
 * - a hard link's target is a path from the archive's root (as tar writes
 *   it), not from the link's own directory: `a/b/c -> ../../etc/passwd`
 *   leaves the root;
 * - a symbolic link is resolved through the archive's other symbolic links,
 *   as a file system would after extraction: `d/up -> ..` stays inside, but
 *   `d/out -> up/..` then leaves it. A chain that loops is refused too.
 */
import { entrySegments, isAbsoluteEntry } from './archive-paths.ts';
import { IngestError } from './errors.ts';

/** Symbolic links resolved deeper than this loop, as ELOOP says on Linux. */
const MAX_HOPS = 40;

export interface ArchiveLinks {
  /** Symbolic links: clean entry path -> target as written. */
  symbolic: Map<string, string>;
  /** Hard links: clean entry path -> target as written (from the archive's root). */
  hard: Map<string, string>;
}

export function checkLinks(links: ArchiveLinks): void {
  for (const [path, target] of links.hard) {
    refuseAbsolute(path, target);
    if (resolve([], entrySegments(target), links.symbolic, 0) === undefined) throw outside(path);
  }
  for (const [path, target] of links.symbolic) {
    refuseAbsolute(path, target);
    const parent = entrySegments(path).slice(0, -1);
    if (resolve(parent, entrySegments(target), links.symbolic, 0) === undefined) throw outside(path);
  }
}

/** Where `rest` leads from the directory `from`, or undefined when it leaves the root. */
function resolve(from: string[], rest: string[], links: Map<string, string>, hops: number): string[] | undefined {
  let at = [...from];
  for (const segment of rest) {
    if (segment === '..') {
      if (at.pop() === undefined) return undefined;
      continue;
    }
    at.push(segment);
    const target = links.get(at.join('/'));
    if (target === undefined) continue;
    if (hops >= MAX_HOPS)
      throw new IngestError(`the archive's links loop (through ${JSON.stringify(at.join('/'))})`, 'archive');
    if (isAbsoluteEntry(target)) return undefined;
    const resolved = resolve(at.slice(0, -1), entrySegments(target), links, hops + 1);
    if (resolved === undefined) return undefined;
    at = resolved;
  }
  return at;
}

function refuseAbsolute(path: string, target: string): void {
  if (isAbsoluteEntry(target)) {
    throw new IngestError(`the archive entry ${JSON.stringify(path)} links to an absolute path`, 'archive');
  }
}

function outside(path: string): IngestError {
  return new IngestError(`the archive entry ${JSON.stringify(path)} links outside the module's root`, 'archive');
}
