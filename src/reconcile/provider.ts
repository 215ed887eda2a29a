/**
 * The provider contract (docs/architecture.md). A provider owns everything
 * specific to one kind; the engine owns everything generic (addresses,
 * listing per unit, ordering, concurrency, diffing, plans, events).
 *
 * The writes (`create`, `update`, `delete`) and `toManifest` are optional:
 * what a kind can do is derived from which of them it has (`capabilities`),
 * and the planner turns an object that would need a missing one into a plan
 * problem or a note, so none is ever called on a kind that lacks it.
 *
 * Transactional rules the engine relies on:
 * - If `create` throws, nothing was created, unless the error is a lost
 *   response; then the engine reads the object back by its address (`get`)
 *   before deciding: it never repeats a create blindly.
 * - If `delete` throws, the object is assumed to still exist.
 * - `update` of a `patch` kind receives only the changed fields; of a
 *   `replace` kind (the API rebuilds the object from the body), every desired
 *   field. Either way it never receives a write-only field that the plan did
 *   not mark to send.
 */
import type { ApiName } from '../api/profiles.ts';
import type { BodySink, HttpClient } from '../api/types.ts';
import type { SpecProblem } from '../manifest/catalog.ts';
import { type Address, type Identity, type ListUnit, scopeUnit } from './address.ts';
import type { DesiredObject, Fields, Json, LiveObject, Metadata } from './types.ts';

/** What the engine gives a provider's calls (src/reconcile/services.ts makes it, per run and API family). */
export interface ProviderContext {
  /** The client of the kind's API family (`Provider.api`); one not configured throws its set-up hint when used. */
  readonly client: HttpClient;
  readonly signal: AbortSignal;
  /**
   * One read per key for the run, shared by whoever asks (a parent and its
   * children: an organization's module list serves its modules, their
   * versions and their test variables). The first caller's `read` runs,
   * later callers get its promise; a failed read is forgotten, so the next
   * caller tries again.
   */
  shared<T>(key: string, read: () => Promise<T>): Promise<T>;
  /**
   * `work` after all work queued before it under the same key in the run
   * (failed or not), and before any queued later: one at a time inside a
   * parent (a module's version deletes and repairs each count its versions).
   */
  serial<T>(key: string, work: () => Promise<T>): Promise<T>;
}

/** How objects of a kind may be deleted (docs/architecture.md, "Planning rules"). */
export type DeletePolicy =
  | 'never' // no `delete`: settings are updated only
  | 'absent-only' // only by `ensure: absent` (admin users)
  | 'prunable'; // by `ensure: absent`, or by --prune inside ownership scopes

/** What a kind can do, derived from the operations its provider has. */
export interface Capabilities {
  /** `create`: a missing object is created; without it, a plan problem (the API does not create them). */
  readonly create: boolean;
  /** `update`: an existing object is written again; without it, a difference is a plan note. */
  readonly update: boolean;
  /** `delete` (and the kind's `deletePolicy`): `never` without it. */
  readonly delete: DeletePolicy;
  /** `toManifest`: live objects can be exported. */
  readonly export: boolean;
}

export function capabilities(provider: Provider): Capabilities {
  return {
    create: provider.create !== undefined,
    update: provider.update !== undefined,
    delete: provider.delete === undefined ? 'never' : (provider.deletePolicy ?? 'prunable'),
    export: provider.toManifest !== undefined,
  };
}

/** A replacement deletes the object and creates it anew: a kind missing either cannot replace its objects. */
export function canReplace(can: Capabilities): boolean {
  return can.create && can.delete !== 'never';
}

/**
 * `one`: a single object that always exists (site settings): updated only.
 * `one-per-scope`: at most one per scope (an SSH CA, an LDAP config), created and deleted.
 * `many`: any number, each with a name.
 */
export type Cardinality = 'one' | 'one-per-scope' | 'many';

/** `patch`: the API keeps fields a write leaves out. `replace`: a write rebuilds the object from its body. */
export type UpdateStyle = 'patch' | 'replace';

export interface ManifestDocument {
  kind: string;
  metadata: Metadata;
  spec: Fields;
}

/**
 * A list field whose items are objects of their own (a module's versions):
 * each item is planned, shown and applied as one object of `provider`'s kind,
 * addressed `childAddress(parent, kind, item key)` (src/reconcile/address.ts).
 * The parent's own diff leaves the field out.
 */
export interface ChildList {
  field: string;
  /** The item field that names an item (`version`). */
  key: string;
  provider: Provider;
}

