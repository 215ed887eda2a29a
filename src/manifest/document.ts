/**
 * One parsed YAML document -> one DesiredObject, or the problems that stop it:
 * shape, kind, interpolation, schema. Every problem of the document is found,
 * not just the first.
 */
import type { InputProblem } from '../errors.ts';
import { addressKey } from '../reconcile/address.ts';
import { isPlainObject } from '../reconcile/equal.ts';
import type { DesiredObject, Fields, Metadata, Position } from '../reconcile/types.ts';
import type { KindCatalog } from './catalog.ts';
import { describeValue } from './describe.ts';
import { positionOf, type SourceDocument } from './documents.ts';
import { unknownField } from './field-patterns.ts';
import { type InterpolationContext, interpolateSpec, type PathProblem, unescapeMetadata } from './interpolate.ts';
import {
  isManifestOnly,
  isOverlaid,
  MANIFEST_ONLY_KINDS,
  type ManifestOnlyDocument,
  overlaidObject,
} from './manifest-only.ts';
import type { SchemaSet } from './schemas.ts';
import { markedSensitive } from './sensitive-paths.ts';
import { unknownKind } from './suggest.ts';
import { validateDocument } from './validate.ts';

export interface DocumentContext extends Omit<InterpolationContext, 'typesAt'> {
  catalog: KindCatalog;
  schemas: SchemaSet;
  /** Where the paths a spec names may lead (DesiredObject.roots). */
  roots: readonly string[];
}

/**
 * A document with `patch: true`: the fields it changes of an object declared elsewhere, as one
 * more DesiredObject (its spec partial), and where its keys are, for problems found once it is
 * merged (src/manifest/overlays.ts). `ensure: absent` in it is an explicit delete marker.
 */
export interface PatchObject extends DesiredObject {
  keys: Record<string, Position>;
}

export interface BuiltDocument {
  object?: DesiredObject;
  patch?: PatchObject;
  document?: ManifestOnlyDocument;
  /**
   * The address of a full declaration that has problems elsewhere than in its metadata: it is
   * declared, only not buildable, so a patch of it is not also "a patch of nothing".
   */
  unbuilt?: string;
  problems: InputProblem[];
}

export function buildObject(doc: SourceDocument, ctx: DocumentContext): BuiltDocument {
  const problems: InputProblem[] = [];
  const report = (path: string, message: string, atKey = false) =>
    problems.push({ ...positionOf(doc, path, atKey), message });
  const data = doc.data;
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    report('', `a document must be a mapping with kind, metadata and spec (got ${describeValue(data, false)})`);
    return { problems };
  }
  const fields = data as Record<string, unknown>;
  const kind = fields.kind;
  if (kind === undefined) {
    report('', 'missing required field "kind"');
    return { problems };
  }
  if (typeof kind !== 'string' || !(ctx.catalog.kinds.includes(kind) || isManifestOnly(kind))) {
    report('kind', kindProblem(kind, [...ctx.catalog.kinds, ...MANIFEST_ONLY_KINDS]));
    return { problems };
  }
  if (isManifestOnly(kind)) {
    if ('patch' in fields && !isOverlaid(kind)) {
      report(
        'patch',
        `a ${kind} cannot be a patch: it is not an object of an API; declare it whole in the path that needs it`,
        true,
      );
      return { problems };
    }
    return buildManifestOnly(doc, kind, fields, ctx);
  }
  const isPatch = fields.patch === true;

  const pathProblems: PathProblem[] = [];
  const metadata = unescapeMetadata(fields.metadata, 'metadata', pathProblems);
  const validate = ctx.schemas.validator(kind);
  const interpolated = interpolateSpec(fields.spec, {
    ...ctx,
    typesAt: (path) => ctx.schemas.typesAt(kind, path),
  });
  pathProblems.push(...interpolated.problems);
  for (const p of pathProblems) report(p.path, p.message);

  const candidate: Record<string, unknown> = { ...fields };
  if ('metadata' in fields) candidate.metadata = metadata;
  if ('spec' in fields) candidate.spec = interpolated.spec;
  // the document's own `sensitive:` list: secret like a write-only field, from here on (an
  // overlay marks its list again over the merged spec: src/manifest/overlays.ts)
  const marked = markedSensitive(fields.sensitive, interpolated.spec, (path) =>
    ctx.schemas.hasPath(kind, `spec.${path}`),
  );
  for (const p of marked.problems) report(p.path, p.message);
  const secretPaths = new Set([...interpolated.secretPaths, ...marked.paths]);
  // a patch's spec is partial: only its envelope is checked now, the merged object once merged
  if (isPatch) {
    // `patch: true` is the schema's own condition for a document without spec
    delete candidate.spec;
    if ('spec' in fields && !isPlainObject(fields.spec))
      report('spec', "a patch's spec must be a mapping of the fields it changes");
  }
  // A value whose placeholder failed already has its problem; its schema errors would only echo it.
  const failed = new Set(pathProblems.map((p) => p.path));
  const { validated, problems: invalid } = validateDocument(
    validate,
    candidate,
    secretPaths,
    interpolated.interpolatedPaths,
  );
  for (const p of invalid) if (!failed.has(p.path)) report(p.path, p.message, p.atKey);
  const ignore = ignoreList(validated.ignore);
  const rows = ctx.catalog.fieldPaths?.(kind);
  for (const [i, pattern] of rows ? ignore.entries() : []) {
    const unknown = unknownField(pattern, kind, rows ?? [], (path) => ctx.schemas.hasPath(kind, `spec.${path}`));
    if (unknown) report(`ignore.${i}`, `ignore: ${unknown}`);
  }
  if (problems.length > 0) return { problems, ...unbuiltAddress(kind, fields, validated, ctx.catalog) };

  const validMetadata = (validated.metadata ?? {}) as Metadata;
  const object: DesiredObject = {
    kind,
    address: ctx.catalog.address(kind, validMetadata),
    metadata: validMetadata,
    ensure: validated.ensure === 'absent' ? 'absent' : 'present',
    spec: (interpolated.spec ?? {}) as Fields,
    secretFields: [...new Set([...interpolated.secretFields, ...marked.fields])].sort(),
    ...(secretPaths.size > 0 && { secretPaths: [...secretPaths].map(inSpec) }),
    ...(interpolated.interpolatedPaths.size > 0 && {
      interpolatedPaths: [...interpolated.interpolatedPaths].map(inSpec),
    }),
    ...(interpolated.plainVariables.size > 0 && {
      plainVariables: Object.fromEntries(
        [...interpolated.plainVariables].map(([path, names]) => [inSpec(path), [...names]]),
      ),
    }),
    ...(marked.patterns.length > 0 && { sensitive: marked.patterns }),
    dir: ctx.dir,
    roots: ctx.roots,
    ...(interpolated.files.size > 0 && { fileSources: Object.fromEntries(interpolated.files) }),
    ...(interpolated.placeholders.size > 0 && {
      placeholders: Object.fromEntries([...interpolated.placeholders].map(([key, set]) => [key, [...set]])),
    }),
    ...(ignore.length > 0 && { ignore }),
    source: doc.start,
    positions: doc.values,
  };
  if (isPatch)
    return {
      patch: { ...object, ensure: fields.ensure === 'absent' ? 'absent' : 'present', keys: doc.keys },
      problems,
    };
  return { object, problems };
}

