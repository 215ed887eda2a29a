/**
 * Which files the given paths name. Directories are walked recursively for
 * `.yaml`/`.yml` in sorted order, so that load order (and so problem order and
 * "also declared at") is the same on every machine.
 */
import type { Dirent } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import { isAbsolute, join, normalize, relative, resolve, sep } from 'node:path';
import type { InputProblem } from '../errors.ts';
import { confinedRealPath, describeFsError, isInside, NOT_REGULAR } from './regular-file.ts';

export interface ManifestFile {
  /** Absolute path, for reading. */
  path: string;
  /** As the user gave it (or relative to cwd), for messages. */
  name: string;
  /**
   * Which path argument named it (0 for the first): a later one overlays an earlier one
   * (docs/environments.md, "Overlays").
   */
  layer: number;
}

const MANIFEST_EXTENSION = /\.ya?ml$/i;
/** The configuration file is YAML too, but never a manifest. */
const NOT_MANIFESTS = new Set(['converge.config.yaml', 'converge.config.yml']);
/** A policy's test cases sit next to it (docs/policies.md, "Testing policies"): never a manifest. */
const POLICY_TESTS = /\.test\.ya?ml$/i;
/**
 * Variable values sit next to an environment's configuration, inside the directory the
 * environment's manifests are in (docs/environments.md, "Variables"): never a manifest.
 */
const VALUES_FILES = /(^|\.)values\.ya?ml$/i;

/**
 * `roots` (real paths) are where a symbolic link in a walked directory may
 * lead: the repository (docs/security.md, "Reading input"); by default, the
 * directories given. A path given explicitly is taken wherever it is.
 */
export async function findManifestFiles(
  paths: readonly string[],
  cwd: string,
  roots?: readonly string[],
): Promise<{ files: ManifestFile[]; problems: InputProblem[] }> {
  const files: ManifestFile[] = [];
  const problems: InputProblem[] = [];
  const seen = new Set<string>();
  const add = (file: ManifestFile): void => {
    if (seen.has(file.path)) return;
    seen.add(file.path);
    files.push(file);
  };
  for (const [layer, given] of paths.entries()) {
    const path = resolve(cwd, given);
    const name = displayName(given, path, cwd);
    const info = await stat(path).catch((error: NodeJS.ErrnoException) => error);
    if (info instanceof Error) {
      problems.push({ file: name, line: 1, col: 1, message: describeFsError(info) });
    } else if (info.isDirectory()) {
      const found: ManifestFile[] = [];
      const before = problems.length;
      const real = await realpath(path);
      await walk(path, name, { files: found, problems, visited: new Set(), roots: roots ?? [real], layer });
      if (found.length === 0 && problems.length === before) {
        problems.push({ file: name, line: 1, col: 1, message: 'no .yaml or .yml files here' });
      }
      found.forEach(add);
    } else if (!info.isFile()) {
      problems.push({ file: name, line: 1, col: 1, message: `${NOT_REGULAR}: a manifest must be a file` });
    } else {
      add({ path, name, layer });
    }
  }
  return { files, problems };
}

interface Walk {
  files: ManifestFile[];
  /** Whatever cannot be read is a problem, never skipped: --prune would delete what it declares. */
  problems: InputProblem[];
  visited: Set<string>;
  roots: readonly string[];
  layer: number;
}

async function walk(dir: string, name: string, w: Walk): Promise<void> {
  let entries: Dirent[];
  let real: string;
  try {
    // two links to one directory: its files are listed once
    real = await realpath(dir);
    if (w.visited.has(real)) return;
    w.visited.add(real);
    entries = (await readdir(dir, { withFileTypes: true })).sort((a, b) => compare(a.name, b.name));
  } catch (error) {
    const message = `cannot read this directory: ${describeFsError(error as NodeJS.ErrnoException)}`;
    w.problems.push({ file: name, line: 1, col: 1, message });
    return;
  }
  for (const entry of entries) {
    if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
    const path = join(dir, entry.name);
    const childName = join(name, entry.name);
    const manifest = isManifestName(entry.name);
    const kind = await entryKind(entry, path, { parent: real, roots: w.roots, manifest });
    if (typeof kind === 'object') w.problems.push({ file: childName, line: 1, col: 1, message: kind.problem });
    else if (kind === 'dir') await walk(path, childName, w);
    else if (kind === 'file' && manifest) w.files.push({ path, name: childName, layer: w.layer });
    else if (kind === 'other' && manifest) {
      w.problems.push({ file: childName, line: 1, col: 1, message: `${NOT_REGULAR}: a manifest must be a file` });
    }
  }
}

function isManifestName(name: string): boolean {
  return (
    MANIFEST_EXTENSION.test(name) &&
    !NOT_MANIFESTS.has(name.toLowerCase()) &&
    !POLICY_TESTS.test(name) &&
    !VALUES_FILES.test(name)
  );
}

/** What an entry is; a link is judged by where it leads, and refused when that is nowhere, around or away. */
async function entryKind(
  entry: Dirent,
  path: string,
  where: { parent: string; roots: readonly string[]; manifest: boolean },
): Promise<'dir' | 'file' | 'other' | { problem: string }> {
  if (entry.isDirectory()) return 'dir';
  if (entry.isFile()) return 'file';
  if (!entry.isSymbolicLink()) return 'other';
  const target = await stat(path).catch((error: NodeJS.ErrnoException) => error);
  if (target instanceof Error) {
    const why = target.code === 'ELOOP' ? 'a symbolic link that loops' : 'a symbolic link to nothing';
    return { problem: `${why} (${describeFsError(target)}): fix or remove it` };
  }
  // only what would be read matters: a directory, or a file that looks like a manifest
  if (!target.isDirectory() && !(target.isFile() && where.manifest)) return 'other';
  // judged by where it leads only: the directory walked may be outside the roots, given explicitly
  const confined = confinedRealPath(path, where.roots, { asWritten: false });
  if ('fsError' in confined) throw confined.fsError;
  if ('outside' in confined) {
    return {
      problem: `a symbolic link out of the repository (to ${confined.real}): manifests are read only inside it`,
    };
  }
  const { real } = confined;
  if (target.isDirectory() && isInside(where.parent, real)) {
    return { problem: 'a symbolic link that loops (to a directory holding it): fix or remove it' };
  }
  return target.isDirectory() ? 'dir' : 'file';
}

function displayName(given: string, path: string, cwd: string): string {
  return isAbsolute(given) ? shownPath(path, cwd) : normalize(given);
}

/** An absolute path as messages show it: relative to cwd when inside it. */
export function shownPath(path: string, cwd: string): string {
  const rel = relative(cwd, path);
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel) ? rel : path;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
