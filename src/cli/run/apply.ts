import { readFile } from 'node:fs/promises';
import { ConvergeError } from '../../errors.ts';
import { applyPlan } from '../../reconcile/apply.ts';
import { EventStream } from '../../reconcile/events.ts';
import { hasChanges } from '../../reconcile/plan.ts';
import { desiredDigest, PLAN_FORMAT, PLAN_VERSION, type SavedPlan, staleObjects } from '../../reconcile/plan-file.ts';
import type { Plan } from '../../reconcile/types.ts';
import { chooseReporter } from '../../ui/choose-reporter.ts';
import { colorsFor } from '../../ui/colors.ts';
import { formatPlan } from '../../ui/format-plan.ts';
import { processOutput } from '../../ui/output.ts';
import type { CommonFlags } from '../flags.ts';
import { EXIT_ERROR, EXIT_OK } from '../run-main.ts';
import { closeClients, concurrencyOf, type Inputs, loadInputs } from '../session.ts';
import { confirmApply, guardDeletes } from './confirm.ts';
import { makePlan } from './make-plan.ts';

export interface ApplyFlags extends CommonFlags {
  autoApprove: boolean;
  allowMassDelete: boolean;
  /** False for --no-progress: plain lines even on a terminal. */
  progress: boolean;
}

export async function runApply(paths: string[], flags: ApplyFlags): Promise<number> {
  const output = processOutput();
  const colors = colorsFor(process.stdout, flags.color);
  const saved = await readSavedPlan(paths);
  const effective = saved ? savedFlags(saved, flags) : flags;
  const inputs = await loadInputs(saved ? saved.manifests : paths, effective);
  const events = new EventStream();
  const reporter = await chooseReporter({
    json: flags.json,
    progress: flags.progress,
    stream: process.stdout,
    env: process.env,
    output,
    colors,
  });
  events.on(reporter.listener);

  const interrupt = new AbortController();
  const { run, clients, store } = await makePlan(inputs, effective, events, interrupt.signal);
  try {
    const plan = saved ? checkSaved(saved, inputs, run.desiredByKey, run.liveByKey) : run.plan;
    if (!hasChanges(plan)) {
      if (!flags.json) output.out(colors.green('No changes: live state matches the manifests.'));
      return EXIT_OK;
    }
    if (!flags.json) for (const line of formatPlan(plan, colors)) output.out(line);
    const deletes = (plan.counts.delete ?? 0) + (plan.counts.replace ?? 0);
    await guardDeletes(deletes, inputs.config.maxDeletes, flags.allowMassDelete);
    // a saved plan was reviewed when it was made: applying it is the approval
    if (!saved) await confirmApply(plan.actions.filter((a) => a.action !== 'noop').length, flags.autoApprove);

    const onSigint = () => {
      if (interrupt.signal.aborted) process.exit(130);
      interrupt.abort();
    };
    process.on('SIGINT', onSigint);
    try {
      const summary = await applyPlan(plan, {
        providers: inputs.providers,
        desired: run.desiredByKey,
        live: run.liveByKey,
        provider: { api: clients, signal: new AbortController().signal },
        parallelism: concurrencyOf(inputs.config, effective).max,
        events,
        interrupt: interrupt.signal,
        ...(store && { fingerprints: store }),
      });
      return summary.failed.length > 0 || summary.interrupted ? EXIT_ERROR : EXIT_OK;
    } finally {
      process.off('SIGINT', onSigint);
    }
  } finally {
    await reporter.close();
    await closeClients(clients);
  }
}

async function readSavedPlan(paths: string[]): Promise<SavedPlan | undefined> {
  if (paths.length !== 1 || !paths[0]?.endsWith('.json')) return undefined;
  let parsed: Partial<SavedPlan>;
  try {
    parsed = JSON.parse(await readFile(paths[0], 'utf8'));
  } catch {
    return undefined;
  }
  if (parsed.format !== PLAN_FORMAT) return undefined;
  if (parsed.version !== PLAN_VERSION) {
    throw new ConvergeError('PLAN_INVALID', `${paths[0]}: plan format version ${parsed.version} is not supported`, {
      hint: `this converge reads version ${PLAN_VERSION}; make the plan again`,
    });
  }
  return parsed as SavedPlan;
}

/** A saved plan is applied with the selection it was made with. */
function savedFlags(saved: SavedPlan, flags: ApplyFlags): ApplyFlags {
  return {
    ...flags,
    prune: saved.options.prune,
    target: saved.options.targets,
    selector: Object.entries(saved.options.selectors).map(([k, v]) => `${k}=${v}`),
    resendSecrets: saved.options.resendSecrets,
    ...(saved.config && { config: saved.config }),
  };
}

function checkSaved(
  saved: SavedPlan,
  inputs: Inputs,
  desiredByKey: Parameters<typeof desiredDigest>[0],
  liveByKey: Parameters<typeof staleObjects>[1],
): Plan {
  if (desiredDigest(desiredByKey, inputs.providers) !== saved.desiredDigest) {
    throw new ConvergeError('PLAN_STALE', 'the manifests changed since the plan was made; nothing was sent', {
      hint: 'make the plan again',
    });
  }
  const stale = staleObjects(saved, liveByKey, inputs.providers);
  if (stale.length > 0) {
    throw new ConvergeError(
      'PLAN_STALE',
      `live state changed since the plan was made; nothing was sent. Changed:\n${stale.map((k) => `  ${k}`).join('\n')}`,
      { hint: 'make the plan again and review it' },
    );
  }
  return saved.plan;
}