function unbuiltAddress(
  kind: string,
  fields: Record<string, unknown>,
  validated: Record<string, unknown>,
  catalog: KindCatalog,
): { unbuilt?: string } {
  if (fields.patch === true || fields.ensure === 'absent') return {};
  try {
    return { unbuilt: addressKey(catalog.address(kind, (validated.metadata ?? {}) as Metadata)) };
  } catch {
    return {}; // metadata the kind cannot name an object by: its own problem says so
  }
}

/**
 * A document of a manifest-only kind (a Policy): its schema's checks, no interpolation, no
 * provider. One a later path argument may overlay (a Policy) is handed to the overlay pass as
 * an object, or a patch (`patch: true`, and `ensure: absent`, which removes what an earlier
 * path argument declares: it must name something, as a patch must).
 */
function buildManifestOnly(
  doc: SourceDocument,
  kind: string,
  fields: Record<string, unknown>,
  ctx: DocumentContext,
): BuiltDocument {
  const isPatch = isOverlaid(kind) && fields.patch === true;
  // a patch's spec is partial: the merged document is checked once merged (src/manifest/overlays.ts)
  const candidate = { ...fields };
  if (isPatch) delete candidate.spec;
  const { validated, problems } = validateDocument(ctx.schemas.validator(kind), candidate, new Set());
  const found = problems.map((p) => ({ ...positionOf(doc, p.path, p.atKey), message: p.message }));
  if (isPatch && 'spec' in fields && !isPlainObject(fields.spec)) {
    found.push({
      ...positionOf(doc, 'spec', false),
      message: "a patch's spec must be a mapping of the fields it changes",
    });
  }
  const name = String((validated.metadata as { name?: unknown } | undefined)?.name ?? '');
  if (found.length > 0) {
    // a policy declared with problems of its own is still declared: its patch is no "patch of nothing"
    const declared = isOverlaid(kind) && !isPatch && fields.ensure !== 'absent' && name !== '';
    return { problems: found, ...(declared && { unbuilt: addressKey({ kind, name }) }) };
  }
  const document: ManifestOnlyDocument = { kind, name, data: validated, source: doc.start, positions: doc.values };
  if (!isOverlaid(kind)) return { document, problems: [] };
  const object = overlaidObject(document, isPatch ? fields.spec : validated.spec);
  if (isPatch || object.ensure === 'absent') return { patch: { ...object, keys: doc.keys }, problems: [] };
  return { object, problems: [] };
}

/** The document's `ignore` patterns (the schema has checked that each is a string). */
function ignoreList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

/** A document path inside the spec (`spec.vcs-repo.token`) as a spec path (`vcs-repo.token`). */
const inSpec = (path: string) => path.slice('spec.'.length);

function kindProblem(kind: unknown, kinds: readonly string[]): string {
  if (typeof kind !== 'string') return `kind must be a string (got ${describeValue(kind, false)})`;
  return unknownKind(kind, kinds);
}
