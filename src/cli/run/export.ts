/**
 * `converge export`: live objects of the chosen kinds and scopes, written as
 * manifests that validate and plan clean against the same server. Reads only.
 */
import { dirname, join, relative, resolve, sep } from 'node:path';
import PQueue from 'p-queue';
import { ConvergeError } from '../../errors.ts';
import {
  buildExport,
  canExport,
  ENV_EXAMPLE,
  type ExportInput,
  type ExportProvider,
  type ExportResult,
  type SkippedObject,
} from '../../export/build.ts';
import { exportedChildKinds, exportedChildren } from '../../export/children.ts';
import { exportDocument, type SkippedKind } from '../../export/document.ts';
import { scopeSort, scopesBySort } from '../../export/scopes.ts';
import { kindCounts, summaryLines } from '../../export/summary.ts';
import { type ExportWrite, writeExport } from '../../export/write.ts';
import { DEFAULT_SCHEMA_DIR } from '../../manifest/schema-dir.ts';
import { readSchema } from '../../manifest/schema-file.ts';
import { schemaSet } from '../../manifest/schemas.ts';
import { providerMap, providers } from '../../providers/index.ts';
import { EventStream } from '../../reconcile/events.ts';
import type { Provider } from '../../reconcile/provider.ts';
import { type ReadRequest, readLive } from '../../reconcile/read.ts';
import { runContexts } from '../../reconcile/services.ts';
import { colorsFor } from '../../ui/colors.ts';
import { processOutput } from '../../ui/output.ts';
import { plainReporter } from '../../ui/plain-reporter.ts';
import { closeClients, concurrencyOf, connect, openFingerprints } from '../clients.ts';
import { resolveKind } from '../kind-name.ts';
import { EXIT_OK } from '../run-main.ts';
import { loadCommandConfig } from '../session.ts';
import { VERSION } from '../version.ts';
import { checkWritable } from '../writable.ts';

export interface ExportFlags {
  config?: string;
  color: boolean;
  out: string;
  kind: string[];
  kinds: string[];
  scope: string[];
  split: boolean;
  placeholders: boolean;
  force: boolean;
  schemaRef?: string;
  parallelism?: number;
  json?: boolean;
}

export async function runExport(flags: ExportFlags): Promise<number> {
  const output = processOutput();
  const named = [...flags.kind, ...flags.kinds];
  let chosen = chooseProviders(named);
  const config = await loadCommandConfig(flags);
  const skipped: SkippedKind[] = [];
  if (named.length === 0) {
    // every kind means every kind of the APIs configured; a named kind needs its API
    const reachable = chosen.filter((p) => config[p.api]);
    const unreachable = chosen.filter((p) => !config[p.api]);
    if (reachable.length > 0 && unreachable.length > 0) {
      output.err(`Skipping ${unreachable.map((p) => p.kind).join(', ')}: no connection configured for their API.`);
      skipped.push(...unreachable.map((p) => ({ kind: p.kind, reason: 'no-connection' as const })));
      chosen = reachable;
    }
  }
  // export writes only what validate takes, and reads only scopes a manifest could name
  const schemas = await schemaSet();
  const scopes = scopesBySort(flags.scope, chosen, schemas);
  // kinds without a default scope (an organization's modules) are exported only for the scopes named
  const unscoped = chosen.filter((p) => p.scoped && !scopes.has(scopeSort(p) ?? '') && !p.address({}).scope);
  if (unscoped.length > 0) {
    const kinds = unscoped.map((p) => p.kind).join(', ');
    if (named.length > 0) {
      throw new ConvergeError('INPUT_INVALID', `${kinds}: objects of these kinds live in organizations`, {
        hint: 'name the organizations with --scope (repeatable)',
      });
    }
    output.err(`Skipping ${kinds}: their objects live in organizations; pass --scope <organization> to export them.`);
    skipped.push(...unscoped.map((p) => ({ kind: p.kind, reason: 'needs-scope' as const })));
    chosen = chosen.filter((p) => !unscoped.includes(p));
  }
  const childKinds = exportedChildKinds(chosen);
  const requests = readRequests([...chosen, ...childKinds], scopes);
  const outDir = resolve(flags.out);
  checkWritable(flags.out, '--out', 'directory');
  const schemaRef = schemaReference(flags.schemaRef, outDir);
  // which readable fields held secrets when converge applied them: export writes none of them out
  const fingerprints = config.fingerprints ? await openFingerprints(config.fingerprints, config) : undefined;

  const events = new EventStream();
  events.on(plainReporter(output, colorsFor(process.stderr, flags.color)));
  const concurrency = concurrencyOf(config, flags);
  const clients = connect(
    config,
    requests.map((r) => r.provider.kind),
    events,
    concurrency,
  );
  let result: ExportResult;
  let live: Awaited<ReturnType<typeof readLive>>;
  // every object left out, said as it is found: a version without content, a manifest validate would refuse
  const skippedObjects: SkippedObject[] = [];
  const skip = (left: SkippedObject) => {
    output.err(`Skipping ${left.object}: ${left.why}.`);
    skippedObjects.push(left);
  };
  try {
    const contextOf = runContexts({ clients, signal: new AbortController().signal });
    // export keeps its documented default (the configured parallelism) rather than growing the window
    const queue = new PQueue({ concurrency: concurrency.initial });
    live = await readLive(requests, contextOf, queue, events);
    const children = exportedChildren(chosen, live, skip);
    const inputs: ExportInput[] = chosen.map((provider) => ({
      provider,
      objects: [...(live.get(provider.kind)?.values() ?? [])],
      children,
    }));
    result = buildExport(inputs, {
      split: flags.split,
      placeholders: flags.placeholders,
      schemaRef,
      required: requiredSpecFields,
      schemas,
      ...(fingerprints && { wasSecret: (key: string, field: string) => fingerprints.has(key, field) }),
    });
    for (const left of result.skipped) skip(left);
    const at = (path: string) => join(outDir, ...path.split('/'));
    // the archives first: a download that fails leaves no manifest naming a missing file
    const writes: ExportWrite[] = result.children.map((child) => ({
      path: at(child.export.file(child.live)),
      fill: (sink) => child.export.download(contextOf(child.provider), child.live, sink),
    }));
    writes.push(...result.files.map((f) => ({ path: at(f.path), content: f.content })));
    if (result.envExample) writes.push({ path: at(ENV_EXAMPLE), content: result.envExample });
    await writeExport(outDir, writes, { force: flags.force, shown });
  } finally {
    await closeClients(clients);
  }

  const counts = kindCounts(chosen, live);
  if (flags.json) {
    output.out(exportDocument({ out: outDir, counts, result, skipped, skippedObjects, converge: VERSION }));
    return EXIT_OK;
  }
  const colors = colorsFor(process.stdout, flags.color);
  const envExample = shown(join(outDir, ENV_EXAMPLE));
  const [headline = '', ...lines] = summaryLines({ dir: shown(outDir), counts, result, skippedObjects, envExample });
  output.out(colors.green(headline));
  for (const line of lines) output.out(line);
  return EXIT_OK;
}

