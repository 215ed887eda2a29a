/**
 * Where a command will write (`plan --out`, `drift --output`, `export --out`,
 * the fingerprint store), checked before any request is sent: a run must not
 * send secrets or read a whole server and then fail to save what it did.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { ConvergeError } from '../errors.ts';

/**
 * Throws a one-line error when `path` cannot be written: it is a directory
 * (for a file) or a file (for a directory), or the nearest existing directory
 * above it is not writable or not a directory.
 */
export function checkWritable(path: string, what: string, kind: 'file' | 'directory' = 'file'): void {
  const target = resolve(path);
  const refuse = (why: string) =>
    new ConvergeError('INPUT_INVALID', `${what} ${path} cannot be written: ${why}; nothing was sent`, {
      hint: 'choose a path in a writable directory',
    });
  const existing = statIfExists(target);
  if (existing) {
    if (kind === 'file' && existing.isDirectory()) throw refuse('it is a directory');
    if (kind === 'directory' && !existing.isDirectory()) throw refuse('it is not a directory');
    if (!writable(target)) throw refuse('permission denied');
    return;
  }
  let dir = dirname(target);
  for (;;) {
    const info = statIfExists(dir);
    if (info) {
      if (!info.isDirectory()) throw refuse(`${dir} is not a directory`);
      if (!writable(dir)) throw refuse(`${dir} is not writable`);
      return;
    }
    const parent = dirname(dir);
    if (parent === dir) throw refuse('no directory above it exists');
    dir = parent;
  }
}

function statIfExists(path: string) {
  try {
    return statSync(path);
  } catch {
    return undefined; // absent, or below a file (ENOTDIR): the walk up says which
  }
}

function writable(path: string): boolean {
  try {
    accessSync(path, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}
