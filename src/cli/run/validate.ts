import { colorsFor } from '../../ui/colors.ts';
import { processOutput } from '../../ui/output.ts';
import type { CommonFlags } from '../flags.ts';
import { EXIT_OK } from '../run-main.ts';
import { loadInputs } from '../session.ts';

/** Offline: YAML, schemas, templates, duplicates. Sends nothing anywhere. */
export async function runValidate(
  paths: string[],
  flags: Pick<CommonFlags, 'config' | 'color' | 'json'>,
): Promise<number> {
  const output = processOutput();
  const inputs = await loadInputs(paths, { ...flags, target: [], selector: [], prune: false, resendSecrets: false });
  const byKind = new Map<string, number>();
  for (const d of inputs.desired) byKind.set(d.kind, (byKind.get(d.kind) ?? 0) + 1);
  if (flags.json) {
    output.out(JSON.stringify({ valid: true, objects: inputs.desired.length, kinds: Object.fromEntries(byKind) }));
    return EXIT_OK;
  }
  const colors = colorsFor(process.stdout, flags.color);
  const kinds = [...byKind].map(([k, n]) => `${n} ${k}`).join(', ');
  output.out(colors.green(`Valid: ${inputs.desired.length} object(s)${kinds ? ` (${kinds})` : ''}.`));
  return EXIT_OK;
}