/**
 * The chosen kinds (in any case), in the registry's order, of those that can be exported (a
 * `toManifest`); an unknown one is an error with a suggestion, and so is one that cannot be exported.
 */
function chooseProviders(kinds: readonly string[]): Array<Provider & ExportProvider> {
  const exportable = providers.filter(canExport);
  if (kinds.length === 0) return exportable;
  const named = kinds.map((kind) => resolveKind(kind, [...providerMap.keys()], '--kind'));
  for (const kind of named) {
    if (exportable.some((p) => p.kind === kind)) continue;
    // a child kind exported with its parent (a module's versions, in their module's manifest)
    const parent = exportable.find((p) => exportedChildKinds([p]).some((child) => child.kind === kind));
    throw new ConvergeError('INPUT_INVALID', `--kind ${kind}: objects of this kind cannot be exported`, {
      hint: parent
        ? `they are exported with their ${parent.kind}: --kind ${parent.kind}`
        : `kinds that can: ${exportable.map((p) => p.kind).join(', ')}`,
    });
  }
  return exportable.filter((p) => named.includes(p.kind));
}

/**
 * Which scopes to list per kind. Global kinds (the site-admin ones) have the
 * one scope ''; a scoped kind lists the scopes named for its sort
 * (src/export/scopes.ts), or its default scope (the one its metadata
 * defaults to) when none.
 */
function readRequests(chosen: readonly Provider[], scopes: ReadonlyMap<string, readonly string[]>): ReadRequest[] {
  return chosen.map((provider) => ({
    provider,
    units: new Map(),
    scopes: new Set(scopes.get(scopeSort(provider) ?? '') ?? [provider.address({}).scope ?? '']),
    needFields: 'all' as const,
  }));
}

/** The spec fields the kind's shipped schema requires (LDAPConfig's `bindpass`). */
function requiredSpecFields(kind: string): readonly string[] {
  const spec = (readSchema(DEFAULT_SCHEMA_DIR, kind).properties as Record<string, { required?: string[] }> | undefined)
    ?.spec;
  return spec?.required ?? [];
}

/** The modelines' `$schema`: a URL base as given, or a path relative to each file. */
function schemaReference(ref: string | undefined, outDir: string): (kind: string, file: string) => string {
  if (ref && /^https?:\/\//.test(ref)) return (kind) => `${ref.replace(/\/+$/, '')}/${kind}.schema.json`;
  const dir = ref ? resolve(ref) : DEFAULT_SCHEMA_DIR;
  return (kind, file) => {
    const from = dirname(join(outDir, ...file.split('/')));
    return relative(from, join(dir, `${kind}.schema.json`))
      .split(sep)
      .join('/');
  };
}

function shown(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel === '' ? '.' : rel.startsWith('..') ? path : rel;
}
