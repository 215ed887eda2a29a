/**
 * Manifests -> desired objects. Everything about the input is checked here,
 * offline, and every problem in every file is reported at once as one
 * InputError; nothing else happens on bad input.
 */
import { statSync } from 'node:fs';
import { dirname, resolve, sep } from 'node:path';
import { API_TOKEN_VARIABLES } from '../api/profiles.ts';
import { InputError, type InputProblem } from '../errors.ts';
import type { DesiredObject } from '../reconcile/types.ts';
import type { KindCatalog } from './catalog.ts';
import { buildObject, type DocumentContext, type PatchObject } from './document.ts';
import { type SourceDocument, withPositions } from './documents.ts';
import {
  DEFAULT_MAX_FILE_BYTES,
  type EnvAccess,
  type FileAccess,
  type FileMode,
  readConfined,
  realRoots,
} from './file-access.ts';
import { findManifestFiles, type ManifestFile } from './files.ts';
import { isOverlaid, type ManifestOnlyDocument, overlaidDocument } from './manifest-only.ts';
import { applyOverlays } from './overlays.ts';
import { type ParsedFile, readManifest } from './read-manifest.ts';
import { schemaSet } from './schemas.ts';
import { validateDocument } from './validate.ts';
import { type GivenValues, resolveVariables, type VariableLookup } from './variables.ts';

export interface LoadOptions {
  /** For `${env:NAME}`; defaults to process.env. */
  env?: Record<string, string | undefined>;
  /** Relative paths (and the file names in messages) are relative to it; defaults to process.cwd(). */
  cwd?: string;
  /** Where `<Kind>.schema.json` files live; defaults to the package's `schemas/`. */
  schemaDir?: string;
  /** What `${file:}` may read; default: below the manifests' common directory, up to 1 MiB. */
  files?: { roots: readonly string[]; maxBytes?: number };
  /** What `${env:}` may read; default: anything but converge's own credentials (`TOKEN_VARIABLES`). */
  envAccess?: EnvAccess;
  /** Checks of the manifest-only documents (a policy's rule), reported with every other problem. */
  checkDocuments?: (documents: readonly ManifestOnlyDocument[]) => Promise<InputProblem[]>;
  /** The values given for variables (`--var`, values files, `CONVERGE_VAR_*`: variable-values.ts). */
  variables?: GivenValues;
  /**
   * Called after each file is parsed and after each is built into objects: loading is one
   * synchronous stretch, and the CLI watches the heap's growth there (src/cli/young-generation.ts).
   */
  afterFile?: () => void;
}

/** converge's own credentials: never interpolated, whatever the configuration says (the API tokens, the saved plans' key). */
export const TOKEN_VARIABLES = [...API_TOKEN_VARIABLES, 'CONVERGE_PLAN_KEY'];

export async function loadManifests(
  paths: string[],
  catalog: KindCatalog,
  options: LoadOptions = {},
): Promise<DesiredObject[]> {
  return (await loadManifestSet(paths, catalog, options)).objects;
}

/** The manifests' API objects, and their manifest-only documents (policies: src/manifest/manifest-only.ts). */
export interface ManifestSet {
  objects: DesiredObject[];
  documents: ManifestOnlyDocument[];
  /** The declared variables and their values (a sensitive one's is a secret). */
  variables: VariableLookup;
}

export async function loadManifestSet(
  paths: string[],
  catalog: KindCatalog,
  options: LoadOptions = {},
): Promise<ManifestSet> {
  const cwd = options.cwd ?? process.cwd();
  const access: FileAccess = {
    roots: realRoots(options.files?.roots ?? defaultRoots(paths, cwd)),
    maxBytes: options.files?.maxBytes ?? DEFAULT_MAX_FILE_BYTES,
  };
  // a link in a manifest directory may lead where `${file:}` may read, no further
  const { files, problems } = await findManifestFiles(paths, cwd, access.roots);
  const context = {
    catalog,
    schemas: await schemaSet(options.schemaDir === undefined ? undefined : resolve(cwd, options.schemaDir)),
    env: options.env ?? process.env,
    envAccess: options.envAccess ?? { forbidden: new Set(TOKEN_VARIABLES) },
    cwd,
    readFile: cachedReader(access),
    roots: access.roots,
  };
  // Synchronous reads: loading is all the process does now, and for thousands of small files
  // readFileSync is several times faster than fs.promises. (Parsing in worker threads was tried:
  // on two cores each worker compiles the yaml library afresh, which cost more CPU than the parse
  // it shared and took no less time; docs/performance.md, "Validation".)
  const afterFile = options.afterFile ?? (() => {});
  const parsed = files.map((file) => {
    const read = readManifest(file);
    afterFile();
    return read;
  });
  const sources = files.map((file, i) =>
    withPositions((parsed[i] as ParsedFile).text, file.name, (parsed[i] as ParsedFile).documents),
  );
  // the variables pre-pass: every declaration of every file, before any document uses one
  const declared = declareVariables(sources.flat(), { ...context, dir: context.cwd });
  const resolved = await resolveVariables(declared.declarations, options.variables);
  const withVariables = { ...context, variables: resolved.variables };
  const results = files.map((file, i) => {
    const loaded = loadFile(file, parsed[i] as ParsedFile, sources[i] ?? [], withVariables);
    afterFile();
    return loaded;
  });
  const documents = [...declared.declarations.map((d) => d.document), ...results.flatMap((r) => r.documents)];
  const layered = results.flatMap((r, i) => r.objects.map((item) => ({ item, layer: files[i]?.layer ?? 0, file: i })));
  const patches = results.flatMap((r, i) => r.patches.map((item) => ({ item, layer: files[i]?.layer ?? 0, file: i })));
  // the overlay pass: patches and absents over their declarations, duplicates (docs/environments.md)
  const overlaid = applyOverlays(layered, patches, {
    catalog,
    schemas: context.schemas,
    layers: paths,
    unbuilt: new Set(results.flatMap((r) => r.unbuilt)),
  });
  // a Policy went through the overlay pass as an object; once merged it is a document again
  const objects = overlaid.objects.filter((o) => !isOverlaid(o.kind));
  const asDeclared = new Set(layered.map(({ item }) => item));
  for (const object of overlaid.objects) {
    if (!isOverlaid(object.kind) || object.ensure === 'absent') continue;
    const document = { kind: object.kind, metadata: object.metadata, spec: object.spec };
    // one no patch changed has its schema defaults already (document.ts); a patched spec is as the
    // patches wrote it, and the overlay pass checked it but kept no defaults: filled in here
    const data = asDeclared.has(object)
      ? document
      : validateDocument(context.schemas.validator(object.kind), document, new Set()).validated;
    documents.push(overlaidDocument(object, data));
  }
  // every problem at once: the kinds' own rules run over the documents that did build
  problems.push(...declared.problems, ...resolved.problems);
  problems.push(...results.flatMap((r) => r.problems), ...overlaid.problems, ...ruleProblems(objects, catalog));
  problems.push(...((await options.checkDocuments?.(documents)) ?? []));
  if (problems.length > 0) throw new InputError(inFileOrder(problems, files));
  return { objects, documents, variables: resolved.variables };
}

