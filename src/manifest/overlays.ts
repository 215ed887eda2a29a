/**
 * The overlay pass (docs/environments.md, "Overlays"): every path argument is a layer, a later
 * one over an earlier one. Per address, one document declares the object; a patch (`patch:
 * true`) changes the fields it names, in layer order; an `ensure: absent` (or a patch saying it)
 * makes the object absent, whichever layer declares it. The merged object is validated again,
 * and its positions point into the file that set each value, so every problem (and a plan's
 * `source`) names the file to edit. Every refusal names every place involved.
 */
import { formatPosition, type InputProblem } from '../errors.ts';
import { addressKey, describeAddress } from '../reconcile/address.ts';
import type { DesiredObject, Fields, Json, Position } from '../reconcile/types.ts';
import type { KindCatalog } from './catalog.ts';
import type { PatchObject } from './document.ts';
import { positionOf } from './documents.ts';
import { lazyRecord } from './lazy-record.ts';
import { mergedPositions, mergeValue, type Origin } from './merge.ts';
import type { SchemaSet } from './schemas.ts';
import { markedSensitive } from './sensitive-paths.ts';
import { closest } from './suggest.ts';
import { validateDocument } from './validate.ts';

export interface Layered<T> {
  item: T;
  /** The index of the path argument that named its file. */
  layer: number;
  /** Its file's place in load order: among one layer's documents, the later file is the one reported. */
  file: number;
}

export interface OverlayContext {
  catalog: KindCatalog;
  schemas: SchemaSet;
  /** The path arguments as given, by layer: for messages. */
  layers: readonly string[];
  /** Addresses (addressKey) of declarations that have problems of their own: patches of them are not patches of nothing. */
  unbuilt?: ReadonlySet<string>;
}

interface Group {
  declarations: Layered<DesiredObject>[];
  /** Plain `ensure: absent` documents, and patches (which may say `ensure: absent` too). */
  overlays: Layered<DesiredObject | PatchObject>[];
}

/** The objects after every overlay, in the order they were declared, and the problems found. */
export function applyOverlays(
  declared: readonly Layered<DesiredObject>[],
  patches: readonly Layered<PatchObject>[],
  ctx: OverlayContext,
): { objects: DesiredObject[]; problems: InputProblem[] } {
  const groups = new Map<string, Group>();
  const group = (object: DesiredObject): Group => {
    const key = addressKey(object.address);
    let found = groups.get(key);
    if (!found) {
      found = { declarations: [], overlays: [] };
      groups.set(key, found);
    }
    return found;
  };
  for (const entry of declared) {
    const g = group(entry.item);
    (entry.item.ensure === 'absent' ? g.overlays : g.declarations).push(entry);
  }
  for (const entry of patches) group(entry.item).overlays.push(entry);

  const problems: InputProblem[] = [];
  const result = new Map<string, DesiredObject>();
  for (const [key, g] of groups) {
    const object = resolveGroup(key, g, declared, ctx, problems);
    if (object) result.set(key, object);
  }
  // in declaration order: an object first declared by an absent keeps that place
  const objects: DesiredObject[] = [];
  for (const { item } of declared) {
    const key = addressKey(item.address);
    const object = result.get(key);
    if (object) objects.push(object);
    result.delete(key);
  }
  return { objects, problems };
}

