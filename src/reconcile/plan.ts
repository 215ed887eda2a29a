/**
 * The planner: pairs desired and live objects of every kind in play and turns
 * each pair into one planned action. Pure: no I/O, plain data in and out.
 */

import { type Address, addressKey, compareAddresses, kindOfKey, parentOf } from './address.ts';
import { neededBy, parentLists } from './children.ts';
import { compare } from './comparison.ts';
import { type Declared, declaredByKind } from './declared.ts';
import { orderKinds } from './order.ts';
import { isOwned, type OwnershipRule } from './ownership.ts';
import { type Capabilities, canReplace, capabilities, type Provider } from './provider.ts';
import { swappedFields } from './remembered.ts';
import { replaceRisks, replaceSafety } from './replace.ts';
import { CHANGED, decideSecrets, type SecretPolicy } from './secrets.ts';
import type {
  Action,
  ActionCounts,
  DesiredObject,
  FieldChange,
  Fields,
  LiveObject,
  Plan,
  PlannedAction,
  PlanProblem,
  UnmanagedObject,
} from './types.ts';

export interface KindSnapshot {
  provider: Provider;
  /** Declared objects of this kind that are in play (after --target/--selector). */
  desired: DesiredObject[];
  /** Live objects by address key, in the units read; paired ones carry their fields. */
  live: ReadonlyMap<string, LiveObject>;
}

export interface PlanOptions {
  prune: boolean;
  ownership: readonly OwnershipRule[];
  secrets: SecretPolicy;
  /** With --target, live objects outside the target are neither reported nor pruned. */
  inTarget?: (address: Address) => boolean;
  /**
   * Every declared object, also those --target leaves out: --prune never deletes what one of them
   * references, and an object a selected one needs that the target leaves out is named as such.
   * From the snapshots' desired objects when absent.
   */
  declared?: Declared;
  /** Whether a live object of a kind exists (read for references too); by the snapshots' live objects when absent. */
  exists?: (kind: string, key: string) => boolean;
  /**
   * Objects planned already, as their live answers arrived (src/reconcile/plan-early.ts), by key:
   * a result is used only while its live object is the one the snapshot pairs with.
   */
  planned?: ReadonlyMap<string, EarlyResult>;
}

/** One object's plan, or why it cannot be planned. */
export type ObjectResult = PlannedAction | { problem: PlanProblem };

/** An object planned before the whole plan, against the live object it was planned with. */
export interface EarlyResult {
  live: LiveObject;
  result: ObjectResult;
}

export interface PlanResult {
  plan: Plan;
  problems: PlanProblem[];
}

export function buildPlan(snapshots: readonly KindSnapshot[], options: PlanOptions): PlanResult {
  const order = orderKinds(snapshots.map((s) => s.provider));
  const sorted = [...snapshots].sort((a, b) => order.indexOf(a.provider.kind) - order.indexOf(b.provider.kind));
  const problems: PlanProblem[] = [];
  const forward: PlannedAction[] = [];
  const deletes: PlannedAction[] = [];
  const unmanaged: UnmanagedObject[] = [];
  const allDeclared = options.declared ?? declaredIn(sorted);

  // objects replaced: those they hold (a module's test variables) are deleted with them, and made
  // again; kinds are planned in order, so a holder's replacement is known before what it holds
  const replaced = new Set<string>();
  const madeAgainBy = new Map<string, string>();
  for (const snapshot of sorted) {
    const { provider } = snapshot;
    const can = capabilities(provider);
    const declared = new Set<string>();
    for (const desired of [...snapshot.desired].sort((a, b) => compareAddresses(a.address, b.address))) {
      const key = addressKey(desired.address);
      declared.add(key);
      const holder = madeAgainBy.get(key);
      const live = holder === undefined ? snapshot.live.get(key) : undefined;
      const early = options.planned?.get(key);
      const planned =
        early && live && early.live === live ? early.result : planObject(provider, desired, key, live, options, can);
      const result = holder === undefined ? planned : madeAgain(planned, holder);
      if ('problem' in result) problems.push(result.problem);
      else {
        if (result.action === 'replace') {
          replaced.add(key);
          for (const held of allDeclared.held.get(key) ?? []) madeAgainBy.set(addressKey(held.address), key);
        }
        (result.action === 'delete' ? deletes : forward).push(result);
      }
    }
    const undeclared = [...snapshot.live].filter(([key]) => !declared.has(key));
    for (const [key, live] of undeclared.sort(([, a], [, b]) => compareAddresses(a.address, b.address))) {
      if (provider.cardinality === 'one') continue;
      if (options.inTarget && !options.inTarget(live.address)) continue;
      const owned = can.delete === 'prunable' && isOwned(options.ownership, live.address);
      // an object a declared one references is never pruned: not prunable, and refused under --prune
      const needed = owned ? (allDeclared.referrers.get(key) ?? []) : [];
      const prunable = owned && needed.length === 0;
      if (options.prune && needed.length > 0)
        problems.push(...needed.map((referrer) => prunedReference(referrer, key)));
      else if (options.prune && prunable)
        deletes.push(deleteAction(key, live, 'pruned: in an ownership scope and in no manifest'));
      else unmanaged.push({ key, kind: live.kind, address: live.address, prunable });
    }
  }

  // the declared objects in play (selected), by key
  const inPlay = new Map(sorted.flatMap((s) => s.desired.map((d) => [addressKey(d.address), d] as const)));
  problems.push(...referenceProblems(sorted, inPlay, allDeclared, options));
  problems.push(...heldOutsideSelection(replaced, inPlay, allDeclared));
  const kept = withoutCascaded(deletes, sorted);
  linkDependencies(sorted, inPlay, forward, kept);
  kept.reverse(); // deletes run in reverse kind order
  const actions = [...forward, ...kept];
  return { plan: { actions, unmanaged, counts: countActions(actions) }, problems };
}

