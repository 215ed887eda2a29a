/**
 * Live objects -> manifest files, for `converge export`. Pure: the caller
 * reads live state and writes the files.
 *
 * What makes an export plan clean against the server it came from:
 * - the spec is the provider's `toManifest`, which emits values whose
 *   canonical desired form equals the live one;
 * - a literal `${` in a live string is written as `$${`, so loading does not
 *   take it for a placeholder;
 * - a write-only field cannot be read back, so it is written as a
 *   `${env:NAME}` placeholder, listed in `.env.example`; without a
 *   fingerprint store converge does not compare it, with one it sends it once.
 *   Only a secret the live object has or its kind requires (the field table's
 *   `exportedWhen`, src/providers/shared/fields.ts): a placeholder for a
 *   disabled feature's credentials would ask for a value nobody holds;
 * - a readable field the fingerprint store knows held a secret when converge
 *   last applied it (`url: ${env:LDAP_URL}`) is written as placeholders too,
 *   one per value inside it, never its live value: a value that was secret
 *   stays secret, also in files meant to be committed (docs/security.md);
 * - a child list's items (a module's versions) are listed in their parent's
 *   manifest, each naming the file its content was downloaded into (the
 *   bytes that were uploaded, so its digest compares equal), relative to the
 *   manifest;
 * - an object whose manifest `validate` would refuse (a name the API takes and
 *   a manifest may not have: an SSH role `a@b`; a value the kind's rules
 *   refuse, checked over every exported object as validate checks the whole
 *   set) is left out with why, and so are its child items, so that the rest
 *   validates and plans clean; the object is then an unmanaged live one
 *   (src/export/manifest-check.ts).
 */
import { posix } from 'node:path';
import { Document, isMap, isScalar } from 'yaml';
import type { SchemaSet } from '../manifest/schemas.ts';
import { addressKey, compareAddresses } from '../reconcile/address.ts';
import { withoutPaths } from '../reconcile/field-paths.ts';
import { capabilities, type ExportItem, type ManifestDocument, type Provider } from '../reconcile/provider.ts';
import type { Fields, Json, LiveObject } from '../reconcile/types.ts';
import { checkManifest, type ManifestProblem, ruleProblems } from './manifest-check.ts';
import { kebabKind, objectFileName, placeholderName } from './names.ts';

/** A provider that can export (it has `toManifest`). */
export type ExportProvider = Pick<
  Provider,
  'kind' | 'api' | 'address' | 'check' | 'children' | 'cardinality' | 'exportedWriteOnly'
> &
  Required<Pick<Provider, 'toManifest'>>;

/** Whether objects of a kind can be exported: its capability (src/reconcile/provider.ts). */
export const canExport = <P extends Provider>(provider: P): provider is P & ExportProvider =>
  capabilities(provider).export;

export interface ExportInput {
  provider: ExportProvider;
  objects: readonly LiveObject[];
  /** Items of the objects' child lists (a module's versions), by the parent's address key. */
  children?: ReadonlyMap<string, readonly ExportedChild[]>;
}

/** One child list item: written into its parent's list `field`, naming its file relative to the manifest. */
export interface ExportedChild {
  field: string;
  live: LiveObject;
  export: ExportItem;
  /** Its kind's provider, whose API the download uses. */
  provider: Provider;
}

export interface ExportOptions {
  /**
   * One file per object (`<kind>/<scope>-<name>.yaml`, by `objectFileName`: `ssh-role/ssh-web.yaml`)
   * instead of one per kind (`<kind>.yaml`); a singleton stays `<kind>.yaml`.
   */
  split: boolean;
  /**
   * Write-only fields as `${env:NAME}` placeholders (default); false leaves them out, unmanaged,
   * except those the kind requires (`required`), without which the manifest would not validate.
   */
  placeholders?: boolean;
  /** The spec fields a kind's schema requires. */
  required?(kind: string): readonly string[];
  /** The `$schema` of the modeline for a file at a path relative to the output directory. */
  schemaRef(kind: string, file: string): string;
  /** The kinds' schemas, which every manifest must pass (`validate`'s); without them none is checked. */
  schemas?: SchemaSet;
  /**
   * Whether a readable field of an object held a secret when converge last applied it: the
   * fingerprint store's `has`. Such a field is written as placeholders, never as its live value;
   * without a store (none given), every readable field is written as read.
   */
  wasSecret?(objectKey: string, field: string): boolean;
}

