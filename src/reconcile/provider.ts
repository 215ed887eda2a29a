/**
 * The provider contract (DESIGN §6). A provider owns everything specific to
 * one kind; the engine owns everything generic (ordering, concurrency,
 * diffing, plans, events).
 *
 * Transactional rules the engine relies on:
 * - If `create` throws, nothing was created, unless the error is a lost
 *   response; then the engine reads back before deciding (it never repeats a
 *   create blindly).
 * - If `delete` throws, the object is assumed to still exist.
 * - `update` receives only the changed fields; it may send more when the API
 *   needs them, but never a write-only field that the plan did not mark to send.
 */
import type { ApiClients } from '../api/types.ts';
import type { DesiredObject, Fields, Json, LiveObject, Metadata } from './types.ts';

export interface ProviderContext {
  api: ApiClients;
  signal: AbortSignal;
}

/** How objects of a kind may be deleted (DESIGN §3). */
export type DeletePolicy =
  | 'never' // singletons: update only
  | 'absent-only' // only by `ensure: absent` (admin users)
  | 'prunable'; // by `ensure: absent`, or by --prune inside ownership scopes

export interface ManifestDocument {
  kind: string;
  metadata: Metadata;
  spec: Fields;
}

export interface Provider {
  readonly kind: string;
  /** Which API client this kind talks to. */
  readonly api: keyof ApiClients;
  /** A singleton has no name: its identity is ''. */
  readonly singleton: boolean;
  /** False when the API cannot create objects of this kind (admin users): a missing one is a plan error. */
  readonly creatable: boolean;
  readonly deletePolicy: DeletePolicy;
  /** Kinds that must be created before this one (and deleted after it). */
  readonly dependsOn: readonly string[];
  /** Fields the API never returns: compared through the fingerprint store only. */
  readonly writeOnly: readonly string[];
  /** The write-only fields export writes as `${env:NAME}` placeholders, when not all of them are configuration. */
  readonly exportedWriteOnly?: readonly string[];
  /** Fields the API cannot change after creation: a change is planned as a replacement. */
  readonly immutable: readonly string[];

  /** Identity inside the kind, from validated metadata (defaults applied). */
  identity(metadata: Metadata): string;
  /** The ownership scope of an object (organization, mount); '' for global kinds. */
  scope(metadata: Metadata): string;
  /** True when objects live in scopes named by their metadata (a mount, an organization); absent for global kinds. */
  readonly scoped?: boolean;

  /** Other objects this one needs to exist first (a test variable needs its module). */
  references?(desired: DesiredObject): Array<{ kind: string; id: string }>;

  /** Canonical spec of a desired object: defaults applied, values normalized. Pure. */
  canonicalDesired(spec: Fields): Fields;
  /** Canonical spec of a live object, comparable with canonicalDesired. Pure. */
  canonicalLive(fields: Fields): Fields;
  /** A canonical value as shown in plans and reports (a duration as `3h`); the canonical value when absent. */
  present?(field: string, value: Json): Json;

  /** All live objects of the kind in one scope, in as few requests as the API allows. */
  list(ctx: ProviderContext, scope: string): Promise<LiveObject[]>;
  /** Full fields of one listed object, for APIs whose list returns names only. */
  read?(ctx: ProviderContext, object: LiveObject): Promise<LiveObject | undefined>;

  /** `fields` is the canonical desired spec to send (secrets included only when they are to be sent). */
  create(ctx: ProviderContext, desired: DesiredObject, fields: Fields): Promise<LiveObject | undefined>;
  /** `fields` holds only the fields to change. */
  update(ctx: ProviderContext, desired: DesiredObject, live: LiveObject, fields: Fields): Promise<void>;
  delete(ctx: ProviderContext, live: LiveObject): Promise<void>;

  /** The live object as a manifest document (secrets left out: export adds placeholders). */
  toManifest(live: LiveObject): ManifestDocument;
}