/** The `kind: Variable` documents, built (checked against their schema) ahead of every other. */
function declareVariables(
  sources: readonly SourceDocument[],
  context: DocumentContext,
): { declarations: Array<{ doc: SourceDocument; document: ManifestOnlyDocument }>; problems: InputProblem[] } {
  const declarations: Array<{ doc: SourceDocument; document: ManifestOnlyDocument }> = [];
  const problems: InputProblem[] = [];
  for (const doc of sources.filter(isVariable)) {
    const built = buildObject(doc, context);
    if (built.document) declarations.push({ doc, document: built.document });
    problems.push(...built.problems);
  }
  return { declarations, problems };
}

const isVariable = (doc: SourceDocument) => (doc.data as { kind?: unknown } | null)?.kind === 'Variable';

/** The kinds' own rules over declared objects, each problem at the value it is about. */
function ruleProblems(objects: readonly DesiredObject[], catalog: KindCatalog): InputProblem[] {
  if (!catalog.check) return [];
  const present = objects.filter((o) => o.ensure === 'present');
  return present.flatMap((object) =>
    (catalog.check?.(object, present) ?? []).map((p) => ({
      ...(p.at ?? object.positions[p.path] ?? object.source),
      message: p.message,
    })),
  );
}

function loadFile(
  file: ManifestFile,
  parsed: ParsedFile,
  sources: readonly SourceDocument[],
  context: Omit<DocumentContext, 'dir'>,
): {
  objects: DesiredObject[];
  patches: PatchObject[];
  documents: ManifestOnlyDocument[];
  unbuilt: string[];
  problems: InputProblem[];
} {
  const problems = [...parsed.problems];
  const unbuilt: string[] = [];
  const objects: DesiredObject[] = [];
  const patches: PatchObject[] = [];
  const documents: ManifestOnlyDocument[] = [];
  // absolute: `${file:}` and a module's `source` resolve against it whatever the process's directory
  const ctx: DocumentContext = { ...context, dir: resolve(context.cwd, dirname(file.path)) };
  for (const doc of sources) {
    if (isVariable(doc)) continue; // declared by the pre-pass
    const built = buildObject(doc, ctx);
    if (built.object) objects.push(built.object);
    if (built.patch) patches.push(built.patch);
    if (built.document) documents.push(built.document);
    if (built.unbuilt) unbuilt.push(built.unbuilt);
    problems.push(...built.problems);
  }
  return { objects, patches, documents, unbuilt, problems };
}

/** `${file:...}` contents, read once per load even when many values use the same file. */
function cachedReader(access: FileAccess): (path: string, mode: FileMode) => { text: string } | { error: string } {
  const cache = new Map<string, { text: string } | { error: string }>();
  return (path, mode) => {
    const key = `${mode}:${path}`;
    let entry = cache.get(key);
    if (!entry) {
      entry = readConfined(path, mode, access);
      cache.set(key, entry);
    }
    return entry;
  };
}

/**
 * Where `${file:}` (and a module's source) may read when nothing else is configured: the
 * manifests' common directory. The CLI adds the configuration's directory and
 * `interpolation.fileRoots` around it.
 */
export function defaultRoots(paths: readonly string[], cwd: string): string[] {
  return [commonDirectory(manifestDirectories(paths, cwd))];
}

/** The directories the given manifest paths name: a directory itself, a file's own directory. */
function manifestDirectories(paths: readonly string[], cwd: string): string[] {
  return paths.map((p) => {
    const path = resolve(cwd, p);
    try {
      return statSync(path).isDirectory() ? path : dirname(path);
    } catch {
      return dirname(path);
    }
  });
}

/** The deepest directory holding every given directory. */
function commonDirectory(dirs: readonly string[]): string {
  if (dirs.length === 0) return process.cwd();
  let root = dirs[0]!;
  for (const dir of dirs.slice(1)) {
    while (dir !== root && !dir.startsWith(root.endsWith(sep) ? root : root + sep)) root = dirname(root);
  }
  return root;
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