/** The object of one address (`key`, its addressKey) after its overlays, if it stays declared. */
function resolveGroup(
  key: string,
  g: Group,
  declared: readonly Layered<DesiredObject>[],
  ctx: OverlayContext,
  problems: InputProblem[],
): DesiredObject | undefined {
  const [declaration, ...again] = g.declarations;
  for (const { item } of again) {
    const what = describeAddress(item.address);
    problems.push({ ...item.source, message: `duplicate ${what} (also declared at ${at(declaration?.item)})` });
  }
  const overlays = [...g.overlays].sort(
    (a, b) => a.layer - b.layer || a.file - b.file || a.item.source.line - b.item.source.line,
  );
  sameLayer(overlays, ctx, problems);
  const patches = overlays.filter((o) => isPatch(o.item) && o.item.ensure === 'present');
  const absent = overlays.find((o) => o.item.ensure === 'absent');
  // one path argument both declaring and removing an object contradicts itself
  for (const same of overlays.filter((o) => o.item.ensure === 'absent' && o.layer === declaration?.layer)) {
    const what = describeAddress(same.item.address);
    problems.push({ ...same.item.source, message: `duplicate ${what} (also declared at ${at(declaration?.item)})` });
  }

  if (absent) {
    for (const patch of patches.filter((p) => p.layer > absent.layer)) {
      problems.push({
        ...patch.item.source,
        message:
          `patch of ${describeAddress(patch.item.address)}, which ${argument(absent.layer, ctx)} makes absent at ` +
          `${at(absent.item)}: a later path argument cannot change an object an earlier one removes`,
      });
    }
    // an explicit delete marker (a patch saying `ensure: absent`) needs something to delete
    if (!declaration && isPatch(absent.item) && !overlays.some((o) => !isPatch(o.item))) {
      problems.push(nothingDeclared(absent.item, declared, ctx));
    }
    return overlays.find((o) => !isPatch(o.item))?.item ?? withoutKeys(absent.item);
  }
  if (!declaration) {
    // a declaration whose own problems kept it from being built already has its message
    if (!ctx.unbuilt?.has(key)) for (const patch of patches) problems.push(nothingDeclared(patch.item, declared, ctx));
    return undefined;
  }
  let object = declaration.item;
  for (const patch of patches) {
    if (patch.layer < declaration.layer) {
      problems.push({
        ...patch.item.source,
        message:
          `patch of ${describeAddress(object.address)} in ${argument(patch.layer, ctx)}, before the path argument that declares it ` +
          `(${at(declaration.item)}): give the base first (converge plan base environments/production)`,
      });
      continue;
    }
    object = applyPatch(object, patch.item as PatchObject, ctx);
  }
  if (object === declaration.item) return object;
  // an object its schema refuses is left out, as an invalid document is: the kinds' rules expect valid ones
  const invalid = revalidate(object, patches, ctx);
  problems.push(...invalid);
  return invalid.length > 0 ? undefined : object;
}

/** Two overlays of one object in one path argument: which one wins would be an accident of file names. */
function sameLayer(
  overlays: readonly Layered<DesiredObject | PatchObject>[],
  ctx: OverlayContext,
  problems: InputProblem[],
): void {
  for (let i = 1; i < overlays.length; i++) {
    const earlier = overlays[i - 1] as Layered<DesiredObject>;
    const later = overlays[i] as Layered<DesiredObject>;
    if (earlier.layer !== later.layer) continue;
    problems.push({
      ...later.item.source,
      message:
        `${describeAddress(later.item.address)} is overlaid twice in ${argument(later.layer, ctx)} ` +
        `(also at ${at(earlier.item)}): merge the two into one document`,
    });
  }
}

function nothingDeclared(
  patch: DesiredObject,
  declared: readonly Layered<DesiredObject>[],
  ctx: OverlayContext,
): InputProblem {
  const what = describeAddress(patch.address);
  const sameKind = declared.filter((d) => d.item.kind === patch.kind && d.item.ensure === 'present');
  const names = new Map(sameKind.map((d) => [addressKey(d.item.address), d.item]));
  const near = closest(addressKey(patch.address), names.keys());
  const nearObject = near === undefined ? undefined : names.get(near);
  const hint = nearObject
    ? `; did you mean ${describeAddress(nearObject.address)}, declared at ${at(nearObject)}?`
    : `; looked in ${ctx.layers.map((l) => `"${l}"`).join(', ')}`;
  return { ...patch.source, message: `patch of ${what}, which no document declares${hint}` };
}

