/**
 * What `converge validate` would say of what export writes, in its words: the kind's schema (the
 * validators `validate` runs, src/manifest/validate.ts) and the rule on an object's metadata
 * beyond it (a secrets engine's reserved mount, src/providers/shared/secrets-api.ts). The APIs
 * take names converge's manifests do not (an SSH role `a@b`, an LDAP role `team/ro-ü`): export
 * skips such an object, saying why, rather than write a directory that `validate` refuses; and a
 * `--scope` no manifest could name (`mount=../sys`, `mount=sys`) is refused before any request,
 * as a manifest naming it is. Pure, given the schemas.
 */
import type { SchemaSet } from '../manifest/schemas.ts';
import { validateDocument } from '../manifest/validate.ts';
import { reservedMountProblems } from '../providers/shared/secrets-api.ts';
import { setPath } from '../reconcile/field-paths.ts';
import type { ManifestDocument, Provider } from '../reconcile/provider.ts';
import type { Metadata } from '../reconcile/types.ts';

export type CheckedProvider = Pick<Provider, 'kind' | 'api'>;

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

/**
 * What `validate` would refuse in a manifest export is about to write, each placeholder (a
 * write-only field's spec path) standing for a value of the user's. Never a value of a
 * placeholder's field: those paths are secret to the messages, as to `validate`'s.
 */
export function manifestProblems(
  schemas: SchemaSet,
  provider: CheckedProvider,
  manifest: ManifestDocument,
  placeholders: readonly string[] = [],
): ManifestProblem[] {
  // a copy: the validator fills metadata defaults (a `mount`) into what it checks
  const document = structuredClone({ kind: manifest.kind, metadata: manifest.metadata, spec: manifest.spec });
  for (const field of placeholders) setPath(document.spec, field, PLACEHOLDER);
  const made = new Set(placeholders.map((field) => `spec.${field}`));
  const { validated, problems } = validateDocument(schemas.validator(provider.kind), document, made, made);
  return [
    ...problems.filter((p) => !made.has(p.path)).map(({ path, message }) => ({ path, message })),
    ...reservedMountProblems(provider.api, (validated.metadata ?? {}) as Metadata),
  ];
}

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
