/**
 * The provider contract (docs/architecture.md). A provider owns everything
 * specific to one kind; the engine owns everything generic (addresses,
 * listing per unit, ordering, concurrency, diffing, plans, events).
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
import type { ApiClients } from '../api/types.ts';
import type { SpecProblem } from '../manifest/catalog.ts';
import { type Address, type Identity, type ListUnit, scopeUnit } from './address.ts';
import type { DesiredObject, Fields, Json, LiveObject, Metadata } from './types.ts';

export interface ProviderContext {
  api: ApiClients;
  signal: AbortSignal;
}

/** How objects of a kind may be deleted (docs/architecture.md, "Planning rules"). */
export type DeletePolicy =
  | 'never' // settings: update only
  | 'absent-only' // only by `ensure: absent` (admin users)
  | 'prunable'; // by `ensure: absent`, or by --prune inside ownership scopes

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
  /** Which API client this kind talks to. */
  readonly api: keyof ApiClients;
  readonly cardinality: Cardinality;
  /** True when objects live in scopes named by their metadata (a mount, an organization). */
  readonly scoped: boolean;
  readonly updateStyle: UpdateStyle;
  /** False when the API cannot create objects of this kind (admin users): a missing one is a plan error. */
  readonly creatable: boolean;
  readonly deletePolicy: DeletePolicy;
  /** Kinds that must be created before this one (and deleted after it). */
  readonly dependsOn: readonly string[];
  /** Fields the API cannot change after creation: a change is planned as a replacement. */
  readonly immutable: readonly string[];
  /** Fields sent on create and never on update (an import trigger): never compared. */
  readonly createOnly: readonly string[];
  /**
   * False when an existing object is never written again (an uploaded module
   * version): a difference is a warning in the plan, not an action.
   */
  readonly mutable: boolean;
  readonly children?: readonly ChildList[];

  /**
   * Reads what a desired object needs from outside the manifest before it is
   * planned (a module version's content, packed, becomes its digest). I/O at
   * the provider's edge; the planner stays pure.
   */
  prepare?(desired: DesiredObject): Promise<DesiredObject>;
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
  /** Plan notes about a desired spec that are not changes (a field that does not apply to the key type). */
  notes?(spec: Fields): string[];

  /** Canonical spec of a desired object: defaults applied, values normalized. Pure. */
  canonicalDesired(spec: Fields): Fields;
  /** Canonical spec of a live object, comparable with canonicalDesired. Pure. */
  canonicalLive(fields: Fields): Fields;
  /** A canonical value as shown in plans and reports (a duration as `3h`); the canonical value when absent. */
  present?(field: string, value: Json): Json;

  /** All live objects of one list unit, in as few requests as the API allows. */
  list(ctx: ProviderContext, unit: ListUnit): Promise<LiveObject[]>;
  /** Full fields of one listed object, for APIs whose list returns names only. */
  read?(ctx: ProviderContext, object: LiveObject): Promise<LiveObject | undefined>;
  /** One object by address, with its fields, in the fewest requests; undefined when it does not exist. */
  get?(ctx: ProviderContext, address: Address): Promise<LiveObject | undefined>;

  /** `fields` is the canonical desired spec to send (secrets included only when they are to be sent). */
  create(ctx: ProviderContext, desired: DesiredObject, fields: Fields): Promise<LiveObject | undefined>;
  /** `fields`: the changed fields (`patch`) or the whole desired object (`replace`). */
  update(ctx: ProviderContext, desired: DesiredObject, live: LiveObject, fields: Fields): Promise<void>;
  delete(ctx: ProviderContext, live: LiveObject): Promise<void>;

  /** The live object as a manifest document (secrets left out: export adds placeholders). */
  toManifest(live: LiveObject): ManifestDocument;
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
