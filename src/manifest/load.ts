/**
 * Manifests -> desired objects. Everything about the input is checked here,
 * offline, and every problem in every file is reported at once as one
 * InputError; nothing else happens on bad input.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { InputError, type InputProblem } from '../errors.ts';
import type { DesiredObject } from '../reconcile/types.ts';
import type { KindCatalog } from './catalog.ts';
import { buildObject, type DocumentContext } from './document.ts';
import { parseDocuments } from './documents.ts';
import { findDuplicates } from './duplicates.ts';
import { describeFsError, findManifestFiles, type ManifestFile } from './files.ts';
import { schemaSet } from './schemas.ts';

export interface LoadOptions {
  /** For `${env:NAME}`; defaults to process.env. */
  env?: Record<string, string | undefined>;
  /** Relative paths (and the file names in messages) are relative to it; defaults to process.cwd(). */
  cwd?: string;
  /** Where `<Kind>.schema.json` files live; defaults to the package's `schemas/`. */
  schemaDir?: string;
}

export async function loadManifests(
  paths: string[],
  catalog: KindCatalog,
  options: LoadOptions = {},
): Promise<DesiredObject[]> {
  const cwd = options.cwd ?? process.cwd();
  const { files, problems } = await findManifestFiles(paths, cwd);
  const context = {
    catalog,
    schemas: schemaSet(options.schemaDir === undefined ? undefined : resolve(cwd, options.schemaDir)),
    env: options.env ?? process.env,
    cwd,
    readText: cachedReader(),
  };
  // Synchronous reads: loading is all the process does now, and for thousands of small files
  // readFileSync is several times faster than fs.promises.
  const results = files.map((file) => loadFile(file, context));
  const objects = results.flatMap((r) => r.objects);
  problems.push(...results.flatMap((r) => r.problems), ...findDuplicates(objects));
  if (problems.length > 0) throw new InputError(inFileOrder(problems, files));
  return objects;
}

function loadFile(
  file: ManifestFile,
  context: Omit<DocumentContext, 'dir'>,
): { objects: DesiredObject[]; problems: InputProblem[] } {
  let text: string;
  try {
    text = readFileSync(file.path, 'utf8');
  } catch (error) {
    const message = describeFsError(error as NodeJS.ErrnoException);
    return { objects: [], problems: [{ file: file.name, line: 1, col: 1, message }] };
  }
  const { documents, problems } = parseDocuments(text, file.name);
  const objects: DesiredObject[] = [];
  const ctx: DocumentContext = { ...context, dir: dirname(file.path) };
  for (const doc of documents) {
    const built = buildObject(doc, ctx);
    if (built.object) objects.push(built.object);
    problems.push(...built.problems);
  }
  return { objects, problems };
}

/** `${file:...}` contents, read once per load even when many values use the same file. */
function cachedReader(): (path: string) => string {
  const cache = new Map<string, { text: string } | { error: unknown }>();
  return (path) => {
    let entry = cache.get(path);
    if (!entry) {
      try {
        entry = { text: readFileSync(path, 'utf8') };
      } catch (error) {
        entry = { error };
      }
      cache.set(path, entry);
    }
    if ('error' in entry) throw entry.error;
    return entry.text;
  };
}

/** Problems sorted by file (in load order), then line and column; path problems first. */
function inFileOrder(problems: InputProblem[], files: readonly ManifestFile[]): InputProblem[] {
  const rank = new Map(files.map((f, i) => [f.name, i]));
  return problems
    .map((p, i) => ({ p, i }))
    .sort((a, b) => {
      const byFile = (rank.get(a.p.file) ?? -1) - (rank.get(b.p.file) ?? -1);
      return byFile || a.p.line - b.p.line || a.p.col - b.p.col || a.i - b.i;
    })
    .map(({ p }) => p);
}
