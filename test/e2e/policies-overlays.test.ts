/**
 * Policies overlaid per environment, through the CLI as a process against the emulator
 * (docs/environments.md, "Overlays"; docs/policies.md): the base warns, the production overlay
 * turns the warning into a denial (plan and apply exit 1, nothing written), staging's
 * `ensure: absent` drops the policy, and a bad policy patch is refused at its file:line:col
 * before any request.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliTarget, cliTarget, NO_FINGERPRINTS } from '../helpers/cli-target.ts';

let target: CliTarget;

const BASE = `kind: ToolVersion
metadata: {name: 1.0.1}
spec: {url: "https://elsewhere.test/t.zip", sha: "${'a'.repeat(64)}"}
---
kind: Policy
metadata: {name: release-host}
spec:
  match: {kinds: [ToolVersion]}
  rule: object.spec.url.startsWith('https://releases.example.com/')
  message: tool versions come from the release host only
  enforcement: warn
`;

const PRODUCTION = `# production enforces what the base only warns about
kind: Policy
metadata: {name: release-host}
patch: true
spec:
  enforcement: deny
`;

const STAGING = `# staging downloads from anywhere
kind: Policy
metadata: {name: release-host}
ensure: absent
`;

async function write(name: string, text: string): Promise<void> {
  const path = join(target.scratch, name);
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, text);
}

const writes = () => Object.keys(target.emulator.stats().byRoute).filter((route) => !route.startsWith('GET '));

beforeAll(async () => {
  // no object here has a write-only field
  target = await cliTarget('policies-overlays', NO_FINGERPRINTS);
  await write('base/main.yaml', BASE);
  await write('production/policy.yaml', PRODUCTION);
  await write('staging/policy.yaml', STAGING);
});
afterAll(() => target?.close());

describe('a policy overlaid per environment', () => {
  it('warns over the base alone, and the plan goes on', async () => {
    const result = await target.run(['plan', 'base', '--no-color']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('warning from policy release-host: ToolVersion/1.0.1 (base/main.yaml:1:1)');
    expect(result.stdout).toContain('Policies: 1 check(s), 0 denied, 1 warning(s).');
  });

  it('denies in production: plan and apply exit 1 and nothing is written', async () => {
    target.emulator.resetStats();
    for (const command of [
      ['validate', 'base', 'production'],
      ['plan', 'base', 'production'],
      ['apply', 'base', 'production', '--auto-approve', '--no-progress'],
    ]) {
      const result = await target.run([...command, '--no-color']);
      expect(result.code, command[0]).toBe(1);
      expect(result.stdout, command[0]).toContain(
        'denied by policy release-host: ToolVersion/1.0.1 (base/main.yaml:1:1): tool versions come from the release host only',
      );
      expect(result.stderr).toContain('POLICY_DENIED');
    }
    expect(writes()).toEqual([]);
    const json = await target.run(['plan', 'base', 'production', '--json']);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout).policies).toMatchObject({ evaluated: 1, denied: 1, warned: 0 });
  });

  it('is gone in staging: no check, and the apply writes the tool version', async () => {
    const plan = await target.run(['plan', 'base', 'staging', '--json']);
    expect(plan.code, plan.stderr).toBe(0);
    // no policy left: the report has no policies member at all
    expect(JSON.parse(plan.stdout).policies).toBeUndefined();
    const applied = await target.run(['apply', 'base', 'staging', '--auto-approve', '--no-progress', '--no-color']);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).not.toContain('release-host');
    expect(writes().length).toBeGreaterThan(0);
  });

  it('refuses a bad policy patch at its file:line:col before any request', async () => {
    await write(
      'broken/policy.yaml',
      'kind: Policy\nmetadata: {name: release-host}\npatch: true\nspec:\n  rule: object.spec.url.beginsWith(1)\n',
    );
    await write('typo/policy.yaml', 'kind: Policy\nmetadata: {name: release-hots}\nensure: absent\n');
    target.emulator.resetStats();
    const broken = await target.run(['plan', 'base', 'broken']);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain(
      "broken/policy.yaml:5:9: policy release-host: found no matching overload for 'dyn.beginsWith(int)'",
    );
    const typo = await target.run(['plan', 'base', 'typo']);
    expect(typo.code).toBe(1);
    expect(typo.stderr).toContain(
      'typo/policy.yaml:1:1: patch of Policy "release-hots", which no document declares; did you mean Policy "release-host", declared at base/main.yaml:5:1?',
    );
    expect(target.emulator.stats().total).toBe(0);
  });
});