export interface Provider {
  readonly kind: string;
  /** The API family this kind talks to: its calls get that family's client. */
  readonly api: ApiName;
  readonly cardinality: Cardinality;
  /** True when objects live in scopes named by their metadata (a mount, an organization). */
  readonly scoped: boolean;
  readonly updateStyle: UpdateStyle;
  /** With `delete`: `absent-only` when only `ensure: absent` deletes (admin users); `prunable` when absent. */
  readonly deletePolicy?: Exclude<DeletePolicy, 'never'>;
  /** Kinds that must be created before this one (and deleted after it). */
  readonly dependsOn: readonly string[];
  /**
   * The rows of the kind's field table, by dotted path (`vcs-repo.identifier`); the rules below
   * name paths of it, at any depth (docs/architecture.md, "Field paths").
   */
  readonly fieldPaths?: readonly string[];
  /** Fields the API cannot change after creation: a change is planned as a replacement. */
  readonly immutable: readonly string[];
  /** Fields sent on create and never on update (an import trigger): never compared. */
  readonly createOnly: readonly string[];
  /**
   * Rows with a documented default, which a spec that leaves them out is set to: a change of one
   * the spec does not write is labelled `(default)` in plans and drift.
   */
  readonly defaulted?: readonly string[];
  readonly children?: readonly ChildList[];

  /**
   * Reads what a desired object needs from outside the manifest before it is
   * planned (a module version's content, packed, becomes its digest). I/O at
   * the provider's edge; the planner stays pure.
   */
  prepare?(ctx: ProviderContext, desired: DesiredObject): Promise<DesiredObject>;
  /**
   * The parts of the kind's identity (`organization/name/provider`,
   * `mount/name`), which src/reconcile/address.ts formats and parses; when
   * absent, the scope (for a scoped kind) and one name that holds no `/`.
   */
  readonly identity?: Identity;
  /** The address of an object, from validated metadata (defaults applied). */
  address(metadata: Metadata): Address;
  /**
   * The unit one list call covers (a test variable is owned in its
   * organization but listed per module: its unit is its module); the scope
   * when absent.
   */
  listUnit?(address: Address): ListUnit;
  /** Every list unit of a scope, to find unmanaged objects there (--prune, export); the scope itself when absent. */
  listUnits?(ctx: ProviderContext, scope: string): Promise<ListUnit[]>;

  /** Fields the API never returns, for this object: compared through the fingerprint store only. */
  writeOnly(spec: Fields): readonly string[];
  /** The write-only fields export writes as `${env:NAME}` placeholders for a live object. */
  exportedWriteOnly(fields: Fields): readonly string[];

  /** Other objects this one needs to exist first (a test variable needs its module). */
  references?(desired: DesiredObject): Address[];
  /**
   * The first object it references holds it: the API deletes it with that object (a module's
   * test variables go with their module). When that object is replaced, this one is created
   * again after it, whatever its live state said (src/reconcile/plan.ts).
   */
  readonly heldByReference?: boolean;
  /** Rules beyond the schema, checked offline before anything is sent (docs/kinds.md lists them per kind). */
  check?(object: DesiredObject, all: readonly DesiredObject[]): SpecProblem[];
  /**
   * Why replacing an object of this kind needs the user's explicit consent
   * (`--allow-replace <Kind>` or an interactive yes): a new SSH CA invalidates
   * every certificate in circulation.
   */
  readonly replaceConsent?: string;
  /**
   * Replacements (docs/architecture.md, "Executing"). True when the API lets
   * a new object exist beside the old one (identity by a server-made handle,
   * not by path): a replacement creates the new object, then deletes the old.
   */
  readonly createsBeside?: boolean;
  /**
   * Why an object of this kind, once deleted, cannot be put back from what
   * was read (a private key that is never read back, versions deleted with a
   * module); undefined when its readable state recreates it. Derived from the
   * field table by defineProvider: a write-only field of the object cannot be
   * resent. A replacement that deletes first restores the previous object
   * when the create fails, unless this says why it cannot.
   */
  unrestorable?(live: LiveObject): string | undefined;
  /**
   * Readable fields the service sets itself on create (a generated CA's
   * public key): converge remembers the value it saw after creating the
   * object, and a different live value later, where the manifest does not
   * declare the field, is a replacement (someone swapped it by hand).
   * Derived from the field table's `remembered` rows by defineProvider.
   */
  readonly remembers?: readonly string[];
  /**
   * Write-only fields the service has changed itself (an LDAP engine that
   * rotated its root password), with why: sent only when the fingerprint
   * store shows the user changed the value, never on --resend-secrets nor
   * without a store, because the old value would break the service.
   */
  heldSecrets?(live: Fields): ReadonlyMap<string, string>;
  /** Plan notes that need the live object too (an account that is checked out cannot leave its set). */
  liveNotes?(spec: Fields, live: Fields): string[];
  /**
   * Plan notes about a desired spec that are not changes (a field that does not apply to the key
   * type). `secretFields` are the spec's fields whose values are secret (DesiredObject.secretFields):
   * a note names such a field, never quotes its value.
   */
  notes?(spec: Fields, secretFields: readonly string[]): string[];
  /**
   * What a plan says of write-only fields that changed since converge sent them on an object that is
   * never written again (a module version's content): the kind's own words and remedy, or nothing
   * when the manifest acknowledges the change. Absent: the engine's note (`changed since converge
   * sent it, and this object is never written again`). `secretFields` as for `notes`.
   */
  changedSinceSent?(spec: Fields, fields: readonly string[], secretFields: readonly string[]): string[];

