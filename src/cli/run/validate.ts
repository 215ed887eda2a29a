import { checkDeclared } from '../../policy/evaluate.ts';
import { policyJson, reportPolicies } from '../../policy/report.ts';
import { withoutTurbofan } from '../../policy/without-turbofan.ts';
import { colorsFor } from '../../ui/colors.ts';
import { processOutput } from '../../ui/output.ts';
import type { CommonFlags } from '../flags.ts';
import { EXIT_ERROR, EXIT_OK } from '../run-main.ts';
import { loadInputs } from '../session.ts';

/** Offline: YAML, schemas, templates, duplicates, and the policies over `object`. Sends nothing anywhere. */
export async function runValidate(
  paths: string[],
  flags: Pick<CommonFlags, 'config' | 'color' | 'json' | 'var' | 'varFile'>,
): Promise<number> {
  const output = processOutput();
  const inputs = await loadInputs(paths, { ...flags, target: [], selector: [], prune: false, resendSecrets: false });
  // the check is validate's last work: one line of output follows it
  const policies = withoutTurbofan(
    inputs.policies.length,
    () => checkDeclared(inputs.policies, inputs.desired, inputs.providers),
    { endsRun: true },
  );
  const byKind = new Map<string, number>();
  for (const d of inputs.desired) byKind.set(d.kind, (byKind.get(d.kind) ?? 0) + 1);
  if (flags.json) {
    const valid = policies.denied === 0;
    const counts = { objects: inputs.desired.length, kinds: Object.fromEntries(byKind) };
    output.out(JSON.stringify({ valid, ...counts, policies: policyJson(policies) }));
    return valid ? EXIT_OK : EXIT_ERROR;
  }
  const colors = colorsFor(process.stdout, flags.color);
  reportPolicies(output, colors, policies);
  const kinds = [...byKind].map(([k, n]) => `${n} ${k}`).join(', ');
  output.out(colors.green(`Valid: ${inputs.desired.length} object(s)${kinds ? ` (${kinds})` : ''}.`));
  return EXIT_OK;
}
