import { readRegularFile } from '../../manifest/regular-file.ts';
import { checkPlan } from '../../policy/evaluate.ts';
import { denialError, policyJson, reportPolicies } from '../../policy/report.ts';
import { withoutTurbofan } from '../../policy/without-turbofan.ts';
import { applyPlan } from '../../reconcile/apply.ts';
import { EventStream } from '../../reconcile/events.ts';
import { hasChanges } from '../../reconcile/plan.ts';
import { parseSavedPlan, type SavedPlan } from '../../reconcile/plan-file.ts';
import { chooseReporter } from '../../ui/choose-reporter.ts';
import { colorsFor } from '../../ui/colors.ts';
import { formatPlan } from '../../ui/format-plan.ts';
import { type TurnOutput, turnOutput } from '../../ui/output.ts';
import { closeClients, concurrencyOf } from '../clients.ts';
import type { CommonFlags } from '../flags.ts';
import { resolveKind } from '../kind-name.ts';
import { EXIT_ERROR, EXIT_OK } from '../run-main.ts';
import { checkBeforeReading, checkSavedPlan, savedPlanFlags } from '../saved-plan.ts';
import { loadInputs } from '../session.ts';
import { VERSION } from '../version.ts';
import { checkWritable } from '../writable.ts';
import { confirmApply, guardDeletes, guardReplacements } from './confirm.ts';
import { actionsInFlight, inFlightLines } from './in-flight.ts';
import { makePlan } from './make-plan.ts';

export interface ApplyFlags extends CommonFlags {
  autoApprove: boolean;
  allowMassDelete: boolean;
  /** Kinds whose replacement the user consented to (--allow-replace). */
  allowReplace?: string[];
  /** False for --no-progress: plain lines even on a terminal. */
  progress: boolean;
}

export async function runApply(paths: string[], flags: ApplyFlags): Promise<number> {
  // a line per action: a turn's lines leave in one write (src/ui/output.ts)
  const output = turnOutput();
  try {
    return await applyWith(output, paths, flags);
  } finally {
    output.flush();
  }
}

async function applyWith(output: TurnOutput, paths: string[], flags: ApplyFlags): Promise<number> {
  const colors = colorsFor(process.stdout, flags.color);
  const saved = await readSavedPlan(paths);
  const effective = saved ? savedPlanFlags(saved, flags) : flags;
  const checked = saved && (await checkBeforeReading(saved, effective, flags.config === undefined));
  const inputs = await loadInputs(saved ? saved.manifests : paths, effective, checked?.config);
  // checked before anything is sent; a kind in another case is that kind
  const allowReplace = (flags.allowReplace ?? []).map((k) =>
    resolveKind(k, [...inputs.providers.keys()], '--allow-replace'),
  );
  // apply records what it sends: a store it cannot write would fail after the secrets went out
  if (inputs.config.fingerprints) checkWritable(inputs.config.fingerprints, 'the fingerprint store');
  const events = new EventStream();
  const reporter = await chooseReporter({
    json: flags.json,
    progress: flags.progress,
    stream: process.stdout,
    env: process.env,
    output,
    colors,
    converge: VERSION,
  });
  events.on(reporter.listener);

  const interrupt = new AbortController();
  const { run, clients, store } = await makePlan(inputs, effective, events, interrupt.signal).catch(async (error) => {
    // the read view goes before the error is printed
    await reporter.close();
    throw error;
  });
  try {
    const plan = saved && checked ? checkSavedPlan(saved, checked, inputs, run) : run.plan;
    // the policies again, over the plan about to run (a saved one too): nothing is sent on a denial
    const policies = withoutTurbofan(inputs.policies.length, () =>
      checkPlan(inputs.policies, plan, run, inputs.providers),
    );
    if (!flags.json) reportPolicies(output, colors, policies);
    else {
      if (inputs.policies.length > 0) output.out(JSON.stringify({ type: 'policies', ...policyJson(policies) }));
      if (policies.denied > 0) throw denialError(policies);
    }
    if (!hasChanges(plan)) {
      if (!flags.json) output.out(colors.green('No changes: live state matches the manifests.'));
      return EXIT_OK;
    }
    if (!flags.json) for (const line of formatPlan(plan, colors)) output.out(line);
    // the plan is on screen before any question about it
    output.flush();
    const deletes = (plan.counts.delete ?? 0) + (plan.counts.replace ?? 0);
    await guardDeletes(deletes, inputs.config.maxDeletes, flags.allowMassDelete);
    await guardReplacements(plan, inputs.providers, allowReplace);
    // a saved plan was reviewed when it was made: applying it is the approval
    if (!saved) await confirmApply(plan.actions.filter((a) => a.action !== 'noop').length, flags.autoApprove);

    // Ctrl-C, or SIGTERM from a CI runner's cancel, `timeout` or `docker stop`: stop new work,
    // let requests in flight finish, say what was and was not done, keep the fingerprints; a
    // second signal ends the process at once
    const inFlight = actionsInFlight(events);
    const onSignal = (signal: NodeJS.Signals) => {
      if (interrupt.signal.aborted) {
        // ended at once: what was in flight is not known, and a replacement may be past its delete
        for (const line of inFlightLines(inFlight)) output.err(line);
        process.exit(signal === 'SIGTERM' ? 143 : 130);
      }
      interrupt.abort();
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    try {
      const summary = await applyPlan(plan, {
        providers: inputs.providers,
        desired: run.desiredByKey,
        live: run.liveByKey,
        clients,
        signal: new AbortController().signal,
        parallelism: concurrencyOf(inputs.config, effective).max,
        events,
        interrupt: interrupt.signal,
        ...(store && { fingerprints: store }),
      });
      const incomplete = summary.failed.length > 0 || summary.skipped.length > 0 || summary.interrupted;
      return incomplete ? EXIT_ERROR : EXIT_OK;
    } finally {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    }
  } finally {
    await reporter.close();
    await closeClients(clients);
  }
}

/**
 * One `.json` argument is a saved plan (or a clear refusal), unless it is a JSON manifest. A file
 * of another name (`plan.out`, `tfplan`) is a saved plan when its content says so; anything else
 * is the manifest loader's to read (a YAML manifest is never taken for a plan).
 */
async function readSavedPlan(paths: string[]): Promise<SavedPlan | undefined> {
  const file = paths[0];
  if (paths.length !== 1 || file === undefined) return undefined;
  const named = file.toLowerCase().endsWith('.json');
  // a regular file of bounded size, known before its first byte is read: a FIFO or a device is
  // never waited on (docs/security.md, "Reading input")
  const read = readRegularFile(file, { maxBytes: MAX_PLAN_BYTES });
  if ('error' in read) return undefined; // not a regular file, unreadable or too large: the manifest loader says why
  // another name is a plan only by its content: anything else is a manifest, not a refusal
  return parseSavedPlan(file, read.bytes.toString('utf8'), { otherName: !named });
}

/** The largest saved plan read: one of 50,000 objects holds tens of megabytes. */
const MAX_PLAN_BYTES = 256 * 1024 * 1024;