/** The declaration with one patch over it: spec and labels merged, lists united, positions traced. */
function applyPatch(base: DesiredObject, patch: PatchObject, ctx: OverlayContext): DesiredObject {
  const origins: Origin[] = [];
  const listKey = (path: string) => ctx.catalog.listKeys?.(base.kind)?.[path];
  const merging: string[] = [];
  let spec = base.spec;
  if (Object.keys(patch.spec).length > 0) {
    const at = { path: 'spec', basePath: 'spec', patchPath: 'spec', specPath: '' };
    spec = mergeValue(base.spec, patch.spec, at, { listKey, origins }) as Fields;
    merging.push('spec');
  }
  let metadata = base.metadata;
  if (patch.metadata.labels !== undefined) {
    const at = { path: 'metadata.labels', basePath: 'metadata.labels', patchPath: 'metadata.labels', specPath: '' };
    const labels = mergeValue(base.metadata.labels as Json, patch.metadata.labels as Json, at, { listKey, origins });
    metadata = { ...base.metadata, labels: labels as Record<string, string> };
    merging.push('metadata.labels');
  }
  const replaced = origins.filter((o) => o.side === 'patch' && !o.self && o.to.startsWith('spec.')).map((o) => o.to);
  const kept = (path: string) => !replaced.some((r) => path === r || path.startsWith(`${r}.`));
  const basePositions = base.positions;
  const patchPositions = patch.positions;
  const untouched = (path: string) => !merging.some((m) => path === m || path.startsWith(`${m}.`));
  const positions = lazyRecord(() => {
    const out = Object.fromEntries(Object.entries(basePositions).filter(([path]) => untouched(path)));
    return Object.assign(out, mergedPositions(origins, basePositions, patchPositions));
  });
  // the patch's records by spec path, at the paths its values landed at in the merged spec: an
  // item of a keyed list merges into the base's item of its key (the patch's versions.0 may be
  // versions.1), and what is secret there must be found there
  const landed = <V>(record: Record<string, V> | undefined) => record && landedAt(origins, record);
  const landedPaths = (paths: string[] | undefined) =>
    paths && Object.keys(landedAt(origins, Object.fromEntries(paths.map((path) => [path, true]))));
  const fileSources = {
    ...Object.fromEntries(Object.entries(base.fileSources ?? {}).filter(([path]) => kept(`spec.${path}`))),
    ...landed(patch.fileSources),
  };
  const sensitive = union(base.sensitive, patch.sensitive);
  // the `sensitive:` lists of every document, over the merged spec: a patch's list covers what
  // the base sets, and the base's what the patch sets (the schema checked each path already)
  const marked = markedSensitive(sensitive, spec, () => true);
  const merged: DesiredObject = {
    ...base,
    metadata,
    spec,
    // a value that was secret stays secret, whoever set it last (docs/environments.md)
    secretFields: (union(union(base.secretFields, patch.secretFields), marked.fields) ?? []).sort(),
    positions,
  };
  const markedPaths = marked.paths.map((path) => path.slice('spec.'.length));
  setOptional(merged, 'secretPaths', union(union(base.secretPaths, landedPaths(patch.secretPaths)), markedPaths));
  setOptional(
    merged,
    'interpolatedPaths',
    union(
      base.interpolatedPaths?.filter((path) => kept(`spec.${path}`)),
      landedPaths(patch.interpolatedPaths),
    ),
  );
  // a patch's plain variables replace the base's at a path; its placeholders join them
  const replace = (_: string[] | undefined, after: string[]) => after;
  const join = (before: string[] | undefined, after: string[]) => union(before, after) ?? [];
  setOptional(
    merged,
    'plainVariables',
    keptThenPatched(base.plainVariables, landed(patch.plainVariables), kept, replace),
  );
  setOptional(merged, 'sensitive', sensitive);
  setOptional(merged, 'ignore', union(base.ignore, patch.ignore));
  setOptional(merged, 'fileSources', Object.keys(fileSources).length > 0 ? fileSources : undefined);
  setOptional(merged, 'placeholders', keptThenPatched(base.placeholders, patch.placeholders, kept, join));
  return merged;
}

