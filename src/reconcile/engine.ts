/**
 * One way through: desired objects -> live objects (providers) -> canonical
 * pairs -> pure plan. The CLI calls `planRun`, shows the plan, then
 * `applyPlan` (apply.ts) executes it.
 */
import PQueue from 'p-queue';
import { addressKey } from './address.ts';
import { expandChildren } from './children.ts';
import type { EventStream } from './events.ts';
import { groupByKind } from './group-by-kind.ts';
import type { OwnershipRule } from './ownership.ts';
import { buildPlan, type KindSnapshot } from './plan.ts';
import { listUnitOf, type Provider, type ProviderContext } from './provider.ts';
import { type LiveState, type ReadRequest, readLive } from './read.ts';
import type { SecretPolicy } from './secrets.ts';
import { isSelected, liveInSelection, type Selection } from './selection.ts';
import type { DesiredObject, LiveObject, Plan, PlanProblem } from './types.ts';

export interface PlanRunInput {
  desired: readonly DesiredObject[];
  providers: ReadonlyMap<string, Provider>;
  context: ProviderContext;
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
  const selected = expandChildren(
    input.desired.filter((d) => isSelected(input.selection, d)),
    input.providers,
  );
  const byKind = groupByKind(selected);
  const requests = [...byKind].map(([kind, desired]) =>
    readRequest(input.providers.get(kind)!, desired, input.prune ? input.ownership : []),
  );

  const queue = new PQueue({ concurrency: input.parallelism });
  const live = await readLive(requests, input.context, queue, input.events);

  const snapshots: KindSnapshot[] = requests.map(({ provider }) => ({
    provider,
    desired: byKind.get(provider.kind) ?? [],
    live: live.get(provider.kind) ?? new Map(),
  }));
  const inTarget = liveInSelection(input.selection);
  const { plan, problems } = buildPlan(snapshots, {
    prune: input.prune,
    ownership: input.ownership,
    secrets: input.secrets,
    ...(inTarget && { inTarget }),
  });
  input.events.emit({ type: 'plan-ready', plan });

  const desiredByKey = new Map(selected.map((d) => [addressKey(d.address), d]));
  const liveByKey = new Map<string, LiveObject>();
  for (const objects of live.values()) for (const [key, l] of objects) liveByKey.set(key, l);
  return { plan, problems, desiredByKey, liveByKey, live };
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
  const units = new Set(desired.map((d) => listUnitOf(provider, d.address)));
  const scopes = new Set<string>();
  for (const rule of ownership) if (rule.kind === provider.kind && rule.scope !== undefined) scopes.add(rule.scope);
  const needFields = new Set(desired.filter((d) => d.ensure === 'present').map((d) => addressKey(d.address)));
  return { provider, units, scopes, needFields };
}
