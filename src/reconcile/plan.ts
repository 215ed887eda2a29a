/**
 * The planner: pairs desired and live objects of every kind in play and turns
 * each pair into one planned action. Pure: no I/O, plain data in and out.
 */

import { diffFields } from './diff.ts';
import { objectKey } from './keys.ts';
import { orderKinds } from './order.ts';
import { isOwned, type OwnershipRule } from './ownership.ts';
import type { Provider } from './provider.ts';
import { decideSecrets, type SecretPolicy } from './secrets.ts';
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
  /** Live objects by id, in the scopes read; paired ones carry their fields. */
  live: ReadonlyMap<string, LiveObject>;
}

export interface PlanOptions {
  prune: boolean;
  ownership: readonly OwnershipRule[];
  secrets: SecretPolicy;
  /** With --target, live objects outside the target are neither reported nor pruned. */
  inTarget?: (kind: string, id: string) => boolean;
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

  for (const snapshot of sorted) {
    const { provider } = snapshot;
    const declared = new Set<string>();
    for (const desired of [...snapshot.desired].sort((a, b) => a.id.localeCompare(b.id))) {
      declared.add(desired.id);
      const result = planObject(provider, desired, snapshot.live.get(desired.id), options);
      if ('problem' in result) problems.push(result.problem);
      else (result.action === 'delete' ? deletes : forward).push(result);
    }
    for (const live of [...snapshot.live.values()].sort((a, b) => a.id.localeCompare(b.id))) {
      if (declared.has(live.id) || provider.singleton) continue;
      if (options.inTarget && !options.inTarget(provider.kind, live.id)) continue;
      const prunable =
        provider.deletePolicy === 'prunable' && isOwned(options.ownership, provider.kind, live.scope ?? '', live.id);
      if (options.prune && prunable) {
        deletes.push(deleteAction(live, 'pruned: in an ownership scope and in no manifest'));
      } else {
        unmanaged.push({ kind: live.kind, id: live.id, prunable });
      }
    }
  }

  linkDependencies(sorted, forward, deletes);
  deletes.reverse(); // deletes run in reverse kind order
  const actions = [...forward, ...deletes];
  return { plan: { actions, unmanaged, counts: countActions(actions) }, problems };
}

type ObjectResult = PlannedAction | { problem: PlanProblem };

function planObject(
  provider: Provider,
  desired: DesiredObject,
  live: LiveObject | undefined,
  options: PlanOptions,
): ObjectResult {
  const key = objectKey(desired.kind, desired.id);
  const base = { key, kind: desired.kind, id: desired.id, dependsOn: [], source: desired.source };

  if (desired.ensure === 'absent') {
    if (provider.deletePolicy === 'never') {
      return { problem: { key, source: desired.source, message: `${key} cannot be deleted (update only)` } };
    }
    if (!live) return { ...base, action: 'noop', changes: [], reason: 'ensure: absent; already absent' };
    return { ...base, action: 'delete', changes: [], ref: live.ref, reason: 'ensure: absent' };
  }

  const desiredFields = provider.canonicalDesired(desired.spec);
  if (!live) {
    if (!provider.creatable) {
      return {
        problem: {
          key,
          source: desired.source,
          message: `${key} does not exist, and the API does not create ${desired.kind} objects`,
        },
      };
    }
    const secrets = decideSecrets(key, desiredFields, provider.writeOnly, 'create', options.secrets);
    const changes = createChanges(provider, desired, desiredFields, secrets.send);
    return { ...base, action: 'create', changes: presented(provider, changes) };
  }

  if (!live.fields) {
    return { problem: { key, source: desired.source, message: `${key} was listed but could not be read` } };
  }
  const liveFields = provider.canonicalLive(live.fields);
  let secrets = decideSecrets(key, desiredFields, provider.writeOnly, 'update', options.secrets);
  const diffOptions = {
    writeOnly: new Set(provider.writeOnly),
    immutable: new Set(provider.immutable),
    secret: new Set(desired.secretFields),
    sendSecrets: secrets.send,
  };
  let changes = diffFields(desiredFields, liveFields, diffOptions);
  const replacing = changes.some((c) => c.replace);
  // a replacement creates the object anew, so every write-only field goes with it;
  // an update goes out anyway, and may carry secrets the store cannot vouch for
  const occasion = replacing ? 'create' : changes.length > 0 ? 'rewrite' : 'update';
  if (occasion !== 'update') {
    secrets = decideSecrets(key, desiredFields, provider.writeOnly, occasion, options.secrets);
    changes = diffFields(desiredFields, liveFields, { ...diffOptions, sendSecrets: secrets.send });
  }
  const action: Action = replacing ? 'replace' : changes.length > 0 ? 'update' : 'noop';
  const planned: PlannedAction = { ...base, action, changes: presented(provider, changes), ref: live.ref };
  if (secrets.notes.length > 0) planned.notes = secrets.notes;
  return planned;
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

function createChanges(
  provider: Provider,
  desired: DesiredObject,
  fields: Fields,
  send: ReadonlyMap<string, string>,
): FieldChange[] {
  const secret = new Set(desired.secretFields);
  return Object.keys(fields)
    .sort()
    .map((path): FieldChange => {
      if (provider.writeOnly.includes(path)) return { path, secret: true, note: send.get(path) ?? 'sent on create' };
      if (secret.has(path)) return { path, secret: true, note: 'secret value' };
      return { path, after: fields[path] ?? null };
    });
}

function deleteAction(live: LiveObject, reason: string): PlannedAction {
  return {
    key: objectKey(live.kind, live.id),
    kind: live.kind,
    id: live.id,
    action: 'delete',
    changes: [],
    dependsOn: [],
    ref: live.ref,
    reason,
  };
}

/**
 * Creates and updates wait for the objects they reference; deletes of a kind
 * wait for the deletes of kinds that depend on it.
 */
function linkDependencies(snapshots: readonly KindSnapshot[], forward: PlannedAction[], deletes: PlannedAction[]) {
  const providers = new Map(snapshots.map((s) => [s.provider.kind, s.provider]));
  const desiredByKey = new Map(snapshots.flatMap((s) => s.desired.map((d) => [objectKey(d.kind, d.id), d] as const)));
  const active = new Set(forward.filter((a) => a.action !== 'noop').map((a) => a.key));
  for (const action of forward) {
    const desired = desiredByKey.get(action.key);
    const refs = desired ? (providers.get(action.kind)?.references?.(desired) ?? []) : [];
    action.dependsOn = refs.map((r) => objectKey(r.kind, r.id)).filter((k) => active.has(k));
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