/**
 * A replaced object deletes what it holds; one of those declared but left out by --target would
 * not be made again: refused, naming it, rather than lost (a module's test variables).
 */
function heldOutsideSelection(
  replaced: ReadonlySet<string>,
  inPlay: ReadonlyMap<string, DesiredObject>,
  declared: Declared,
): PlanProblem[] {
  return [...replaced].flatMap((holder) =>
    (declared.held.get(holder) ?? [])
      .filter((d) => !inPlay.has(addressKey(d.address)))
      .map((d) => {
        const key = addressKey(d.address);
        const why = `replacing ${holder} deletes it with it, and the selection leaves it out, so it would not be made again`;
        return { key, source: d.source, message: `${key}: ${why}: select it too (-t ${key})` };
      }),
  );
}

/** An object planned as absent because its holder is replaced: a create, saying why. */
function madeAgain(result: ObjectResult, holder: string): ObjectResult {
  if ('problem' in result) return result;
  return withNotes(result, [`created again: replacing ${holder} deletes it with it`]);
}

/**
 * The deletes without those of children whose parent the plan deletes too (a module's versions
 * when the module goes): the parent's delete takes them with it, as for a parent declared
 * `ensure: absent` (children.ts). Deleting them one by one first is not needed, and fails for a
 * module's last version, which is never deleted alone (src/providers/registry-module/version-status.ts).
 */
function withoutCascaded(deletes: PlannedAction[], snapshots: readonly KindSnapshot[]): PlannedAction[] {
  const lists = parentLists(snapshots.map((s) => s.provider));
  if (lists.size === 0) return deletes;
  const deleted = new Set(deletes.map((d) => d.key));
  return deletes.filter((d) => {
    const parent = lists.get(d.kind)?.parent.kind;
    return parent === undefined || !deleted.has(addressKey(parentOf(d.address, parent)));
  });
}

/**
 * The action for one declared object and its live counterpart: pure, and the same whenever it runs.
 * `can`: the kind's capabilities, when the caller derived them once for all its objects.
 */