export interface ExportedFile {
  /** Relative to the output directory, with `/`. */
  path: string;
  kind: string;
  objects: number;
  content: string;
}

export interface PlaceholderEntry {
  name: string;
  /** `SMTPSettings`, `ToolVersion/1.2.0`. */
  object: string;
  /** The spec path it stands at: a write-only field, or one value inside a field that held a secret (`allowed_users.0`). */
  field: string;
  file: string;
  /** It stands for a readable value the fingerprint store knows was a secret, not a write-only one. */
  wasSecret?: true;
}

/** A placeholder as written: its entry, and the steps to its place in the spec (a key may hold a dot). */
interface Written extends PlaceholderEntry {
  steps: readonly string[];
}

/** A live object export leaves out (`Skipping <object>: <why>.`). */
export interface SkippedObject {
  /** Its address, `SSHRole/ssh/a@b`. */
  object: string;
  kind: string;
  /** A sentence without its full stop: `its manifest would not validate: metadata.name must be ...`. */
  why: string;
}

export interface ExportResult {
  files: ExportedFile[];
  /** The child items written into the manifests (a module's versions), whose content is to be downloaded. */
  children: ExportedChild[];
  /** The objects left out, and why, in address order per kind. */
  skipped: SkippedObject[];
  placeholders: PlaceholderEntry[];
  /** The `.env.example` text, when any placeholder was written. */
  envExample: string | undefined;
}

export const ENV_EXAMPLE = '.env.example';

export function buildExport(inputs: readonly ExportInput[], options: ExportOptions): ExportResult {
  const files: ExportedFile[] = [];
  const written: ExportedChild[] = [];
  const skipped: SkippedObject[] = [];
  const placeholders: PlaceholderEntry[] = [];
  const names = new Set<string>();
  const prepared = inputs.map((input) => prepare(input, options));
  const refused = refusedObjects(prepared.flat(), options.schemas);
  for (const [i, { provider }] of inputs.entries()) {
    const kebab = kebabKind(provider.kind);
    const fileNames = new Set<string>();
    const byPath = new Map<string, string[]>();
    const split = options.split && provider.cardinality !== 'one';
    for (const { live, key: object, manifest, secrets, held, unmanaged, items } of prepared[i] ?? []) {
      const problems = refused.get(object);
      if (problems) {
        const why = `its manifest would not validate: ${problems.map((p) => p.message).join('; ')}`;
        skipped.push({ object, kind: provider.kind, why });
        for (const item of items) {
          skipped.push({ object: addressKey(item.live.address), kind: item.live.kind, why: `${object} is skipped` });
        }
        continue;
      }
      const { scope, name } = live.address;
      const path = split
        ? `${kebab}/${objectFileName([scope, name].filter(Boolean).join('-'), fileNames)}`
        : `${kebab}.yaml`;
      const entries = placeholderEntries(provider.kind, live, { secrets, held }, { object, file: path }, names);
      placeholders.push(...entries.map(({ steps: _, ...entry }) => entry));
      written.push(...items);
      const yaml = documentYaml(manifest, entries, unmanaged);
      const documents = byPath.get(path);
      if (documents) documents.push(yaml);
      else byPath.set(path, [yaml]);
    }
    for (const [path, yamls] of byPath) {
      // on every document, as the language server reads it per document
      const modeline = `# yaml-language-server: $schema=${options.schemaRef(provider.kind, path)}\n`;
      const content = yamls.map((y) => modeline + y).join('---\n');
      files.push({ path, kind: provider.kind, objects: yamls.length, content });
    }
  }
  return {
    files,
    children: written,
    skipped,
    placeholders,
    envExample: placeholders.length > 0 ? envExample(placeholders) : undefined,
  };
}

/**
 * An object's placeholders, named in the order written: its write-only fields, then each value
 * inside the fields that held secrets (`SSH_ROLE_SSH_WEB_ALLOWED_USERS_0`).
 */
