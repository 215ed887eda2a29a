/**
 * One way through: desired objects -> live objects (providers) -> canonical
 * pairs -> pure plan. The CLI calls `planRun`, shows the plan, then
 * `applyPlan` (apply.ts) executes it.
 */
import PQueue from 'p-queue';
import type { ApiClients } from '../api/types.ts';
import { addressKey, type ListUnit, unitKey } from './address.ts';
import { expandChildren, neededBy } from './children.ts';
import { declaredByKind } from './declared.ts';
import type { EventStream } from './events.ts';
import { groupByKind } from './group-by-kind.ts';
import type { OwnershipRule } from './ownership.ts';
import { buildPlan, type KindSnapshot, type PlanOptions } from './plan.ts';
import { planEarly } from './plan-early.ts';
import { listUnitOf, type Provider } from './provider.ts';
import { type LiveState, type ReadRequest, readLive } from './read.ts';
import type { SecretPolicy } from './secrets.ts';
import { isSelected, liveInSelection, type Selection } from './selection.ts';
import { runContexts } from './services.ts';
import type { DesiredObject, LiveObject, Plan, PlanProblem } from './types.ts';

export interface PlanRunInput {
  desired: readonly DesiredObject[];
  providers: ReadonlyMap<string, Provider>;
  /** The clients of the run, by API family: each provider's calls get the client of its own. */
  clients: ApiClients;
  signal: AbortSignal;
  parallelism: number;
  events: EventStream;
  prune: boolean;
  ownership: readonly OwnershipRule[];
  secrets: SecretPolicy;
  selection: Selection;
}

export interface PlanRun {
  plan: Plan;
  problems: PlanProblem[];
  desiredByKey: Map<string, DesiredObject>;
  liveByKey: Map<string, LiveObject>;
  live: LiveState;
}

export async function planRun(input: PlanRunInput): Promise<PlanRun> {
  const all = expandChildren(input.desired, input.providers);
  const expanded = selectedObjects(all, input.selection);
  const contextOf = runContexts(input);
  const selected = await Promise.all(
    expanded.map((d) => {
      const provider = input.providers.get(d.kind);
      return d.ensure === 'present' && provider?.prepare ? provider.prepare(contextOf(provider), d) : d;
    }),
  );
  const byKind = groupByKind(selected);
  const requests = [...byKind].map(([kind, desired]) =>
    readRequest(input.providers.get(kind)!, desired, input.prune ? input.ownership : []),
  );
  const referenceOnly = addReferenceReads(requests, selected, input.providers);
  if (input.prune) addTargetReads(requests, byKind, referenceOnly, input);

  const options: PlanOptions = { prune: input.prune, ownership: input.ownership, secrets: input.secrets };
  const early = planEarly(byKind, input.providers, options);
  const queue = new PQueue({ concurrency: input.parallelism });
  const live = await readLive(requests, contextOf, queue, input.events, early.onRead).finally(early.stop);

  const snapshots: KindSnapshot[] = requests
    .filter(({ provider }) => byKind.has(provider.kind))
    .map(({ provider }) => ({
      provider,
      desired: byKind.get(provider.kind) ?? [],
      live: withoutUnits(live.get(provider.kind), provider, referenceOnly.get(provider.kind)),
    }));
  const inTarget = liveInSelection(input.selection);
  const { plan, problems } = buildPlan(snapshots, {
    ...options,
    // every declared object, not only the selected ones: a target never prunes what another references
    declared: declaredByKind(all, input.providers),
    exists: (kind, key) => live.get(kind)?.has(key) ?? false,
    ...(inTarget && { inTarget }),
    planned: early.planned,
  });
  input.events.emit({ type: 'plan-ready', plan });

  const desiredByKey = new Map(selected.map((d) => [addressKey(d.address), d]));
  const liveByKey = new Map<string, LiveObject>();
  for (const objects of live.values()) for (const [key, l] of objects) liveByKey.set(key, l);
  return { plan, problems, desiredByKey, liveByKey, live };
}

/**
 * The declared objects in play, children included: an object the selection names, and the
 * children of a parent it names (a module's versions come with their module). A child is named by
 * its own address too (`--target RegistryModuleVersion/example-org/network/aws/1.0.0`), as plans
 * print it.
 */
