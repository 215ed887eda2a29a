/**
 * One way through: desired objects -> live objects (providers) -> canonical
 * pairs -> pure plan. The CLI calls `planRun`, shows the plan, then
 * `applyPlan` (apply.ts) executes it.
 */
import PQueue from 'p-queue';
import type { EventStream } from './events.ts';
import { groupByKind } from './group-by-kind.ts';
import { objectKey } from './keys.ts';
import type { OwnershipRule } from './ownership.ts';
import { buildPlan, type KindSnapshot } from './plan.ts';
import type { Provider, ProviderContext } from './provider.ts';
import { type LiveState, readLive } from './read.ts';
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
  const selected = input.desired.filter((d) => isSelected(input.selection, d));
  const byKind = groupByKind(selected);
  const requests = [...byKind].map(([kind, desired]) => {
    const provider = input.providers.get(kind)!;
    const scopes = new Set(desired.map((d) => provider.scope(d.metadata)));
    if (input.prune) {
      for (const rule of input.ownership) if (rule.kind === kind && rule.scope !== undefined) scopes.add(rule.scope);
    }
    return { provider, scopes, needFields: new Set(desired.filter((d) => d.ensure === 'present').map((d) => d.id)) };
  });

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

  const desiredByKey = new Map(selected.map((d) => [objectKey(d.kind, d.id), d]));
  const liveByKey = new Map<string, LiveObject>();
  for (const objects of live.values()) for (const l of objects.values()) liveByKey.set(objectKey(l.kind, l.id), l);
  return { plan, problems, desiredByKey, liveByKey, live };
}
