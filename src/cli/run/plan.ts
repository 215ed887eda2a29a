import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { checkPlan } from '../../policy/evaluate.ts';
import { denialError } from '../../policy/report.ts';
import { withoutTurbofan } from '../../policy/without-turbofan.ts';
import { EventStream } from '../../reconcile/events.ts';
import { hasChanges } from '../../reconcile/plan.ts';
import { withSources } from '../../reconcile/sources.ts';
import { chooseReporter } from '../../ui/choose-reporter.ts';
import { colorsFor } from '../../ui/colors.ts';
import { type TurnOutput, turnOutput } from '../../ui/output.ts';
import { type PlanFormat, renderPlan } from '../../ui/plan/index.ts';
import { closeClients } from '../clients.ts';
import type { CommonFlags } from '../flags.ts';
import { EXIT_CHANGES, EXIT_ERROR, EXIT_OK } from '../run-main.ts';
import { savedPlanOf } from '../saved-plan.ts';
import { loadInputs } from '../session.ts';
import { VERSION } from '../version.ts';
import { checkWritable } from '../writable.ts';
import { makePlan } from './make-plan.ts';

export interface PlanFlags extends CommonFlags {
  out?: string;
  format: PlanFormat;
  detailedExitcode: boolean;
  showSources?: boolean;
  /** False for --no-progress. */
  progress?: boolean;
}

export async function runPlan(paths: string[], flags: PlanFlags): Promise<number> {
  // a line per object: a turn's lines leave in one write (src/ui/output.ts)
  const output = turnOutput();
  try {
    return await planWith(output, paths, flags);
  } finally {
    output.flush();
  }
}

async function planWith(output: TurnOutput, paths: string[], flags: PlanFlags): Promise<number> {
  const format: PlanFormat = flags.json ? 'json' : flags.format;
  // colour only for text: Markdown and JSON are read by programs, even on a terminal
  const colors = colorsFor(process.stdout, flags.color && format === 'text');
  const inputs = await loadInputs(paths, flags);
  if (flags.out) checkWritable(flags.out, '--out');
  const events = new EventStream();
  // a text plan on a terminal shows the read as it goes; a Markdown or JSON document stays only
  // itself on stdout, with the read's line and any retry on stderr (the plain lines)
  const reporter = await chooseReporter({
    json: false,
    progress: flags.progress !== false && format === 'text',
    stream: process.stdout,
    env: process.env,
    output,
    colors: colorsFor(process.stderr, flags.color),
    converge: VERSION,
  });
  events.on(reporter.listener);
  const { run, clients } = await makePlan(inputs, flags, events, new AbortController().signal).finally(() =>
    reporter.close(),
  );
  await closeClients(clients);
  const policies = withoutTurbofan(inputs.policies.length, () =>
    checkPlan(inputs.policies, run.plan, run, inputs.providers),
  );
  const denied = policies.denied > 0;

  // a plan the policies deny is never saved: there is nothing to apply
  if (flags.out && !denied) {
    const saved = savedPlanOf({
      manifests: paths.map((p) => resolve(p)),
      inputs,
      options: {
        prune: flags.prune,
        targets: flags.target,
        selectors: inputs.selection.selectors as Record<string, string>,
        resendSecrets: flags.resendSecrets,
      },
      run,
      env: process.env,
    });
    await writeFile(flags.out, `${JSON.stringify(saved, null, 2)}\n`);
  }

  const meta = { generatedAt: new Date().toISOString(), converge: VERSION };
  // where each value was set: for the report only, never in the saved plan (src/reconcile/sources.ts)
  const sourced = format === 'json' || flags.showSources === true;
  const rendered = await renderPlan(format, {
    plan: sourced ? withSources(run.plan, inputs.desired, inputs.providers) : run.plan,
    meta,
    colors,
    ...(inputs.policies.length > 0 && { policies }),
  });
  output.out(rendered.replace(/\n$/, ''));
  if (denied) {
    if (format === 'json') return EXIT_ERROR;
    throw denialError(policies);
  }
  if (flags.out) {
    // stdout of markdown and json is a document of its own: the hint goes beside it
    const say = format === 'text' ? output.out : output.err;
    say(`Saved the plan to ${flags.out}; apply it with: converge apply ${flags.out}`);
  }
  return flags.detailedExitcode && hasChanges(run.plan) ? EXIT_CHANGES : EXIT_OK;
}
