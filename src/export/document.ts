/**
 * What `converge export --json` prints: a versioned document of what was
 * written (schemas/documents/converge-export.schema.json, docs/commands.md):
 * within a version, members are only ever added. It names files, kinds and
 * the placeholders' variables, never a value. Pure.
 */
import { addressKey } from '../reconcile/address.ts';
import { ENV_EXAMPLE, type ExportResult, type SkippedObject } from './build.ts';
import { type KindCount, objectsWritten } from './summary.ts';

export const EXPORT_FORMAT = 'converge-export';
export const EXPORT_VERSION = 1;

/** A kind left out of an export of every kind: its API has no connection, or its objects live in organizations. */
export interface SkippedKind {
  kind: string;
  reason: 'no-connection' | 'needs-scope';
}

export interface ExportSummary {
  /** The output directory, absolute. */
  out: string;
  /** Live objects read per kind exported, in the registry's order (a child kind after its parent's), zeros included. */
  counts: readonly KindCount[];
  result: ExportResult;
  skipped: readonly SkippedKind[];
  /** Live objects left out, and why (a manifest validate would refuse, a version without content). */
  skippedObjects: readonly SkippedObject[];
  converge: string;
  generatedAt?: string;
}

export function exportDocument(summary: ExportSummary): string {
  const { result } = summary;
  const document = {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    generatedAt: summary.generatedAt ?? new Date().toISOString(),
    converge: summary.converge,
    out: summary.out,
    objects: objectsWritten(result),
    kinds: summary.counts.map((c) => ({ kind: c.kind, objects: c.objects })),
    files: result.files.map((f) => ({ path: f.path, kind: f.kind, objects: f.objects })),
    // the child items' content (a module version's archive), each the file of one object
    archives: result.children.map((c) => ({
      path: c.export.file(c.live),
      kind: c.live.kind,
      object: addressKey(c.live.address),
    })),
    placeholders: result.placeholders.map((p) => ({
      name: p.name,
      object: p.object,
      field: p.field,
      file: p.file,
      ...(p.wasSecret && { wasSecret: true }),
    })),
    ...(result.envExample !== undefined && { envExample: ENV_EXAMPLE }),
    skipped: summary.skipped,
    skippedObjects: summary.skippedObjects.map((s) => ({ object: s.object, kind: s.kind, why: s.why })),
  };
  return JSON.stringify(document, null, 2);
}