function placeholderEntries(
  kind: string,
  live: LiveObject,
  { secrets, held }: Pick<Prepared, 'secrets' | 'held'>,
  at: { object: string; file: string },
  names: Set<string>,
): Written[] {
  const { scope, name } = live.address;
  const entry = (steps: readonly string[]) => {
    const field = steps.join('.');
    return { name: placeholderName({ kind, scope: scope ?? '', name, field }, names), ...at, field, steps };
  };
  return [
    ...secrets.map((field) => entry(field.split('.'))),
    ...held.flatMap(({ field, leaves }) =>
      leaves.map((steps) => ({ ...entry([field, ...steps]), wasSecret: true as const })),
    ),
  ];
}

/** One live object made a manifest, before it is checked and named. */
interface Prepared {
  provider: ExportProvider;
  live: LiveObject;
  /** Its address key. */
  key: string;
  manifest: ManifestDocument;
  /** The write-only fields written as placeholders. */
  secrets: readonly string[];
  /** The readable fields that held a secret, written as placeholders: each with the steps to every value inside it. */
  held: readonly HeldSecret[];
  /** The readable fields that held a secret, left out with placeholders off: listed under `ignore`, so not managed. */
  unmanaged: readonly string[];
  items: readonly ExportedChild[];
}

/** A readable top-level field that held a secret, and the steps to each scalar inside it (`[]` for a scalar itself). */
interface HeldSecret {
  field: string;
  leaves: readonly (readonly string[])[];
}

/** A kind's live objects as manifests, in address order. */
function prepare({ provider, objects, children }: ExportInput, options: ExportOptions): Prepared[] {
  // the kind's schema is read once, and only when placeholders are off and a write-only field is exported
  let required: readonly string[] | undefined;
  const isRequired = (field: string) => {
    required ??= options.required?.(provider.kind) ?? [];
    return required.includes(field);
  };
  const dir = options.split && provider.cardinality !== 'one' ? kebabKind(provider.kind) : '.';
  return [...objects]
    .sort((a, b) => compareAddresses(a.address, b.address))
    .map((live) => {
      const key = addressKey(live.address);
      const exported = provider.exportedWriteOnly(live.fields ?? {});
      const secrets = options.placeholders === false ? exported.filter(isRequired) : exported;
      const items = children?.get(key) ?? [];
      const own = provider.toManifest(live);
      const wasSecret = heldSecrets(provider, key, own, exported, options.wasSecret);
      // without placeholders only a required field keeps one; the rest are left unmanaged
      const keep = (h: HeldSecret) => options.placeholders !== false || isRequired(h.field);
      const held = wasSecret.filter(keep);
      const unmanaged = wasSecret.filter((h) => !keep(h)).map((h) => h.field);
      // a field left unmanaged is left out: `ignore` keeps the plan from taking it back to its default
      const spec = withoutPaths(own.spec, unmanaged);
      // the directory is all a child's relative file needs, so the manifest is checked before it is named
      const manifest = withChildren({ ...own, spec }, items, dir);
      return { provider, live, key, manifest, secrets, held, unmanaged, items };
    });
}

/**
 * The readable fields of an object's manifest that the fingerprint store knows held a secret when
 * converge last applied them. The store knows fields, not what inside them came from `${env:}`,
 * so every scalar inside such a field is one; a field with none (an empty list) shows nothing. A
 * child list (a module's versions) is export's own to write, and a write-only field is one already.
 */
function heldSecrets(
  provider: ExportProvider,
  key: string,
  manifest: ManifestDocument,
  writeOnly: readonly string[],
  wasSecret: ExportOptions['wasSecret'],
): HeldSecret[] {
  if (!wasSecret) return [];
  const childLists = new Set((provider.children ?? []).map((c) => c.field));
  return Object.entries(manifest.spec).flatMap(([field, value]) => {
    if (childLists.has(field) || writeOnly.includes(field) || !wasSecret(key, field)) return [];
    const leaves = scalarSteps(value);
    return leaves.length > 0 ? [{ field, leaves }] : [];
  });
}

/** The steps to every scalar in a value, a list's items by index; `[[]]` for a scalar, none for null. */
function scalarSteps(value: Json): string[][] {
  if (value === null) return [];
  if (typeof value !== 'object') return [[]];
  const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
  return entries.flatMap(([step, item]) => scalarSteps(item).map((steps) => [step, ...steps]));
}