  /** Canonical spec of a desired object: defaults applied, values normalized. Pure. */
  canonicalDesired(spec: Fields): Fields;
  /** Canonical spec of a live object, comparable with canonicalDesired. Pure. */
  canonicalLive(fields: Fields): Fields;
  /**
   * canonicalDesired gives any two specs with the same keys the same keys, and never throws
   * (src/providers/shared/fields.ts, `keysFollowSpecKeys`): a policy that reads only the spec's keys is keyed by the declared spec's
   * (src/policy/result-cache.ts), no canonical spec made. Absent: not known.
   */
  canonicalKeysFollowSpec?: boolean;
  /** A canonical value as shown in plans and reports (a duration as `3h`); the canonical value when absent. */
  present?(field: string, value: Json): Json;
  /** Canonical fields in the API's own forms (a duration as `2h`), as writes send them; `written` is the spec. */
  wire?(fields: Fields, written: Fields): Fields;

  /** All live objects of one list unit, in as few requests as the API allows. */
  list(ctx: ProviderContext, unit: ListUnit): Promise<LiveObject[]>;
  /** Full fields of one listed object, for APIs whose list returns names only. */
  read?(ctx: ProviderContext, object: LiveObject): Promise<LiveObject | undefined>;
  /** One object by address, with its fields, in the fewest requests; undefined when it does not exist. */
  get?(ctx: ProviderContext, address: Address): Promise<LiveObject | undefined>;

  /**
   * `fields` is the canonical desired spec to send (secrets included only when they are to be sent).
   * Absent when the API does not create objects of the kind (site settings, admin users).
   */
  create?(ctx: ProviderContext, desired: DesiredObject, fields: Fields): Promise<LiveObject | undefined>;
  /**
   * `fields`: the changed fields (`patch`) or the whole desired object (`replace`). Absent when an
   * existing object is never written again (an uploaded module version, an SSH CA whose only compared
   * field is immutable): a difference is a plan note, a change of an immutable field a replacement.
   */
  update?(ctx: ProviderContext, desired: DesiredObject, live: LiveObject, fields: Fields): Promise<void>;
  /** Absent when objects of the kind are never deleted (site settings). */
  delete?(ctx: ProviderContext, live: LiveObject): Promise<void>;

  /** The live object as a manifest document (secrets left out: export adds placeholders); absent: not exported. */
  toManifest?(live: LiveObject): ManifestDocument;
  /**
   * How export writes an object of a child list's kind (a module's version) into its parent's
   * manifest, with its content downloaded beside it; absent: export leaves the items out.
   */
  readonly exportItem?: ExportItem;
}

/** A child list's item in an export: its content, downloaded into a file, and the item naming that file. */
export interface ExportItem {
  /** Why this object is left out (a version without content, or one of a VCS module); undefined: exported. */
  skip(live: LiveObject, parent: LiveObject): string | undefined;
  /** Its file, relative to the output directory, with `/` (`modules/acme/network-aws/1.2.0.tar.gz`). */
  file(live: LiveObject): string;
  /** Streams the content into `sink` (at most what the kind allows). */
  download(ctx: ProviderContext, live: LiveObject, sink: BodySink): Promise<void>;
  /** The item in the parent's list, given the file's path relative to the manifest (`{version, archive}`). */
  item(live: LiveObject, file: string): Fields;
}

/** The unit one list call of `provider` covers for an address. */
export function listUnitOf(provider: Provider, address: Address): ListUnit {
  return provider.listUnit?.(address) ?? scopeUnit(address.scope);
}

/** The parts of a kind's identity, as it declares them or by default from its cardinality. */
export function identityOf(provider: Provider): Identity {
  if (provider.identity) return provider.identity;
  const name = provider.cardinality === 'many' ? [['name']] : [[]];
  return provider.scoped ? { scope: 'scope', name } : { name };
}
