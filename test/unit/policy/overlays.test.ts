/**
 * Policies overlaid per environment (docs/environments.md, "Overlays"; docs/policies.md): a later
 * path argument patches a policy by `metadata.name` or drops it with `ensure: absent`, through the
 * same overlay pass as an API object, with the same refusals, and the merged policy is checked
 * against its schema and compiled again, each problem in the file that set the value.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatProblem, InputError } from '../../../src/errors.ts';
import { loadManifestSet } from '../../../src/manifest/load.ts';
import { policyCompiler } from '../../../src/policy/hooks.ts';
import type { Policy } from '../../../src/policy/policy.ts';
import { catalog, providerMap } from '../../../src/providers/index.ts';
import { tempDir } from '../../helpers/temp-dir.ts';

async function load(files: Record<string, string>, paths: string[]) {
  const cwd = await tempDir('policy-overlays');
  for (const [name, text] of Object.entries(files)) {
    await mkdir(dirname(join(cwd, name)), { recursive: true });
    await writeFile(join(cwd, name), text);
  }
  const policies: Policy[] = [];
  try {
    const set = await loadManifestSet(paths, catalog, {
      cwd,
      checkDocuments: policyCompiler(policies, providerMap),
    });
    return { ...set, policies, problems: [] as string[] };
  } catch (error) {
    if (error instanceof InputError)
      return { documents: [], policies: [], problems: error.problems.map(formatProblem) };
    throw error;
  }
}

const BASE = `kind: Policy
metadata: {name: https-only, labels: {team: platform}}
spec:
  match: {kinds: [ToolVersion]}
  rule: object.spec.url.startsWith('https://')
  message: https only
  enforcement: warn
---
kind: Policy
metadata: {name: ttl-cap}
spec:
  match: {kinds: [SSHRole]}
  rule: "!has(object.spec.max_ttl) || object.spec.max_ttl <= 86400"
  message: a day at most
`;

const TIGHTEN = `kind: Policy
metadata: {name: https-only}
patch: true
spec:
  enforcement: deny
  match: {scopes: [tools-*]}
`;

const summary = (policies: readonly Policy[]) =>
  policies.map((p) => ({ name: p.name, enforcement: p.enforcement, match: p.match, rule: p.ruleText }));

describe('a policy patched by a later path argument', () => {
  it('changes only the fields it names: maps merge, the rest is the base', async () => {
    const loaded = await load({ 'base/p.yaml': BASE, 'prod/p.yaml': TIGHTEN }, ['base', 'prod']);
    expect(loaded.problems).toEqual([]);
    expect(summary(loaded.policies)).toEqual([
      {
        name: 'https-only',
        enforcement: 'deny',
        match: { kinds: ['ToolVersion'], scopes: ['tools-*'] },
        rule: "object.spec.url.startsWith('https://')",
      },
      { name: 'ttl-cap', enforcement: 'deny', match: { kinds: ['SSHRole'] }, rule: expect.any(String) },
    ]);
  });

  const enforcements = async (prod: string, paths: string[]) =>
    (await load({ 'base/p.yaml': BASE, 'prod/p.yaml': prod }, paths)).policies.map((p) => [p.name, p.enforcement]);

  it('leaves the base as it is without the environment', async () => {
    expect(await enforcements(TIGHTEN, ['base'])).toEqual([
      ['https-only', 'warn'],
      ['ttl-cap', 'deny'],
    ]);
  });

  it('keeps its schema default when a patch removes a defaulted field', async () => {
    const removed = 'kind: Policy\nmetadata: {name: https-only}\npatch: true\nspec: {enforcement: null}\n';
    expect(await enforcements(removed, ['base', 'prod'])).toEqual([
      ['https-only', 'deny'],
      ['ttl-cap', 'deny'],
    ]);
  });

  it('compiles the rule it sets, a CEL error at the patch file:line:col', async () => {
    const loaded = await load(
      {
        'base/p.yaml': BASE,
        'prod/p.yaml':
          'kind: Policy\nmetadata: {name: ttl-cap}\npatch: true\nspec:\n  rule: object.spec.max_ttl.beginsWith(1)\n',
      },
      ['base', 'prod'],
    );
    expect(loaded.problems).toEqual([
      expect.stringMatching(
        /^prod\/p\.yaml:5:9: policy ttl-cap: found no matching overload for 'dyn\.beginsWith\(int\)'/,
      ),
    ]);
  });

  it('is checked against the schema once merged, each problem where the file set it', async () => {
    const loaded = await load(
      {
        'base/p.yaml': BASE,
        'prod/p.yaml':
          'kind: Policy\nmetadata: {name: https-only}\npatch: true\nspec:\n  enforcement: block\n  enforcment: deny\n',
      },
      ['base', 'prod'],
    );
    expect(loaded.problems).toEqual([
      'prod/p.yaml:5:16: spec.enforcement must be one of "deny", "warn" (got string "block")',
      expect.stringMatching(/^prod\/p\.yaml:6:3: .*enforcment/),
    ]);
  });
});

describe('a policy removed by a later path argument', () => {
  it('is gone with ensure: absent (plain, or in a patch), the others stay', async () => {
    for (const drop of [
      'kind: Policy\nmetadata: {name: https-only}\nensure: absent\n',
      'kind: Policy\nmetadata: {name: https-only}\npatch: true\nensure: absent\n',
    ]) {
      const loaded = await load({ 'base/p.yaml': BASE, 'staging/p.yaml': drop }, ['base', 'staging']);
      expect(loaded.problems).toEqual([]);
      expect(loaded.policies.map((p) => p.name)).toEqual(['ttl-cap']);
      expect(loaded.documents.map((d) => d.name)).toEqual(['ttl-cap']);
    }
  });
});

interface BadOverlay {
  what: string;
  given: Record<string, string>;
  paths: string[];
  expected: unknown;
}

describe('a bad policy overlay, refused as an API object overlay is', () => {
  it.each<BadOverlay>([
    {
      what: 'a patch of a policy no document declares, with the name it may mean',
      given: { 'prod/p.yaml': TIGHTEN.replace('https-only', 'https-onyl') },
      paths: ['base', 'prod'],
      expected:
        'prod/p.yaml:1:1: patch of Policy "https-onyl", which no document declares; did you mean Policy "https-only", declared at base/p.yaml:1:1?',
    },
    {
      what: 'an absent of a policy no document declares',
      given: { 'staging/p.yaml': 'kind: Policy\nmetadata: {name: nothing}\nensure: absent\n' },
      paths: ['base', 'staging'],
      expected: expect.stringMatching(/^staging\/p\.yaml:1:1: patch of Policy "nothing", which no document declares/),
    },
    {
      what: 'two patches of one policy in one path argument',
      given: { 'prod/a.yaml': TIGHTEN, 'prod/b.yaml': TIGHTEN },
      paths: ['base', 'prod'],
      expected:
        'prod/b.yaml:1:1: Policy "https-only" is overlaid twice in "prod" (also at prod/a.yaml:1:1): merge the two into one document',
    },
    {
      what: 'a patch before the path argument that declares the policy',
      given: { 'prod/p.yaml': TIGHTEN },
      paths: ['prod', 'base'],
      expected: expect.stringMatching(
        /^prod\/p\.yaml:1:1: patch of Policy "https-only" in "prod", before the path argument that declares it \(base\/p\.yaml:1:1\)/,
      ),
    },
    {
      what: 'a second declaration of one name',
      given: { 'base/q.yaml': BASE.split('---\n')[1] as string },
      paths: ['base'],
      expected: 'base/q.yaml:1:1: duplicate Policy "ttl-cap" (also declared at base/p.yaml:9:1)',
    },
    {
      what: "a patch's spec that is not a mapping",
      given: { 'prod/p.yaml': 'kind: Policy\nmetadata: {name: https-only}\npatch: true\nspec: deny\n' },
      paths: ['base', 'prod'],
      expected: expect.stringMatching(/^prod\/p\.yaml:4:7: /),
    },
  ])('$what', async ({ given, paths, expected }) => {
    const loaded = await load({ 'base/p.yaml': BASE, ...given }, paths);
    expect(loaded.problems).toEqual([expected]);
  });

  it('a patch of a policy whose declaration has problems of its own: only those', async () => {
    const loaded = await load(
      { 'base/p.yaml': BASE.replace('enforcement: warn', 'enforcement: block'), 'prod/p.yaml': TIGHTEN },
      ['base', 'prod'],
    );
    expect(loaded.problems).toEqual([
      'base/p.yaml:7:16: spec.enforcement must be one of "deny", "warn" (got string "block")',
    ]);
  });

  it('a Variable is still never a patch', async () => {
    const loaded = await load(
      { 'v.yaml': 'kind: Variable\nmetadata: {name: region}\npatch: true\nspec: {type: string}\n' },
      ['.'],
    );
    expect(loaded.problems).toEqual([expect.stringMatching(/^v\.yaml:3:1: a Variable cannot be a patch/)]);
  });
});
