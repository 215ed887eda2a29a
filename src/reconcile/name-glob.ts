/**
 * Globs over names and scopes (`1.*`, `team-*`, `apps/*`, `ssh-*`): ownership scopes, `--target`,
 * `ignore` entries and policies' `match.scopes`. node:path's matchesGlob matches file paths, which
 * it normalises first: `legacy/../apps/y`, `apps/y/` and `apps//y` all match `apps/*`. A name is
 * not a path: the secrets API takes `legacy/../apps/y` as a name of its own, under `legacy/`, and
 * `--prune` over `apps/*` must not reach it. So a name with an empty, `.` or `..` segment matches
 * a pattern only by being equal to it; every other name is matched as POSIX globs are, on every
 * platform (a backslash is part of a name, not a separator).
 */
import { posix } from 'node:path';

export function matchesNameGlob(value: string, pattern: string): boolean {
  if (value === pattern) return true;
  return value.split('/').every(isPlainSegment) && posix.matchesGlob(value, pattern);
}

const isPlainSegment = (segment: string): boolean => segment !== '' && segment !== '.' && segment !== '..';
