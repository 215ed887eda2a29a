/**
 * The planning half shared by plan and apply: connect, read live state, build
 * the plan. The caller closes the clients.
 */
import type { ApiClients } from '../../api/types.ts';
import { type PlanRun, planRun } from '../../reconcile/engine.ts';
import type { EventStream } from '../../reconcile/events.ts';
import type { FingerprintStore } from '../../reconcile/fingerprint-store.ts';
import { closeClients, concurrencyOf, connect, secretPolicy } from '../clients.ts';
import type { CommonFlags } from '../flags.ts';
import { type Inputs, planProblemsError } from '../session.ts';

export interface Planned {
  run: PlanRun;
  clients: ApiClients;
  store: FingerprintStore | undefined;
}

export async function makePlan(
  inputs: Inputs,
  flags: CommonFlags,
  events: EventStream,
  signal: AbortSignal,
): Promise<Planned> {
  // with --prune, a target's kind is read even when nothing of it is declared (src/reconcile/engine.ts)
  const targeted = flags.prune ? inputs.selection.targets.map((t) => t.kind) : [];
  const kinds = new Set([...inputs.desired.map((d) => d.kind), ...targeted]);
  const concurrency = concurrencyOf(inputs.config, flags);
  const clients = connect(inputs.config, kinds, events, concurrency);
  try {
    const { policy, store } = await secretPolicy(inputs.config, flags.resendSecrets);
    const run = await planRun({
      desired: inputs.desired,
      providers: inputs.providers,
      clients,
      signal,
      // the clients' windows decide how many requests fly; the queue only must not be the bottleneck
      parallelism: concurrency.max,
      events,
      prune: flags.prune,
      ownership: inputs.config.ownership,
      secrets: policy,
      selection: inputs.selection,
    });
    if (run.problems.length > 0) throw planProblemsError(run.problems);
    return { run, clients, store };
  } catch (error) {
    await closeClients(clients);
    throw error;
  }
}
