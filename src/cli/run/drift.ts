/**
 * `converge drift`: the plan, read as a report of how live state differs from
 * the manifests. Sends no change; exits 2 when anything differs.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { API_NAMES } from '../../api/profiles.ts';
import { redact } from '../../api/redact.ts';
import { ConvergeError } from '../../errors.ts';
import { checkPlan } from '../../policy/evaluate.ts';
import { withoutTurbofan } from '../../policy/without-turbofan.ts';
import { EventStream } from '../../reconcile/events.ts';
import { withSources } from '../../reconcile/sources.ts';
import { colorsFor } from '../../ui/colors.ts';
import { buildDriftReport, type DriftFormat, displayUrl, renderDrift, summarize } from '../../ui/drift/index.ts';
import { processOutput } from '../../ui/output.ts';
import { plainReporter } from '../../ui/plain-reporter.ts';
import { closeClients } from '../clients.ts';
import type { CommonFlags } from '../flags.ts';
import { EXIT_CHANGES, EXIT_ERROR, EXIT_OK } from '../run-main.ts';
import { loadInputs, providerMap } from '../session.ts';
import { VERSION } from '../version.ts';
import { checkWritable } from '../writable.ts';
import { makePlan } from './make-plan.ts';

export interface DriftFlags extends CommonFlags {
  format: DriftFormat;
  output?: string;
  failOnUnmanaged: boolean;
}

export async function runDrift(paths: string[], flags: DriftFlags): Promise<number> {
  if (flags.resendSecrets) {
    throw new ConvergeError('INPUT_INVALID', '--resend-secrets does not apply to drift: drift sends nothing');
  }
  const format: DriftFormat = flags.json ? 'json' : flags.format;
  const output = processOutput();
  const inputs = await loadInputs(paths, flags);
  if (flags.output) checkWritable(flags.output, '--output');
  const events = new EventStream();
  events.on(plainReporter(output, colorsFor(process.stderr, flags.color)));
  const { run, clients } = await makePlan(inputs, flags, events, new AbortController().signal);
  await closeClients(clients);

  const apis = new Set([...run.desiredByKey.values()].map((d) => providerMap.get(d.kind)?.api));
  const servers: Record<string, string> = {};
  for (const api of API_NAMES) {
    const url = inputs.config[api]?.url;
    if (url && apis.has(api)) servers[api] = displayUrl(url);
  }
  // where each declared value was set (the JSON report carries it; src/reconcile/sources.ts)
  const report = buildDriftReport(withSources(run.plan, inputs.desired, inputs.providers), {
    generatedAt: new Date().toISOString(),
    converge: VERSION,
    servers,
    unmanagedIsDrift: flags.failOnUnmanaged,
    ...(inputs.policies.length > 0 && {
      // only a JUnit report shows the passes (a case per policy and object); the others show violations
      policies: withoutTurbofan(inputs.policies.length, () =>
        checkPlan(inputs.policies, run.plan, run, inputs.providers, { passes: format === 'junit' }),
      ),
    }),
  });
  // colour only for text on a terminal; a file never gets escape codes
  const colors = colorsFor(process.stdout, flags.color && !flags.output && format === 'text');
  const text = renderDrift(format, report, colors);

  if (flags.output) {
    const file = resolve(flags.output);
    await mkdir(dirname(file), { recursive: true });
    // the report holds no secret values (only markers); redaction is the second line of defence
    await writeFile(file, redact(text));
    output.out(`${summarize(report)} Report (${format}) written to ${flags.output}.`);
  } else {
    output.out(text.replace(/\n$/, ''));
    if (format !== 'text') output.err(summarize(report));
  }
  // a denial is an error, drift or not: the report says which policy and object
  if ((report.policies?.denied ?? 0) > 0) return EXIT_ERROR;
  return report.inSync ? EXIT_OK : EXIT_CHANGES;
}