export function planObject(
  provider: Provider,
  desired: DesiredObject,
  key: string,
  live: LiveObject | undefined,
  options: PlanOptions,
  can: Capabilities = capabilities(provider),
): ObjectResult {
  const base = { key, kind: desired.kind, address: desired.address, dependsOn: [], source: desired.source };

  if (desired.ensure === 'absent') {
    if (can.delete === 'never') {
      return { problem: { key, source: desired.source, message: `${key} cannot be deleted (update only)` } };
    }
    if (!live) return { ...base, action: 'noop', changes: [], reason: 'ensure: absent; already absent' };
    return { ...base, action: 'delete', changes: [], ref: live.ref, reason: 'ensure: absent' };
  }

  const comparison = compare(provider, desired, (compared) => secretFields(key, desired, compared, options));
  const { fields: desiredFields, writeOnly, compared } = comparison;
  const kindNotes = provider.notes?.(desired.spec, desired.secretFields) ?? [];
  if (!live) {
    if (!can.create) {
      return {
        problem: {
          key,
          source: desired.source,
          message: `${key} does not exist, and the API does not create ${desired.kind} objects`,
        },
      };
    }
    const secrets = decideSecrets(key, desiredFields, writeOnly, 'create', options.secrets);
    const changes = comparison.createChanges(secrets.send);
    return withNotes({ ...base, action: 'create', changes: presented(provider, changes) }, [
      ...kindNotes,
      ...ignoreNotes(desired, 'create'),
    ]);
  }

  if (!live.fields) {
    return { problem: { key, source: desired.source, message: `${key} was listed but could not be read` } };
  }
  const liveFields = provider.canonicalLive(live.fields);
  const held = provider.heldSecrets?.(live.fields) ?? new Map<string, string>();
  let secrets = decideSecrets(key, compared, writeOnly, 'update', options.secrets, held);
  // a value the service set on create that someone changed since (a generated CA swapped by hand)
  const swapped = swappedFields(provider, key, compared, liveFields, options.secrets.lookup, desired.ignore);
  let changes = [...comparison.changes(liveFields, secrets.send), ...swapped.changes];
  const replacing = changes.some((c) => c.replace);
  if (replacing && !canReplace(can)) return cannotReplace(key, desired, changes, can);
  if (!replacing && !can.update) {
    // never written again once it exists (no update): a difference is worth knowing, not an action
    const notes = [...kindNotes, ...(provider.liveNotes?.(desired.spec, live.fields) ?? [])];
    return withNotes({ ...base, action: 'noop', changes: [], ref: live.ref }, [
      ...notes,
      ...differences(changes, secrets.send, (fields) =>
        provider.changedSinceSent?.(desired.spec, fields, desired.secretFields),
      ),
    ]);
  }
  // a replacement creates the object anew, so every write-only field goes with it;
  // an update goes out anyway, and may carry secrets the store cannot vouch for
  const occasion = replacing ? 'create' : changes.length > 0 ? 'rewrite' : 'update';
  if (occasion !== 'update') {
    secrets = decideSecrets(key, replacing ? desiredFields : compared, writeOnly, occasion, options.secrets, held);
    changes = [...comparison.changes(liveFields, secrets.send), ...swapped.changes];
  }
  const action: Action = replacing ? 'replace' : changes.length > 0 ? 'update' : 'noop';
  // a replacement that can neither create first nor put the previous object back carries the risk
  const safety = replacing ? replaceSafety(provider, live) : undefined;
  const unrestorable = safety?.mode === 'delete-first' ? safety.why : undefined;
  const planned: PlannedAction = {
    ...base,
    action,
    changes: presented(provider, changes),
    ref: live.ref,
    ...(unrestorable !== undefined && { unrestorable }),
  };
  const fromLive = provider.liveNotes?.(desired.spec, live.fields) ?? [];
  const consent = replacing ? replaceNotes(provider, planned) : [];
  return withNotes(planned, [
    ...kindNotes,
    ...fromLive,
    ...swapped.notes,
    ...consent,
    ...secrets.notes,
    ...ignoreNotes(desired, action),
  ]);
}

/**
 * What a written object leaves alone (its `ignore` list), once per object: a reviewer of a write
 * sees that these fields are someone else's. Nothing is said when nothing is written.
 */
function ignoreNotes(desired: DesiredObject, action: Action): string[] {
  const ignore = desired.ignore ?? [];
  if (ignore.length === 0 || action === 'noop') return [];
  const fields = ignore.join(', ');
  return action === 'update'
    ? [`ignored, never compared nor sent: ${fields}`]
    : [`ignored once created: ${fields} (the manifest's values are sent on create, a default is left to the API)`];
}

/**
 * What a replacement destroys, in the plan: more than the object (a new CA key invalidates every
 * certificate), or the object itself when its create fails and it cannot be put back (then the
 * action carries the risk, and apply needs --allow-replace for it).
 */
