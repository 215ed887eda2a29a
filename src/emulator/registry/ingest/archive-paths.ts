/**
 * The path of an archive entry, checked before it is used as a key. Nothing is
 * written to disk, but the paths end up in the registry's answers and may be
 * unpacked by someone else later, so an entry that would land outside the
 * module's root (an absolute path, or a `..` segment: node-tar's own extractor
 * refuses those too) makes the whole archive unacceptable.
 */
import { IngestError } from './errors.ts';

/**
 * `raw` as a clean relative path (`./a//b` → `a/b`), or '' for the root itself.
 * Backslashes count as separators: an archive made on Windows may use them, and
 * `..\x` must not slip through.
 */
export function entryPath(raw: string): string {
  if (raw.includes('\0'))
    throw new IngestError(`the archive entry ${JSON.stringify(raw)} has a NUL in its path`, 'archive');
  if (isAbsoluteEntry(raw)) {
    throw new IngestError(`the archive entry ${JSON.stringify(raw)} has an absolute path`, 'archive');
  }
  const segments = entrySegments(raw);
  if (segments.includes('..')) {
    throw new IngestError(
      `the archive entry ${JSON.stringify(raw)} leaves the module's root ('..' in its path)`,
      'archive',
    );
  }
  return segments.join('/');
}

/** Whether an entry's path (or a link's target) starts at a root: `/`, `\`, or a drive letter. */
export function isAbsoluteEntry(path: string): boolean {
  return /^([/\\]|[A-Za-z]:)/.test(path);
}

/** The segments of an entry's path, either separator, without empty and `.` ones (`..` kept). */
export function entrySegments(path: string): string[] {
  return path.split(/[/\\]/).filter((s) => s !== '' && s !== '.');
}
