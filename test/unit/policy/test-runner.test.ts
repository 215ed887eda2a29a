/**
 * `converge policy test` gives a rule what plan gives it (src/policy/test-runner.ts): `live` is
 * the object's own address, `name` and `scope`, as src/policy/view.ts `liveView` makes it, so a
 * rule that passes its tests is the rule plan enforces.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runPolicyTests } from '../../../src/policy/test-runner.ts';
import { tempDir } from '../../helpers/temp-dir.ts';

/** The outcome of each case of a deny policy over `kinds` with `rule`. */
async function outcomes(kinds: string, rule: string, cases: string): Promise<string[]> {
  const dir = await tempDir('policy-test-runner');
  await writeFile(
    join(dir, 'p.yaml'),
    `kind: Policy\nmetadata: {name: p}\nspec:\n  match: {kinds: [${kinds}]}\n  rule: ${JSON.stringify(rule)}\n  message: no\n`,
  );
  await writeFile(join(dir, 'p.test.yaml'), `cases:\n${cases}`);
  const report = await runPolicyTests('.', dir);
  return report.results.map((r) => (r.error ? `${r.actual}: ${r.error}` : r.actual));
}

describe('policy test: live as plan sees it', () => {
  it('has no labels, whatever the object has: plan reads live state, which holds none', async () => {
    const found = await outcomes(
      'ToolVersion',
      'live == null || !has(live.metadata.labels)',
      '  - object: {kind: ToolVersion, metadata: {name: 1.0.0, labels: {team: a}}, spec: {}}\n' +
        '    live: {spec: {}}\n    expect: allow\n',
    );
    expect(found).toEqual(['allow']);
  });

  it("is named by the object's address, its scope the mount the schema defaults", async () => {
    const found = await outcomes(
      'SSHRole',
      "live.metadata == {'name': 'r', 'scope': 'ssh'}",
      '  - object: {kind: SSHRole, metadata: {name: r}, spec: {key_type: otp}}\n' +
        '    live: {spec: {key_type: otp}}\n    expect: allow\n',
    );
    expect(found).toEqual(['allow']);
  });

  it("of a module's version: its module's address and its version, the module's metadata defaults on the object", async () => {
    const found = await outcomes(
      'RegistryModuleVersion',
      "live.metadata == {'name': 'network/aws/1.0.0', 'scope': 'example-org'} && object.metadata.registry == 'private'",
      '  - object: {kind: RegistryModuleVersion, metadata: {organization: example-org, name: network, provider: aws}, spec: {version: 1.0.0}}\n' +
        '    live: {spec: {version: 1.0.0}}\n    change: {action: delete}\n    expect: allow\n',
    );
    expect(found).toEqual(['allow']);
  });
});