function replaceNotes(provider: Provider, planned: PlannedAction): string[] {
  const risks = replaceRisks(provider, planned);
  if (risks.length === 0) return [];
  return [`destructive: ${risks.join('; ')}; apply needs --allow-replace ${planned.kind}`];
}

/** A replacement needs both a delete and a create: a kind without one of them cannot replace its objects. */
function cannotReplace(key: string, desired: DesiredObject, changes: readonly FieldChange[], can: Capabilities) {
  const fields = changes.filter((c) => c.replace).map((c) => c.path);
  const missing = can.create ? 'deleted' : 'created';
  const message = `${fields.join(', ')} cannot change in place, and ${desired.kind} objects cannot be ${missing}, so it cannot be replaced`;
  return { problem: { key, source: desired.source, message: `${key}: ${message}` } };
}

/**
 * What differs on an object that is never written again (a module version): notes, not changes.
 * `own` is the kind's words for write-only values changed since converge sent them, if it has any.
 */
function differences(
  changes: readonly FieldChange[],
  send: ReadonlyMap<string, string>,
  own: (fields: readonly string[]) => string[] | undefined,
): string[] {
  const differ = changes.filter((c) => !c.secret).map((c) => c.path);
  // a write-only value (a version's content digest) that changed since converge sent it
  const changed = changes.filter((c) => c.secret && send.get(c.path) === CHANGED).map((c) => c.path);
  const changedNotes =
    changed.length === 0
      ? []
      : (own(changed) ?? [
          `${changed.join(', ')} changed since converge sent it, and this object is never written again: publish the change as a new one`,
        ]);
  return [
    ...(differ.length > 0 ? [`differs from the live object (${differ.join(', ')}), which is never changed`] : []),
    ...changedNotes,
  ];
}

function withNotes(action: PlannedAction, notes: readonly string[]): PlannedAction {
  return notes.length > 0 ? { ...action, notes: [...notes] } : action;
}

/**
 * Readable fields whose values are secret: interpolated now, or (so that a
 * value that stops coming from `${env:}` is not printed as the change's
 * "before") known to the fingerprint store as secret when it was last sent.
 * The store is asked for every compared field, also one the manifest left
 * out (reset to its default): its live value is the old secret all the same.
 */
function secretFields(key: string, desired: DesiredObject, compared: Fields, options: PlanOptions): Set<string> {
  const secret = new Set(desired.secretFields);
  const wasSecret = options.secrets.wasSecret;
  if (!wasSecret) return secret;
  for (const field of new Set([...Object.keys(desired.spec), ...Object.keys(compared)])) {
    if (wasSecret(key, field)) secret.add(field);
  }
  return secret;
}

/** Values as people read them (`3h`, not 10800); the executor sends from the desired fields, never from these. */
function presented(provider: Provider, changes: FieldChange[]): FieldChange[] {
  const present = provider.present?.bind(provider);
  if (!present) return changes;
  return changes.map((change) => ({
    ...change,
    ...(change.before !== undefined && { before: present(change.path, change.before) }),
    ...(change.after !== undefined && { after: present(change.path, change.after) }),
  }));
}

function deleteAction(key: string, live: LiveObject, reason: string): PlannedAction {
  return {
    key,
    kind: live.kind,
    address: live.address,
    action: 'delete',
    changes: [],
    dependsOn: [],
    ref: live.ref,
    reason,
  };
}

/** The declared objects in play and what they reference, when the caller does not know every declared object. */
function declaredIn(snapshots: readonly KindSnapshot[]): Declared {
  const providers = new Map(snapshots.map((s) => [s.provider.kind, s.provider]));
  return declaredByKind(
    snapshots.flatMap((s) => s.desired),
    providers,
  );
}

/**
 * An object --prune would delete while a declared one references it: the plan is refused, as for
 * a reference to an object declared `ensure: absent`, rather than pruning it (the referencing
 * object would be changed behind the user's back, or refused by the API) or quietly keeping it
 * (the ownership rule says the scope holds only declared objects): the manifests contradict
 * themselves, and only the user knows which side is right.
 */
function prunedReference(referrer: DesiredObject, key: string): PlanProblem {
  const referrerKey = addressKey(referrer.address);
  return {
    key: referrerKey,
    source: referrer.source,
    message:
      `${referrerKey} references ${key}, which --prune would delete (it is in an ownership scope and in no manifest): ` +
      `declare ${key} to keep it, or change ${referrerKey} so that it no longer references it to let --prune delete it`,
  };
}

