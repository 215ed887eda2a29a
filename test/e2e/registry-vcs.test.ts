/**
 * A module published from VCS through the CLI as a process: the field rules
 * of its nested `vcs-repo` (docs/kinds.md, RegistryModule) hold at their
 * depth. The connection (`vcs-repo.oauth-token-id`) is sent on create only,
 * so a plan straight after the apply is empty; the repository
 * (`vcs-repo.identifier`) cannot change in place, so a new one is a
 * replacement that needs `--allow-replace`.
 */
import { cp, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { gitRepository } from '../emulator/registry-git.ts';
import { FIXTURES } from '../emulator/registry-ingest/tarballs.ts';
import { type CliTarget, cliTarget, NO_FINGERPRINTS } from '../helpers/cli-target.ts';

const MODULE = '/api/v2/organizations/example-org/registry-modules/private/example-org/network/aws';
const VARIABLES = '/api/v2/organizations/example-org/tests/registry-modules/private/example-org/network/aws/vars';

let target: CliTarget;
let repo: ReturnType<typeof gitRepository>;
beforeEach(async () => {
  repo = gitRepository();
  // semver tags: a tag-based module's versions
  repo.git('tag', 'v1.0.0');
  repo.git('tag', '1.1.0');
  // two repositories of the same module name: the second is where the module moves
  const repositories = { 'acme/terraform-aws-network': repo.path, 'other/terraform-aws-network': repo.path };
  // the connection is a field sent on create, not a write-only one: the store would hold nothing here
  target = await cliTarget('registry-vcs', NO_FINGERPRINTS, { seed: { registry: { repositories } } });
});
afterEach(() => target?.close());

async function write(identifier: string, more = ''): Promise<string> {
  const file = join(target.scratch, 'module.yaml');
  await writeFile(
    file,
    [
      'kind: RegistryModule',
      'metadata: {organization: example-org, name: network, provider: aws}',
      'spec:',
      `  vcs-repo: {identifier: ${identifier}, oauth-token-id: ot-abc, branch: main}`,
      more,
    ].join('\n'),
  );
  return file;
}

/** The module's test variables, by name, as the API lists them. */
async function liveVariables(): Promise<string[]> {
  const response = await fetch(`${target.emulator.url}${VARIABLES}`, {
    headers: { authorization: `Bearer ${target.emulator.tokens.admin}` },
  });
  const body = (await response.json()) as { data: Array<{ attributes: { key: string } }> };
  return body.data.map((v) => v.attributes.key).sort();
}

async function liveRepository(): Promise<Record<string, unknown>> {
  const response = await fetch(`${target.emulator.url}${MODULE}`, {
    headers: { authorization: `Bearer ${target.emulator.tokens.admin}` },
  });
  return (await response.json()).data.attributes['vcs-repo'];
}

describe('a RegistryModule published from VCS', () => {
  it('plans nothing after its apply: the connection is sent on create only', async () => {
    const file = await write('acme/terraform-aws-network');
    const applied = await target.run(['apply', file, '--auto-approve', '--no-progress']);
    expect(applied.code, applied.stderr).toBe(0);
    expect(await liveRepository()).toMatchObject({ identifier: 'acme/terraform-aws-network', branch: 'main' });

    const plan = await target.run(['plan', file, '--detailed-exitcode']);
    expect(plan.stdout).not.toContain('oauth-token-id');
    expect(plan.code, plan.stdout).toBe(0);
    // drift compares the same way: nothing differs
    const drift = await target.run(['drift', file]);
    expect(drift.code, drift.stdout).toBe(0);
  });

  it('replaces the module for a new repository, only with --allow-replace', async () => {
    expect((await target.run(['apply', await write('acme/terraform-aws-network'), '--auto-approve'])).code).toBe(0);
    const file = await write('other/terraform-aws-network');

    const plan = await target.run(['plan', file, '--detailed-exitcode']);
    expect(plan.code, plan.stdout).toBe(2);
    expect(plan.stdout).toContain('-/+ replace RegistryModule/example-org/');
    expect(plan.stdout).toContain(
      'vcs-repo.identifier: "acme/terraform-aws-network" -> "other/terraform-aws-network" (forces replacement)',
    );
    expect(plan.stdout).toContain('destructive: a module is replaced by deleting it');

    const refused = await target.run(['apply', file, '--auto-approve']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('--allow-replace RegistryModule');
    expect(await liveRepository()).toMatchObject({ identifier: 'acme/terraform-aws-network' });

    const applied = await target.run(['apply', file, '--auto-approve', '--allow-replace', 'RegistryModule']);
    expect(applied.code, applied.stderr).toBe(0);
    expect(await liveRepository()).toMatchObject({ identifier: 'other/terraform-aws-network', branch: 'main' });
    expect((await target.run(['plan', file, '--detailed-exitcode'])).code).toBe(0);
  });

  it('makes its declared test variables again after a replacement, which deletes them with the module', async () => {
    const variable = (name: string) =>
      `---\nkind: ModuleTestVariable\nmetadata: {organization: example-org, module: network/aws, name: ${name}}\nspec: {value: plain}\n`;
    const both = `${variable('TF_VAR_a')}${variable('TF_VAR_b')}`;
    expect((await target.run(['apply', await write('acme/terraform-aws-network', both), '--auto-approve'])).code).toBe(
      0,
    );
    expect(await liveVariables()).toEqual(['TF_VAR_a', 'TF_VAR_b']);
    const file = await write('other/terraform-aws-network', both);

    // a target that leaves one out would lose it: refused, before anything is sent
    const targeted = await target.run([
      'plan',
      file,
      '-t',
      'RegistryModule/example-org/network/aws',
      '-t',
      'ModuleTestVariable/example-org/network/aws/TF_VAR_a',
    ]);
    expect(targeted.code).toBe(1);
    expect(targeted.stderr).toContain(
      'ModuleTestVariable/example-org/network/aws/TF_VAR_b: replacing RegistryModule/example-org/network/aws deletes it with it',
    );

    const plan = await target.run(['plan', file]);
    expect(plan.stdout).toContain('+ create ModuleTestVariable/example-org/network/aws/TF_VAR_a');
    expect(plan.stdout).toContain('created again: replacing RegistryModule/example-org/network/aws deletes it with it');
    const applied = await target.run(['apply', file, '--auto-approve', '--allow-replace', 'RegistryModule']);
    expect(applied.code, applied.stderr).toBe(0);
    expect(await liveVariables()).toEqual(['TF_VAR_a', 'TF_VAR_b']);
    expect((await target.run(['plan', file, '--detailed-exitcode'])).code).toBe(0);
  });
});

describe("a VCS module's versions", () => {
  it("are its repository's: never declared, listed as unmanaged nor pruned, tag-based or branch-based", async () => {
    await cp(join(FIXTURES, 'network'), join(target.scratch, 'storage'), { recursive: true });
    const file = join(target.scratch, 'modules.yaml');
    const modules = (branch: string, versions = '') =>
      [
        'kind: RegistryModule',
        'metadata: {organization: example-org, name: network, provider: aws}',
        'spec:',
        `  vcs-repo: {identifier: acme/terraform-aws-network, oauth-token-id: ot-abc${branch}}`,
        versions,
        '---',
        // a module that declares a version, so that versions are read and planned
        'kind: RegistryModule',
        'metadata: {organization: example-org, name: storage, provider: aws}',
        'spec: {versions: [{version: 1.0.0, source: storage}]}',
        '',
      ].join('\n');
    await writeFile(file, modules(''));
    await writeFile(
      join(target.scratch, 'converge.config.yaml'),
      'ownership:\n  - {kind: RegistryModule, scope: example-org}\n  - {kind: RegistryModuleVersion, scope: example-org}\n',
    );
    const applied = await target.run(['apply', file, '--prune', '--auto-approve', '--no-progress']);
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    const vcsVersions = async () => {
      const response = await fetch(`${target.emulator.url}${MODULE}`, {
        headers: { authorization: `Bearer ${target.emulator.tokens.admin}` },
      });
      const statuses = (await response.json()).data.attributes['version-statuses'] as Array<{ version: string }>;
      return statuses.map((s) => s.version).sort();
    };
    expect(await vcsVersions()).toEqual(['1.0.0', '1.1.0']);
    // pruned again, and planned: nothing of the repository's versions
    target.emulator.resetStats();
    const again = await target.run(['apply', file, '--prune', '--auto-approve', '--no-progress']);
    expect(again.code, again.stdout + again.stderr).toBe(0);
    expect(again.stdout).not.toContain('RegistryModuleVersion/example-org/network/');
    expect(Object.keys(target.emulator.stats().byRoute).filter((r) => r.startsWith('DELETE'))).toEqual([]);
    expect(await vcsVersions()).toEqual(['1.0.0', '1.1.0']);

    // a declared version is refused, whichever way the module publishes, before any request
    const publishing: Array<[branch: string, from: string]> = [
      ['', 'its tags'],
      [', branch: main', 'commits of its branch'],
    ];
    for (const [branch, from] of publishing) {
      await writeFile(file, modules(branch, '  versions: [{version: 2.0.0, source: storage}]'));
      target.emulator.resetStats();
      const refused = await target.run(['plan', file]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(
        `modules.yaml:5:13: a VCS module publishes its versions from its repository (${from}), not from a source or an archive: declare no versions`,
      );
      expect(target.emulator.stats().total).toBe(0);
    }
  });
});
