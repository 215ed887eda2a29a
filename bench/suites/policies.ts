/**
 * Policies: what 20 policies add to `converge validate` of 10,000 mixed objects (2,000 in quick
 * mode, 200 in a smoke run, which times the sources only), against the same manifests without them. Target: under 10 % (docs/policies.md,
 * "Cost"), judged on the build, the `converge` an installed package runs (`npm install` builds
 * it); the sources, as `npm run converge` runs them, are measured beside it: there each module
 * is also type-stripped and the CEL library loads as its 14 files, costs no user's run has.
 * Whole processes, alternating (the order reversed every other round), so all see the same
 * machine, in CPU time where /usr/bin/time tells it (a machine shared with other work stretches
 * wall time by several times, CPU time much less), else in wall time. A round runs each CLI
 * without and then with the policies back to back; the overhead is the median of the rounds'
 * own ratios, so a burst of other work that slows a few runs slows both sides of their ratio.
 * Without a current build (missing, or older than a source file) the target is judged on the
 * sources, and the result says why.
 * The 20 policies are a platform team's: a few over every kind, the rest one kind each, each
 * true for every object (validate must pass to be compared), so every rule runs to its end.
 */
import { cp, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { mixedSet } from '../kinds.ts';
import { writeManifests } from '../lib/manifests.ts';
import { BUILT_MAIN, MAIN, staleBuildSource, tempDir, unbuiltNote } from '../lib/paths.ts';
import { cliEnv, runProcess } from '../lib/process-run.ts';
import { atMost, bySize, type Checked, mark, median, round, type SuiteOptions, signed } from '../lib/report.ts';

const POLICIES = 20;
const TARGET_PCT = 10;

/** One CLI's figures: the medians without and with the policies, and what the policies add. */
export interface PolicyFigures {
  withoutMs: number;
  withMs: number;
  /** The median over the rounds of (with - without) / without, in percent. */
  overheadPct: number;
}

export interface PolicyResult extends PolicyFigures {
  objects: number;
  policies: number;
  runs: number;
  /** What was measured: `cpu` (user + system time of the process) or `wall`. */
  clock: 'cpu' | 'wall';
  /** Which CLI the target (and the figures above) are of: the build when it is current. */
  judged: 'build' | 'source';
  source: PolicyFigures;
  build?: PolicyFigures;
  /** Why the build was not measured. */
  buildNote?: string;
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
  const objects = bySize(options, 10_000, 2000, 200);
  const rounds = bySize(options, 9, 3, 1);
  const dir = await tempDir('policies');
  const { docs, files, parts } = mixedSet(objects);
  const without = await writeManifests(join(dir, 'without'), docs, files);
  const withPolicies = join(dir, 'with');
  await cp(without, withPolicies, { recursive: true });
  const kinds = parts.map((p) => p.kind.kind);
  const text = Array.from({ length: POLICIES }, (_, i) => policyDocument(i, kinds)).join('---\n');
  await writeFile(join(withPolicies, 'policies.yaml'), text);

  // a build older than the sources is not timed either: its figures would be of other code
  const stale = (): string | undefined => {
    const file = staleBuildSource();
    return file && `${file} is newer than dist/: run \`npm run build\` to measure the build`;
  };
  const buildNote = unbuiltNote(options.smoke) ?? stale();
  const mains: Array<{ from: 'source' | 'build'; main: string }> = [
    { from: 'source', main: MAIN },
    ...(buildNote ? [] : [{ from: 'build' as const, main: BUILT_MAIN }]),
  ];
  const time = async (main: string, manifests: string): Promise<number> => {
    const run = await runProcess({ script: main, args: ['validate', manifests], env: cliEnv({}), cwd: dir });
    if (run.code !== 0) throw new Error(`validate ${manifests} exited ${run.code}: ${run.stderr.slice(0, 2000)}`);
    if (run.cpuMs === null) clock = 'wall';
    return run.cpuMs ?? run.ms;
  };
  let clock: PolicyResult['clock'] = 'cpu';
  const runs = mains.flatMap(({ from, main }) =>
    [without, withPolicies].map((manifests) => ({ from, main, manifests, times: [] as number[] })),
  );
  // one unmeasured run each: the file cache and Node's compile cache
  for (const run of runs) await time(run.main, run.manifests);
  for (let r = 0; r < rounds; r++) {
    for (const run of r % 2 === 0 ? runs : [...runs].reverse()) run.times.push(await time(run.main, run.manifests));
  }
  const figures = (from: 'source' | 'build'): PolicyFigures | undefined => {
    const [a, b] = runs.filter((run) => run.from === from);
    if (!a || !b) return undefined;
    // each round's two runs of one CLI are adjacent: their ratio is what the policies add under
    // that moment's load, and the median of those ratios what they add (docs/performance.md)
    const ratios = a.times.map((t, i) => (b.times[i] as number) / t);
    return {
      withoutMs: round(median(a.times)),
      withMs: round(median(b.times)),
      overheadPct: round((median(ratios) - 1) * 100),
    };
  };
  const source = figures('source') as PolicyFigures;
  const build = figures('build');
  const judged = build ? 'build' : 'source';
  const chosen = build ?? source;
  const check = atMost(chosen.overheadPct, TARGET_PCT, ' %');
  const line = (from: string, f: PolicyFigures) =>
    `${from}: ${f.withoutMs} ms (${clock}) without, ${f.withMs} ms with ${POLICIES} policies, ${signed(f.overheadPct)} %`;
  options.log(
    `policies: validate of ${objects} objects; ${line(judged, chosen)} (${mark(check)} ${check.target}); ` +
      (build ? line('source', source) : (buildNote as string)),
  );
  return {
    objects,
    policies: POLICIES,
    runs: rounds,
    clock,
    judged,
    ...chosen,
    source,
    ...(build && { build }),
    ...(buildNote && { buildNote }),
    check,
  };
}
