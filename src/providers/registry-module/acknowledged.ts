/**
 * A version's acknowledged content (docs/kinds.md, "Versions"): the
 * manifest's `digest: sha256:…` on a version entry says "this is the content
 * I declare for it". A published version is never uploaded again, so when
 * its local content moves away from what converge uploaded, the plan says so
 * with the remedy, once per content: acknowledged, it is in sync; moved
 * again, it is said again. A version still to publish must have the content
 * it acknowledges. Pure.
 */
import { ConvergeError } from '../../errors.ts';
import type { Fields } from '../../reconcile/types.ts';

/** The prepared spec's field for the manifest's `digest` (the spec's `digest` is the content's, computed). */
export const ACKNOWLEDGED = 'acknowledged';

/** `sha256:…` of the prepared content. */
const contentOf = (spec: Fields): string => `sha256:${String(spec.digest)}`;

/**
 * The directory or archive as the manifest writes it; or, when that is a secret (a source from
 * `${env:}` or a sensitive variable), its field, as the version's checks say it (./versions.ts).
 */
export function whereOf(spec: Fields, secretFields: readonly string[]): string {
  const field = spec.source !== undefined ? 'source' : 'archive';
  return shownSource(spec, field, secretFields.includes(field));
}

/** A version's `source` or `archive` as messages show it: as written, or its field when it is a secret. */
export function shownSource(spec: Fields, field: 'source' | 'archive', secret: boolean): string {
  return secret ? `the ${field} (a secret value)` : String(spec[field]);
}

/** The acknowledged digest when the content is another one. */
function mismatch(spec: Fields): string | undefined {
  const acknowledged = spec[ACKNOWLEDGED];
  if (typeof acknowledged !== 'string' || spec.digest === undefined) return undefined;
  return acknowledged === contentOf(spec) ? undefined : acknowledged;
}

/** A plan note, for a version to publish and a published one alike, when the content is not the one acknowledged. */
export function acknowledgedNotes(spec: Fields, secretFields: readonly string[]): string[] {
  const acknowledged = mismatch(spec);
  if (acknowledged === undefined) return [];
  const content = contentOf(spec);
  return [
    `the content of ${whereOf(spec, secretFields)} (${content}) is not the acknowledged ${acknowledged}: a published version is left as it is, and one to publish is refused; acknowledge this content with \`digest: ${content}\`, or restore the acknowledged one`,
  ];
}

/**
 * The content of a published version differs from what converge uploaded: the remedy, or nothing
 * when the manifest acknowledges a content (acknowledgedNotes says when it is not this one).
 */
export function changedContentNotes(
  spec: Fields,
  _fields: readonly string[],
  secretFields: readonly string[],
): string[] {
  if (spec[ACKNOWLEDGED] !== undefined) return [];
  const content = contentOf(spec);
  return [
    `the content of ${whereOf(spec, secretFields)} (${content}) is not what converge published, and a published version is never uploaded again: publish it as a new version, or acknowledge it with \`digest: ${content}\` on this version`,
  ];
}

/** Before an upload: a version is published only with the content it acknowledges. */
export function requireAcknowledged(version: string, spec: Fields, secretFields: readonly string[]): void {
  const acknowledged = mismatch(spec);
  if (acknowledged === undefined) return;
  throw new ConvergeError(
    'INPUT_INVALID',
    `${version}: the content of ${whereOf(spec, secretFields)} (${contentOf(spec)}) is not the acknowledged ${acknowledged}; nothing was uploaded`,
    { hint: `acknowledge this content with \`digest: ${contentOf(spec)}\`, or restore the acknowledged one` },
  );
}
