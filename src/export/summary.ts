/**
 * What `converge export` says it did, in lines for people (the `--json` document, document.ts,
 * says the same for machines): every file written, counted (the manifests, the archives of child
 * items such as module versions, `.env.example`), and per kind the live objects read and those
 * skipped. Pure.
 */
import type { Provider } from '../reconcile/provider.ts';
import type { LiveState } from '../reconcile/read.ts';
import type { ExportResult, SkippedObject } from './build.ts';
import { exportedChildKinds } from './children.ts';

export interface KindCount {
  kind: string;
  /** Live objects read, skipped ones included. */
  objects: number;
  /** A child kind (a module's versions): written into its parents' manifests, its content beside them. */
  child?: true;
}

/** Live objects read per kind exported, each child kind after its parent's, zeros included. */
export function kindCounts(chosen: readonly Provider[], live: LiveState): KindCount[] {
  const count = (kind: string) => live.get(kind)?.size ?? 0;
  return chosen.flatMap((parent) => [
    { kind: parent.kind, objects: count(parent.kind) },
    ...exportedChildKinds([parent]).map((child) => ({
      kind: child.kind,
      objects: count(child.kind),
      child: true as const,
    })),
  ]);
}

export interface SummaryInput {
  /** The output directory, as shown. */
  dir: string;
  counts: readonly KindCount[];
  result: ExportResult;
  skippedObjects: readonly SkippedObject[];
  /** `.env.example`'s path, as shown. */
  envExample: string;
}

/** The objects written, over every manifest file. */
export const objectsWritten = (result: ExportResult): number => result.files.reduce((n, f) => n + f.objects, 0);

/** The headline (`Exported 2 object(s) of 1 kind(s) to imported in 5 file(s) (…)`), then a line per kind, then the placeholders'. */
export function summaryLines({ dir, counts, result, skippedObjects, envExample }: SummaryInput): string[] {
  const objects = objectsWritten(result);
  const kinds = new Set(result.files.map((f) => f.kind)).size;
  const parts = [
    `${result.files.length} manifest(s)`,
    ...(result.children.length > 0 ? [`${result.children.length} archive(s)`] : []),
    ...(result.envExample !== undefined ? ['.env.example'] : []),
  ];
  const files = result.files.length + result.children.length + (result.envExample !== undefined ? 1 : 0);
  const lines = [
    `Exported ${objects} object(s) of ${kinds} kind(s) to ${dir} in ${files} file(s)${parts.length > 1 ? ` (${parts.join(', ')})` : ''}.`,
  ];
  for (const { kind, objects: read, child } of counts) {
    const skipped = skippedObjects.filter((s) => s.kind === kind).length;
    const said = [
      `${read}${read === 0 ? ' (nothing to export)' : ''}`,
      ...(skipped > 0 ? [`${skipped} skipped`] : []),
      ...(child && read > skipped ? ['with their content beside the manifests'] : []),
    ];
    lines.push(`  ${kind}: ${said.join(', ')}`);
  }
  if (result.placeholders.length > 0) {
    const secret = result.placeholders.filter((p) => p.wasSecret).length;
    const writeOnly = result.placeholders.length - secret;
    const what = [
      ...(writeOnly > 0 ? [`${writeOnly} write-only field(s)`] : []),
      ...(secret > 0 ? [`${secret} value(s) that were secret when converge applied them`] : []),
    ];
    lines.push(
      `${what.join(' and ')} written as \${env:NAME} placeholders; ` +
        `set the variables listed in ${envExample} before plan or apply.`,
    );
  }
  return lines;
}
