/**
 * Policies: what 20 policies add to `converge validate` of 10,000 mixed objects (2,000 in quick
 * mode), against the same manifests without them. Target: under 10 % (docs/policies.md,
 * "Cost"). Whole processes, alternating, so both see the same machine; the median of each, in
 * CPU time where /usr/bin/time tells it (a machine shared with other work stretches wall time by
 * several times, CPU time much less), else in wall time.
 * The 20 policies are a platform team's: a few over every kind, the rest one kind each, each
 * true for every object (validate must pass to be compared), so every rule runs to its end.
 */
import { cp, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { mixedSet } from '../kinds.ts';
import { writeManifests } from '../lib/manifests.ts';
import { MAIN, tempDir } from '../lib/paths.ts';
import { cliEnv, runProcess } from '../lib/process-run.ts';
import { atMost, type Checked, mark, median, round, type SuiteOptions } from '../lib/report.ts';

const POLICIES = 20;
const TARGET_PCT = 10;

export interface PolicyResult {
  objects: number;
  policies: number;
  runs: number;
  /** What was measured: `cpu` (user + system time of the process) or `wall`. */
  clock: 'cpu' | 'wall';
  withoutMs: number;
  withMs: number;
  /** (with - without) / without, in percent. */
  overheadPct: number;
  check: Checked;
}

/** Rules any object satisfies, in the shapes real ones take: names, labels, strings, sizes, macros. */
const RULES = [
  "object.kind.matches('^[A-Z][A-Za-z]+$')",
  '!has(object.metadata.labels) || object.metadata.labels.all(k, k.size() < 64)',
  '!has(object.metadata.name) || object.metadata.name.size() <= 256',
  'object.spec.all(k, k.size() < 100)',
  "!has(object.metadata.name) || !object.metadata.name.startsWith('tmp-')",
];

function policyDocument(index: number, kinds: readonly string[]): string {
  // every fourth policy is org-wide; the others cycle through the kinds the set holds
  const match = index % 4 === 0 ? ['"*"'] : [kinds[index % kinds.length]!];
  return [
    'kind: Policy',
    `metadata: {name: bench-${index}}`,
    'spec:',
    `  match: {kinds: [${match.join(', ')}]}`,
    `  rule: ${JSON.stringify(RULES[index % RULES.length])}`,
    `  message: rule ${index}`,
    `  enforcement: ${index % 2 === 0 ? 'deny' : 'warn'}`,
    '',
  ].join('\n');
}

export async function policies(options: SuiteOptions): Promise<PolicyResult> {
  const objects = options.quick ? 2000 : 10_000;
  const rounds = options.quick ? 3 : 7;
  const dir = await tempDir('policies');
  const { docs, files, parts } = mixedSet(objects);
  const without = await writeManifests(join(dir, 'without'), docs, files);
  const withPolicies = join(dir, 'with');
  await cp(without, withPolicies, { recursive: true });
  const kinds = parts.map((p) => p.kind.kind);
  const text = Array.from({ length: POLICIES }, (_, i) => policyDocument(i, kinds)).join('---\n');
  await writeFile(join(withPolicies, 'policies.yaml'), text);

  const time = async (manifests: string): Promise<number> => {
    const run = await runProcess({ script: MAIN, args: ['validate', manifests], env: cliEnv({}), cwd: dir });
    if (run.code !== 0) throw new Error(`validate ${manifests} exited ${run.code}: ${run.stderr.slice(0, 2000)}`);
    if (run.cpuMs === null) clock = 'wall';
    return run.cpuMs ?? run.ms;
  };
  let clock: PolicyResult['clock'] = 'cpu';
  // one unmeasured run each: the file cache and Node's compile cache
  await time(without);
  await time(withPolicies);
  const a: number[] = [];
  const b: number[] = [];
  for (let round = 0; round < rounds; round++) {
    a.push(await time(without));
    b.push(await time(withPolicies));
  }
  const withoutMs = median(a);
  const withMs = median(b);
  const overheadPct = round(((withMs - withoutMs) / withoutMs) * 100);
  const check = atMost(overheadPct, TARGET_PCT, ' %');
  options.log(
    `policies: validate of ${objects} objects ${round(withoutMs)} ms (${clock}), with ${POLICIES} policies ${round(withMs)} ms: ` +
      `+${overheadPct} % (${mark(check)} ${check.target})`,
  );
  return {
    objects,
    policies: POLICIES,
    runs: rounds,
    clock,
    withoutMs: round(withoutMs),
    withMs: round(withMs),
    overheadPct,
    check,
  };
}