/**
 * The objects whose manifests `validate` would refuse, with its problems: each against its kind's
 * schema, then the kinds' rules over every object that passed, as `validate` runs them over the
 * whole set (src/export/manifest-check.ts). Without the schemas, none.
 */
function refusedObjects(prepared: readonly Prepared[], schemas: SchemaSet | undefined): Map<string, ManifestProblem[]> {
  const refused = new Map<string, ManifestProblem[]>();
  if (!schemas) return refused;
  const checked = prepared.map((p) => ({
    ...p,
    ...checkManifest(
      schemas,
      p.provider,
      p.manifest,
      p.secrets,
      p.held.map((h) => h.field),
    ),
  }));
  const all = checked.flatMap((c) => (c.object ? [c.object] : []));
  for (const { provider, key, secrets, object, problems: schemaProblems } of checked) {
    const problems = object ? ruleProblems(provider, object, all, secrets) : schemaProblems;
    if (problems.length > 0) refused.set(key, problems);
  }
  return refused;
}

/** The manifest with its child items (`versions: [{version, archive}]`), each file relative to the manifest's directory. */
function withChildren(manifest: ManifestDocument, children: readonly ExportedChild[], dir: string): ManifestDocument {
  if (children.length === 0) return manifest;
  const spec: Fields = { ...manifest.spec };
  for (const child of children) {
    const file = posix.relative(dir, child.export.file(child.live));
    const list = (spec[child.field] as Fields[] | undefined) ?? [];
    spec[child.field] = [...list, child.export.item(child.live, file)];
  }
  return { ...manifest, spec };
}

function documentYaml(manifest: ManifestDocument, secrets: readonly Written[], unmanaged: readonly string[]): string {
  const spec: Fields = escapeTemplates(manifest.spec) as Fields;
  for (const s of secrets) setAt(spec, s.steps, placeholder(s.name));
  const body: Record<string, unknown> = { kind: manifest.kind };
  if (Object.keys(manifest.metadata).length > 0) body.metadata = escapeTemplates(manifest.metadata as Json);
  if (unmanaged.length > 0) body.ignore = [...unmanaged];
  body.spec = spec;
  const doc = new Document(body);
  const specNode = doc.get('spec', true);
  if (isMap(specNode)) {
    for (const s of secrets) {
      // a write-only row may be nested (`a.b`), a secret in a list: its node is found by its steps
      const value = specNode.getIn(s.steps, true);
      const why = s.wasSecret ? 'secret when converge applied it' : 'write-only';
      if (isScalar(value)) value.comment = ` ${why}: set ${s.name} (see ${ENV_EXAMPLE})`;
    }
  }
  return doc.toString({ lineWidth: 0 });
}

/**
 * Sets a value at its steps, making the maps on the way (a nested write-only row) and going into
 * lists by index (a secret inside a list); steps rather than a dotted path, as a key may hold a dot.
 */
function setAt(fields: Fields, steps: readonly string[], value: Json): void {
  let node: Record<string, Json> = fields;
  for (const step of steps.slice(0, -1)) {
    const next = node[step];
    if (next !== null && typeof next === 'object') node = next as Record<string, Json>;
    else node = node[step] = {};
  }
  node[steps[steps.length - 1] as string] = value;
}

/** `${` in a live value is literal text: written `$${` so that loading keeps it. */
function escapeTemplates(value: Json): Json {
  if (typeof value === 'string') return value.replaceAll('${', () => '$${');
  if (Array.isArray(value)) return value.map(escapeTemplates);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, escapeTemplates(v)]));
  }
  return value;
}

/** `${env:NAME}`, the manifest syntax for a value from the environment. */
function placeholder(name: string): string {
  return `$\{env:${name}}`;
}

function envExample(placeholders: readonly PlaceholderEntry[]): string {
  const lines = [
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the manifests' placeholder syntax, shown to users
    '# Values for the ${env:...} placeholders in the manifests written by `converge export`.',
    '# Write-only fields (passwords, tokens, keys) cannot be read back from the API, and values',
    '# that were secret when converge applied them are not written out, so export cannot fill',
    '# them in. Set each variable before `converge plan` or `converge apply`, from your CI secret',
    '# store; never commit the real values.',
  ];
  for (const p of placeholders) lines.push('', `# ${p.object} spec.${p.field} (${p.file})`, `${p.name}=`);
  return `${lines.join('\n')}\n`;
}
