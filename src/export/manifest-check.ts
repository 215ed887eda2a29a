/**
 * What `converge validate` would say of what export writes, in its words: the kind's schema (the
 * validators `validate` runs, src/manifest/validate.ts), then the kind's own rules beyond it
 * (`Provider.check`: a secrets engine's reserved mount, an SSH role's `ttl` within `max_ttl`, its
 * templates, LDIF), over every object of the export, as `validate` runs them over every object
 * of the manifests. The APIs take what converge's manifests do not (an SSH role `a@b`, a role
 * whose `ttl` exceeds its `max_ttl`): export skips such an object, saying why, rather than write a
 * directory that `validate` refuses; and a `--scope` no manifest could name (`mount=../sys`,
 * `mount=sys`) is refused before any request, as a manifest naming it is. Pure, given the
 * schemas: a child item's content (a module version's archive) is the one thing not checked, as
 * export has yet to download it.
 */
import type { SchemaSet } from '../manifest/schemas.ts';
import { validateDocument } from '../manifest/validate.ts';
import { reservedMountProblems } from '../providers/shared/secrets-api.ts';
import { withoutChildLists } from '../reconcile/children.ts';
import { setPath, topFields } from '../reconcile/field-paths.ts';
import type { ManifestDocument, Provider } from '../reconcile/provider.ts';
import type { DesiredObject, Fields, Metadata } from '../reconcile/types.ts';

export type CheckedProvider = Pick<Provider, 'kind' | 'api' | 'address' | 'check' | 'children'>;

export interface ManifestProblem {
  /** The document path (`metadata.name`, `spec.ttl`). */
  path: string;
  message: string;
}

/**
 * Stands in for a placeholder's value, which the user gives later: any problem at a placeholder's
 * path is about that value, not about what export wrote, so none is reported there.
 */
// biome-ignore lint/suspicious/noTemplateCurlyInString: the manifests' placeholder syntax
const PLACEHOLDER = '${env:PLACEHOLDER}';

/** A manifest checked against its kind's schema: the object `validate` would build of it, when it passes. */
export interface CheckedManifest {
  problems: ManifestProblem[];
  /** As the loader builds it (src/manifest/document.ts), each placeholder standing for the user's value. */
  object?: DesiredObject;
}

/**
 * What `validate` would refuse in a manifest export is about to write, by its kind's schema, each
 * placeholder (a write-only field's spec path) standing for a value of the user's. Never a value
 * of a placeholder's field: those paths are secret to the messages, as to `validate`'s.
 *
 * `secret`: top-level fields whose live values were secrets, which export writes as placeholders
 * the user fills with those values again. They are checked as those values (what `validate` will
 * see), but the messages say nothing of them, as for a value made with `${env:}`.
 */
export function checkManifest(
  schemas: SchemaSet,
  provider: CheckedProvider,
  manifest: ManifestDocument,
  placeholders: readonly string[] = [],
  secret: readonly string[] = [],
): CheckedManifest {
  // a copy: the validator fills metadata defaults (a `mount`) into what it checks
  const document = structuredClone({ kind: manifest.kind, metadata: manifest.metadata, spec: manifest.spec });
  for (const field of placeholders) setPath(document.spec, field, PLACEHOLDER);
  const made = madePaths(placeholders);
  const hidden = new Set([...made, ...madePaths(secret)]);
  const { validated, problems } = validateDocument(schemas.validator(provider.kind), document, hidden, made);
  const metadata = (validated.metadata ?? {}) as Metadata;
  const schemaProblems = problems.filter((p) => !made.has(p.path)).map(({ path, message }) => ({ path, message }));
  // the kind's rules read a document its schema takes: the loader runs them only then
  if (schemaProblems.length > 0)
    return { problems: [...schemaProblems, ...reservedMountProblems(provider.api, metadata)] };
  const interpolated = [...placeholders, ...secret];
  const paths = interpolated.length > 0 && { secretPaths: interpolated, interpolatedPaths: interpolated };
  const object: DesiredObject = {
    kind: provider.kind,
    address: provider.address(metadata),
    metadata,
    ensure: 'present',
    spec: document.spec as Fields,
    // the kinds' rules name a value in these fields as `a secret value` (src/providers/shared/check-values.ts)
    secretFields: [...new Set(topFields(interpolated))].sort(),
    ...paths,
    source: { file: '', line: 1, col: 1 },
    positions: {},
  };
  return { problems: [], object };
}

/**
 * The kind's own rules over one object of the export (`Provider.check`), `all` being every object
 * the export writes, as `validate` sees every object of the manifests (an SSH role's signer
 * against its mount's CA). Not a child item's content: export downloads it afterwards.
 */
export function ruleProblems(
  provider: CheckedProvider,
  object: DesiredObject,
  all: readonly DesiredObject[],
  placeholders: readonly string[] = [],
): ManifestProblem[] {
  if (!provider.check) return [];
  const made = madePaths(placeholders);
  return (
    provider
      // a child item's content (a module version's archive) is read by validate, after export downloads it
      .check({ ...object, spec: withoutChildLists(object.spec, provider.children ?? []) }, all)
      .filter((p) => !made.has(p.path))
      .map(({ path, message }) => ({ path, message }))
  );
}

/** Schema and rules for one manifest on its own, `validate`'s words for it (a unit's view). */
export function manifestProblems(
  schemas: SchemaSet,
  provider: CheckedProvider,
  manifest: ManifestDocument,
  placeholders: readonly string[] = [],
): ManifestProblem[] {
  const { problems, object } = checkManifest(schemas, provider, manifest, placeholders);
  return object ? ruleProblems(provider, object, [object], placeholders) : problems;
}

const madePaths = (placeholders: readonly string[]): Set<string> =>
  new Set(placeholders.map((field) => `spec.${field}`));

/**
 * What `validate` would say of a scope as the metadata field an object of the kind names it by
 * (`mount`, `organization`): the problems at that field of a manifest naming it.
 */
export function scopeProblems(schemas: SchemaSet, provider: CheckedProvider, field: string, scope: string): string[] {
  const metadata = { [field]: scope } as Metadata;
  const at = `metadata.${field}`;
  return manifestProblems(schemas, provider, { kind: provider.kind, metadata, spec: {} })
    .filter((p) => p.path === at)
    .map((p) => p.message);
}