/** A patch's record keyed by spec path (`versions.0.source`), keyed by where each value is in the merged spec. */
function landedAt<V>(origins: readonly Origin[], record: Record<string, V>): Record<string, V> {
  const inDocument = Object.fromEntries(Object.entries(record).map(([path, value]) => [`spec.${path}`, value]));
  const merged = mergedPositions(origins, {}, inDocument);
  return Object.fromEntries(Object.entries(merged).map(([path, value]) => [path.slice('spec.'.length), value]));
}

/**
 * A record keyed by spec path (`plainVariables`, `placeholders`) after a patch: the base's entries
 * the patch did not replace, then the patch's, each `combine`d with what is already there.
 */
function keptThenPatched(
  base: Record<string, string[]> | undefined,
  patch: Record<string, string[]> | undefined,
  kept: (path: string) => boolean,
  combine: (before: string[] | undefined, after: string[]) => string[],
): Record<string, string[]> | undefined {
  const out: Record<string, string[]> = {};
  for (const [path, names] of Object.entries(base ?? {})) if (kept(`spec.${path}`)) out[path] = names;
  for (const [path, names] of Object.entries(patch ?? {})) out[path] = combine(out[path], names);
  return Object.keys(out).length > 0 ? out : undefined;
}

/** The merged object against its kind's schema; each problem where the file set the value. */
function revalidate(
  object: DesiredObject,
  patches: readonly Layered<DesiredObject | PatchObject>[],
  ctx: OverlayContext,
): InputProblem[] {
  const document = { kind: object.kind, metadata: object.metadata, ensure: object.ensure, spec: object.spec };
  const secret = new Set((object.secretPaths ?? []).map((p) => `spec.${p}`));
  const { problems } = validateDocument(ctx.schemas.validator(object.kind), document, secret);
  const last = patches.at(-1)?.item ?? object;
  return problems.map((p) => ({ ...placeOf(object, patches, p.path, p.atKey, last.source), message: p.message }));
}

/** A key a patch wrote (an unknown field), the latest patch's; else the nearest value with a position. */
function placeOf(
  object: DesiredObject,
  patches: readonly Layered<DesiredObject | PatchObject>[],
  path: string,
  atKey: boolean | undefined,
  fallback: Position,
): Position {
  const keys = atKey
    ? patches.map(({ item }) => (item as PatchObject).keys ?? {}).findLast((written) => Object.hasOwn(written, path))
    : undefined;
  return positionOf({ start: fallback, values: object.positions, keys: keys ?? {} }, path, atKey);
}

function withoutKeys(object: DesiredObject | PatchObject): DesiredObject {
  const { keys: _, ...rest } = object as PatchObject;
  return rest;
}

function isPatch(object: DesiredObject | PatchObject): object is PatchObject {
  return 'keys' in object && (object as PatchObject).keys !== undefined;
}

function argument(layer: number, ctx: OverlayContext): string {
  const name = ctx.layers[layer];
  return name === undefined ? 'the same path argument' : `"${name}"`;
}

function at(object: DesiredObject | undefined): string {
  return object ? formatPosition(object.source) : 'an unknown place';
}

function union(a: readonly string[] | undefined, b: readonly string[] | undefined): string[] | undefined {
  if (a === undefined && b === undefined) return undefined;
  return [...new Set([...(a ?? []), ...(b ?? [])])];
}

function setOptional<K extends keyof DesiredObject>(
  object: DesiredObject,
  key: K,
  value: DesiredObject[K] | undefined,
) {
  if (value === undefined) delete object[key];
  else object[key] = value;
}
