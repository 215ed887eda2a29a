/**
 * The plain data that flows through converge:
 *
 *   manifests -> DesiredObject -> (providers read) LiveObject -> canonical pair
 *             -> pure diff -> Plan -> executor -> ReconcileEvent -> reporter
 *
 * Everything here is plain JSON-compatible data so that plans can be saved,
 * diffed and tested without a network.
 */

import type { Address } from './address.ts';

export type { Address } from './address.ts';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type Fields = { [key: string]: Json };

/** A place in a manifest file; lines and columns start at 1. */
export interface Position {
  file: string;
  line: number;
  col: number;
}

export interface Metadata {
  name?: string;
  mount?: string;
  organization?: string;
  module?: string;
  provider?: string;
  registry?: string;
  namespace?: string;
  labels?: Record<string, string>;
}

/** One YAML document of a manifest, validated and interpolated. */
export interface DesiredObject {
  kind: string;
  /** Identity (see Provider.address and src/reconcile/address.ts). */
  address: Address;
  metadata: Metadata;
  ensure: 'present' | 'absent';
  /** The spec as written, after interpolation; not yet normalized. */
  spec: Fields;
  /**
   * Top-level spec fields holding a secret value: one made with `${env:...}` or a sensitive
   * `${var:...}`, or listed by the document's `sensitive:` (docs/security.md, "What is secret").
   * They are secrets like write-only fields: never printed, never saved.
   */
  secretFields: string[];
  /** Dotted spec paths of those secret values (`vcs-repo.token`). */
  secretPaths?: string[];
  /** Dotted spec paths of every value a placeholder made, secret or not (`${file:}` text is not). */
  interpolatedPaths?: string[];
  /** Spec paths made with a variable that is not sensitive, and its name: refused where a secret belongs. */
  plainVariables?: Record<string, string[]>;
  /**
   * The document's `sensitive:` field paths, as written (`*` for one segment); after overlays,
   * the union of the declaration's and its patches' (docs/environments.md, "Overlays").
   */
  sensitive?: string[];
  /** Where the document starts. */
  source: Position;
  /** The manifest file's directory, absolute: where paths the spec names (a module's source) start. */
  dir?: string;
  /**
   * Real paths of the directories those paths may lead to: the repository, where `${file:}` reads
   * (docs/security.md, "Module sources"). Shared by every object of a load.
   */
  roots?: readonly string[];
  /** Values that are one whole `${file:...}` (an LDIF template), by dotted path: the file, as shown to users. */
  fileSources?: Record<string, string>;
  /** The placeholders a top-level spec field was made from (`${env:SMTP_PASSWORD}`): names, never values. */
  placeholders?: Record<string, string[]>;
  /**
   * Spec paths converge never compares nor sends for this object (`plan-timeout`,
   * `default_extensions.*`): the document's `ignore` list and the configuration's entries that
   * match it (src/reconcile/ignore.ts); after overlays, the union of the declaration's and its
   * patches'. A value the spec writes there is sent on create only.
   */
  ignore?: string[];
  /**
   * Positions of values by dotted path (`spec.api-rate-limit`, `metadata.name`). After an
   * overlay, a path a patch set (and everything under it) points into the patch's file.
   */
  positions: Record<string, Position>;
  /** For an item of a keyed child list (a module's version): the key of the object it belongs to. */
  parent?: string;
  /**
   * What `Provider.prepare` read from outside the manifest for the apply to send (a module
   * version's packed archive), so that what was planned is what is sent. Opaque to the engine,
   * and not data: never saved, compared nor shown.
   */
  prepared?: unknown;
}

/** An object as the API holds it. */
export interface LiveObject {
  kind: string;
  address: Address;
  /** The API's own handle for the object (`tool-3Fk...`, a username); opaque to the engine. */
  ref: string;
  /**
   * The API's fields, as read. Undefined when the list endpoint gave only names
   * (LIST-style APIs): the engine then calls Provider.read for the objects it needs.
   */
  fields?: Fields;
}

export type Action = 'create' | 'update' | 'replace' | 'delete' | 'noop';

/** One field that differs. Secret values are never held here: only markers. */
export interface FieldChange {
  /** Dotted path inside spec. */
  path: string;
  before?: Json;
  after?: Json;
  /** The value is a secret: before/after are omitted and only `note` explains. */
  secret?: boolean;
  /** The API cannot change this field in place: the object is replaced. */
  replace?: boolean;
  /** Why a secret is (or is not) sent: `changed since last apply`, `not compared`... */
  note?: string;
  /**
   * The manifest does not write this field: the value converge sets is the kind's documented
   * default. Shown as `(default)`; writing the field or listing it under `ignore` opts out.
   */
  default?: boolean;
  /**
   * The place in the manifests that set the desired value (after overlays, the patch that set
   * it); absent for a default. Added for reports only (src/reconcile/sources.ts): never compared.
   */
  source?: Position;
}

export interface PlannedAction {
  /** The address's string form (addressKey), unique in a plan. */
  key: string;
  kind: string;
  address: Address;
  action: Action;
  changes: FieldChange[];
  /** Keys of actions that must succeed before this one runs. */
  dependsOn: string[];
  /** The manifest document that asked for it (absent for prunes). */
  source?: Position;
  /** The live object's API handle, when it exists. */
  ref?: string;
  /** Short explanation (`pruned: not in any manifest`, `ensure: absent`). */
  reason?: string;
  /**
   * A replacement that deletes the live object first and cannot put it back
   * if the create fails: why (src/reconcile/replace.ts). Apply needs
   * --allow-replace for it.
   */
  unrestorable?: string;
  /** Things the user should know that are not changes (`SMTP password not compared: no fingerprint store`). */
  notes?: string[];
}

export interface UnmanagedObject {
  key: string;
  kind: string;
  address: Address;
  /**
   * True when `--prune` would delete it: the ownership scopes cover it, and no declared object
   * references it (then `--prune` refuses the plan instead).
   */
  prunable: boolean;
}

export type ActionCounts = Partial<Record<Action, number>>;

export interface Plan {
  actions: PlannedAction[];
  unmanaged: UnmanagedObject[];
  counts: ActionCounts;
}

/** A plan problem found while planning (not bad YAML): e.g. a declared user that does not exist. */
export interface PlanProblem {
  key: string;
  source?: Position;
  message: string;
}