/**
 * A declared object that references one that will not be there when it is written cannot be
 * applied: the API would refuse it. Nor can an item of a child list (a module's version) whose
 * parent is neither live nor in the plan: --target may select the item alone.
 */
function referenceProblems(
  snapshots: readonly KindSnapshot[],
  inPlay: ReadonlyMap<string, DesiredObject>,
  declared: Declared,
  options: PlanOptions,
): PlanProblem[] {
  const exists =
    options.exists ??
    ((kind: string, key: string) => snapshots.some((s) => s.provider.kind === kind && s.live.has(key)));
  const missing = (key: string) => whyMissing(key, inPlay, declared, exists);
  const problems: PlanProblem[] = [];
  for (const { provider, desired } of snapshots) {
    for (const object of desired) {
      if (object.ensure !== 'present') continue;
      const problem = (message: string) =>
        problems.push({ key: addressKey(object.address), source: object.source, message });
      for (const refKey of (provider.references?.(object) ?? []).map(addressKey)) {
        const why = missing(refKey);
        if (why) problem(`references ${refKey}, ${why}`);
      }
      const why = object.parent === undefined ? undefined : missing(object.parent);
      if (why) problem(`belongs to ${object.parent}, ${why}`);
    }
  }
  return problems;
}

/** Why the object a selected one needs will not be there when the plan runs; undefined when it will. */
function whyMissing(
  key: string,
  inPlay: ReadonlyMap<string, DesiredObject>,
  declared: Declared,
  exists: (kind: string, key: string) => boolean,
): string | undefined {
  const state = inPlay.get(key)?.ensure;
  if (state === 'present' || (state === undefined && exists(kindOfKey(key), key))) return undefined;
  switch (state ?? declared.ensure.get(key)) {
    case 'absent':
      return 'which the manifests delete (ensure: absent)';
    case 'present':
      // declared, but --target (or --selector) left it out: it is not created before this one
      return `which is not live and not selected: target it too (-t ${key})`;
    default:
      return 'which is neither declared nor live';
  }
}

/**
 * Creates and updates wait for the objects they reference; deletes of a kind
 * wait for the deletes of kinds that depend on it.
 */
function linkDependencies(
  snapshots: readonly KindSnapshot[],
  desiredByKey: ReadonlyMap<string, DesiredObject>,
  forward: PlannedAction[],
  deletes: PlannedAction[],
) {
  const providers = new Map(snapshots.map((s) => [s.provider.kind, s.provider]));
  const active = new Set(forward.filter((a) => a.action !== 'noop').map((a) => a.key));
  // the forward actions of each kind in each scope, for objects that wait for a kind in their scope
  const inScope = new Map<string, string[]>();
  for (const action of forward) {
    if (action.address.scope === undefined) continue;
    const key = `${action.kind}\u0000${action.address.scope}`;
    const list = inScope.get(key);
    if (list) list.push(action.key);
    else inScope.set(key, [action.key]);
  }
  for (const action of forward) {
    const desired = desiredByKey.get(action.key);
    if (!desired) continue;
    const provider = providers.get(action.kind);
    // what it references, and an item of a child list the object it belongs to
    const refs = neededBy(desired, provider).map(addressKey);
    // an object that names nothing it needs waits for the kinds it depends on in its own scope
    // (an LDAP role for its mount's config): a scoped kind's objects need their scope set up first
    if (provider && !provider.references && desired.parent === undefined && action.address.scope !== undefined) {
      for (const kind of provider.dependsOn) refs.push(...(inScope.get(`${kind}\u0000${action.address.scope}`) ?? []));
    }
    action.dependsOn = refs.filter((k) => active.has(k));
  }
  for (const action of deletes) {
    action.dependsOn = deletes
      .filter((other) => providers.get(other.kind)?.dependsOn.includes(action.kind))
      .map((other) => other.key);
  }
}

export function countActions(actions: readonly PlannedAction[]): ActionCounts {
  const counts: ActionCounts = {};
  for (const a of actions) counts[a.action] = (counts[a.action] ?? 0) + 1;
  return counts;
}

export function hasChanges(plan: Plan): boolean {
  return plan.actions.some((a) => a.action !== 'noop');
}
