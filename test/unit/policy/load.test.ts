/** Policy documents in the manifest loader: manifest-only, checked by their schema, compiled with the load. */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatProblem, InputError } from '../../../src/errors.ts';
import { loadManifestSet } from '../../../src/manifest/load.ts';
import { policyCompiler } from '../../../src/policy/hooks.ts';
import type { Policy } from '../../../src/policy/policy.ts';
import { catalog, providerMap } from '../../../src/providers/index.ts';
import { tempDir } from '../../helpers/temp-dir.ts';

async function load(files: Record<string, string>) {
  const cwd = await tempDir('policy-load');
  for (const [name, text] of Object.entries(files)) await writeFile(join(cwd, name), text);
  const policies: Policy[] = [];
  try {
    const set = await loadManifestSet(['.'], catalog, {
      cwd,
      checkDocuments: policyCompiler(policies, providerMap),
    });
    return { ...set, policies, problems: [] as string[] };
  } catch (error) {
    if (error instanceof InputError)
      return { objects: [], documents: [], policies, problems: error.problems.map(formatProblem) };
    throw error;
  }
}

const POLICY = `kind: Policy
metadata: {name: p}
spec:
  match: {kinds: [ToolVersion]}
  rule: object.spec.url.startsWith('https://')
  message: https only
`;

describe('Policy documents', () => {
  it('are not API objects: they load beside them, with the schema default enforcement (deny)', async () => {
    const loaded = await load({
      'p.yaml': POLICY,
      't.yaml':
        'kind: ToolVersion\nmetadata: {name: 1.0.0}\nspec: {url: "https://x.test/t.zip", sha: "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"}\n',
    });
    expect(loaded.problems).toEqual([]);
    expect(loaded.objects.map((o) => o.kind)).toEqual(['ToolVersion']);
    expect(loaded.documents.map((d) => [d.kind, d.name])).toEqual([['Policy', 'p']]);
    expect(loaded.policies.map((p) => [p.name, p.enforcement, p.phase])).toEqual([['p', 'deny', 'validate']]);
  });

  it('report schema problems and rule problems together with the other documents, at their places', async () => {
    const loaded = await load({
      'p.yaml': `${POLICY.replace("rule: object.spec.url.startsWith('https://')", 'rule: object.spec.url.startsWith(')}  enforcement: block\n`,
      'q.yaml': POLICY.replace('name: p', 'name: q').replace('startsWith', 'beginsWith'),
      't.yaml': 'kind: ToolVersion\nmetadata: {name: 1.0.0}\nspec: {url: 7}\n',
    });
    expect(loaded.problems).toEqual([
      'p.yaml:7:16: spec.enforcement must be one of "deny", "warn" (got string "block")',
      "q.yaml:5:9: policy q: found no matching overload for 'dyn.beginsWith(string)'",
      expect.stringMatching(/^t\.yaml:3:/),
      expect.stringMatching(/^t\.yaml:3:/),
    ]);
  });
});
