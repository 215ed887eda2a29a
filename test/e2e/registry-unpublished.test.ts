/**
 * A declared version that never became usable (the registry refused its
 * upload) is a change, never "in sync": plan shows its replacement and exits
 * 2 under --detailed-exitcode, drift exits 2, and an apply with
 * --allow-replace deletes it and publishes it anew from its (fixed) content.
 */
import { cp, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type CliTarget, cliTarget, NO_FINGERPRINTS } from '../helpers/cli-target.ts';
import { versionStatuses } from '../helpers/version-statuses.ts';

const FIXTURES = fileURLToPath(new URL('../../examples/modules/', import.meta.url));
const VERSION = 'RegistryModuleVersion/example-org/network/aws/2.0.0';

let target: CliTarget;
beforeEach(async () => {
  target = await cliTarget('registry-unpublished', NO_FINGERPRINTS);
  await cp(join(FIXTURES, 'network'), join(target.scratch, 'network'), { recursive: true });
  // HCL the registry cannot parse: its upload arrives and is refused (reg_ingress_failed)
  await mkdir(join(target.scratch, 'broken'));
  await writeFile(join(target.scratch, 'broken', 'main.tf'), 'variable "x" {\n  type = string\n');
});
afterEach(() => target?.close());

const statuses = () =>
  versionStatuses(target.emulator, { organization: 'example-org', name: 'network', provider: 'aws' });

describe('a declared version the registry could not read', () => {
  it('is planned as a replacement and drifted, and apply --allow-replace publishes it anew', async () => {
    const file = join(target.scratch, 'modules.yaml');
    await writeFile(
      file,
      `kind: RegistryModule
metadata: {organization: example-org, name: network, provider: aws}
spec:
  versions:
    - {version: 1.0.0, source: network}
    - {version: 2.0.0, source: broken}
`,
    );
    const failed = await target.run(['apply', file, '--auto-approve', '--no-progress']);
    expect(failed.code).toBe(1);
    expect(await statuses()).toEqual([
      ['1.0.0', 'ok'],
      ['2.0.0', 'reg_ingress_failed'],
    ]);

    // not "no changes": the replacement, the field that differs, and why
    const plan = await target.run(['plan', file, '--detailed-exitcode', '--no-color']);
    expect(plan.code, plan.stderr).toBe(2);
    expect(plan.stdout).toContain(`-/+ replace ${VERSION}`);
    expect(plan.stdout).toContain('published: false -> true (forces replacement)');
    // not a default a manifest left out: no field to write, nothing to ignore
    expect(plan.stdout).not.toContain('(default)');
    expect(plan.stdout).toContain('not published: the registry could not read this version (main.tf:');
    expect(plan.stdout).toContain('apply needs --allow-replace RegistryModuleVersion');

    const drift = await target.run(['drift', file, '--format', 'json']);
    expect(drift.code, drift.stderr).toBe(2);
    const report = JSON.parse(drift.stdout);
    expect(report).toMatchObject({ inSync: false, counts: { drifted: 1 } });

    // the safety: the previous version cannot be put back, so apply asks for consent first
    const refused = await target.run(['apply', file, '--auto-approve', '--no-progress']);
    expect(refused.code).toBe(1);
    expect(refused.stdout + refused.stderr).toContain('pass --allow-replace RegistryModuleVersion');
    expect(await statuses()).toEqual([
      ['1.0.0', 'ok'],
      ['2.0.0', 'reg_ingress_failed'],
    ]);

    // the content fixed, the replacement republishes it, and the next plan is clean
    await writeFile(join(target.scratch, 'broken', 'main.tf'), 'variable "x" {\n  type = string\n}\n');
    const applied = await target.run([
      'apply',
      file,
      '--auto-approve',
      '--no-progress',
      '--allow-replace',
      'RegistryModuleVersion',
    ]);
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    expect(await statuses()).toEqual([
      ['1.0.0', 'ok'],
      ['2.0.0', 'ok'],
    ]);
    const clean = await target.run(['plan', file, '--detailed-exitcode']);
    expect(clean.code, clean.stdout).toBe(0);
    expect((await target.run(['drift', file])).code).toBe(0);
  });
});