function selectedObjects(all: readonly DesiredObject[], selection: Selection): readonly DesiredObject[] {
  if (selection.targets.length === 0 && Object.keys(selection.selectors).length === 0) return all;
  const parents = new Set(all.filter((d) => !d.parent && isSelected(selection, d)).map((d) => addressKey(d.address)));
  return all.filter((d) =>
    d.parent === undefined ? parents.has(addressKey(d.address)) : parents.has(d.parent) || isSelected(selection, d),
  );
}

/**
 * With --prune, the owned kinds a --target names are read even when no selected object is of
 * them: a target that names only live objects prunes them (inside the ownership scopes), as it
 * does beside another target that selects a declared object of the kind. The target's scope is
 * read when it names one (no glob); otherwise the ownership's scopes are.
 */
function addTargetReads(
  requests: ReadRequest[],
  byKind: Map<string, DesiredObject[]>,
  referenceOnly: Map<string, Set<string>>,
  input: PlanRunInput,
): void {
  for (const pattern of input.selection.targets) {
    const provider = input.providers.get(pattern.kind);
    if (!provider || !input.ownership.some((rule) => rule.kind === pattern.kind)) continue;
    // read for the plan now, not only for another kind's references (the selection still keeps
    // to the targets what is reported and pruned)
    referenceOnly.delete(pattern.kind);
    const at = requests.findIndex((r) => r.provider.kind === pattern.kind);
    const request = requests[at] ?? readRequest(provider, [], input.ownership);
    const units = new Map(request.units);
    const scopes = new Set(request.scopes);
    if (!provider.scoped) {
      const unit = listUnitOf(provider, { kind: pattern.kind, name: '' });
      units.set(unitKey(unit), unit);
    } else if (pattern.scope !== undefined && !/[*?[{]/.test(pattern.scope)) scopes.add(pattern.scope);
    const widened = { ...request, units, scopes };
    if (at === -1) requests.push(widened);
    else requests[at] = widened;
    if (!byKind.has(pattern.kind)) byKind.set(pattern.kind, []);
  }
}

/**
 * Objects that declared ones reference (the roles an SSH zero-address list
 * names), and the parent of a child list's item (a version's module, which
 * --target may leave out), must exist: the list units they live in are read
 * too, names only, even where nothing of their kind is declared. Returns, per
 * kind, the units read only for that, whose other objects are not part of the
 * plan.
 */
function addReferenceReads(
  requests: ReadRequest[],
  selected: readonly DesiredObject[],
  providers: ReadonlyMap<string, Provider>,
): Map<string, Set<string>> {
  const extra = new Map<string, Set<string>>();
  for (const desired of selected) {
    if (desired.ensure !== 'present') continue;
    for (const ref of neededBy(desired, providers.get(desired.kind))) {
      const provider = providers.get(ref.kind);
      if (!provider) continue;
      const unit = listUnitOf(provider, ref);
      const key = unitKey(unit);
      let request = requests.find((r) => r.provider.kind === ref.kind);
      if (!request) {
        request = { provider, units: new Map(), scopes: new Set(), needFields: new Set() };
        requests.push(request);
      }
      if (request.units.has(key)) continue;
      (request.units as Map<string, ListUnit>).set(key, unit);
      extra.set(ref.kind, (extra.get(ref.kind) ?? new Set()).add(key));
    }
  }
  return extra;
}

/** The live objects of a kind outside the units read only to check references. */
function withoutUnits(
  live: ReadonlyMap<string, LiveObject> | undefined,
  provider: Provider,
  units: ReadonlySet<string> | undefined,
): ReadonlyMap<string, LiveObject> {
  if (!live) return new Map();
  if (!units) return live;
  return new Map([...live].filter(([, object]) => !units.has(unitKey(listUnitOf(provider, object.address)))));
}

/**
 * What to read for a kind: the list units of its declared objects, and,
 * under --prune, the whole scopes its ownership rules name (where unmanaged
 * objects may be deleted).
 */
function readRequest(
  provider: Provider,
  desired: readonly DesiredObject[],
  ownership: readonly OwnershipRule[],
): ReadRequest {
  const units = new Map(
    desired.map((d) => {
      const unit = listUnitOf(provider, d.address);
      return [unitKey(unit), unit] as const;
    }),
  );
  const scopes = new Set<string>();
  for (const rule of ownership) if (rule.kind === provider.kind && rule.scope !== undefined) scopes.add(rule.scope);
  const needFields = new Set(desired.filter((d) => d.ensure === 'present').map((d) => addressKey(d.address)));
  return { provider, units, scopes, needFields };
}
