/**
 * `converge policy test DIR`: every policy of DIR against the cases of its
 * `<policy>.test.yaml`, offline. A case passes when the policy's outcome for
 * it (allow, deny or warn; allow when the policy does not match the object)
 * is the one expected.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { InputError, type InputProblem } from '../errors.ts';
import { loadManifestSet } from '../manifest/load.ts';
import { schemaSet } from '../manifest/schemas.ts';
import { catalog, providerMap } from '../providers/index.ts';
import { childAddress } from '../reconcile/address.ts';
import { parentLists } from '../reconcile/children.ts';
import type { ChildList, Provider } from '../reconcile/provider.ts';
import type { Address, Metadata } from '../reconcile/types.ts';
import { judge, type Outcome } from './evaluate.ts';
import { policyCompiler } from './hooks.ts';
import { policyMatches } from './match.ts';
import type { Policy } from './policy.ts';
import { parseTestFile, type TestCase, type TestFile } from './test-cases.ts';
import { addressMetadata, manifestView } from './view.ts';

export interface CaseResult {
  file: string;
  line: number;
  policy: string;
  name: string;
  expected: Outcome;
  actual: Outcome;
  passed: boolean;
  /** Why the rule could not be evaluated, when it could not. */
  error?: string;
}

export interface PolicyTestReport {
  results: CaseResult[];
  /** Policies of DIR that no test file covers. */
  untested: string[];
}

export async function runPolicyTests(dir: string, cwd = process.cwd()): Promise<PolicyTestReport> {
  const policies: Policy[] = [];
  await loadManifestSet([dir], catalog, { cwd, checkDocuments: policyCompiler(policies, providerMap) });
  const byName = new Map(policies.map((p) => [p.name, p]));
  const problems: InputProblem[] = [];
  const files: TestFile[] = [];
  const schemas = await schemaSet();
  for (const path of await testFiles(resolve(cwd, dir))) {
    const name = relative(cwd, path);
    const parsed = parseTestFile(name, await readFile(path, 'utf8'), providerMap, schemas);
    problems.push(...parsed.problems);
    if (!parsed.tests) continue;
    if (!byName.has(parsed.tests.policy)) {
      problems.push({ file: name, line: 1, col: 1, message: `no policy named "${parsed.tests.policy}" in ${dir}` });
      continue;
    }
    files.push(parsed.tests);
  }
  if (problems.length > 0) throw new InputError(problems);
  const results = files.flatMap((f) => f.cases.map((c) => runCase(byName.get(f.policy)!, c, f.file)));
  const tested = new Set(files.map((f) => f.policy));
  return { results, untested: policies.map((p) => p.name).filter((n) => !tested.has(n)) };
}

/** The parent of each child kind (a module's versions): an example of one is addressed by its parent's metadata. */
const PARENTS = parentLists(providerMap.values());

function runCase(policy: Policy, c: TestCase, file: string): CaseResult {
  const { kind } = c.object;
  const provider = providerMap.get(kind);
  const parent = PARENTS.get(kind);
  const { metadata } = c.object;
  const labels = metadata.labels as Record<string, string> | undefined;
  const address = addressOf(kind, provider, parent, metadata, c.object.spec);
  let actual: Outcome = 'allow';
  let error: string | undefined;
  // a delete is judged as plan judges it (match.ts, MatchTarget.removal)
  const removal = c.change?.action === 'delete';
  if (policyMatches(policy, { kind, scope: address?.scope, labels, removal })) {
    const object = manifestView(kind, metadata, c.object.spec, provider);
    // plan pairs a live object with the object of its address, and sees only that address of it
    const live = c.live
      ? { ...manifestView(kind, undefined, c.live.spec, provider), metadata: address ? addressMetadata(address) : {} }
      : null;
    const change = c.change && { action: c.change.action as never, paths: c.change.paths ?? [] };
    const judged = judge(policy, { object, live, ...(change && { change }) });
    actual = judged.outcome;
    error = judged.error;
  }
  return {
    file,
    line: c.line,
    policy: policy.name,
    name: c.name,
    expected: c.expect,
    actual,
    passed: actual === c.expect,
    ...(error !== undefined && { error }),
  };
}

/**
 * The example's address, as plan's for a declared object: from its metadata, or for a child from
 * its parent's address and its key (src/reconcile/children.ts). It gives the scope
 * `match.scopes` sees and `live.metadata`.
 */
function addressOf(
  kind: string,
  provider: Provider | undefined,
  parent: { parent: Provider; list: ChildList } | undefined,
  metadata: Record<string, unknown>,
  spec: Record<string, unknown> | undefined,
): Address | undefined {
  try {
    if (!parent) return provider?.address(metadata as Metadata);
    const key = spec?.[parent.list.key];
    return childAddress(parent.parent.address(metadata as Metadata), kind, String(key ?? ''));
  } catch {
    return undefined; // metadata too partial to name an object by: it is in no scope
  }
}

async function testFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && /\.test\.ya?ml$/i.test(e.name))
    .map((e) => join(e.parentPath, e.name))
    .sort();
}
