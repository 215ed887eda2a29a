/**
 * `converge export` of registry modules with their versions: each published
 * version's archive is downloaded from the registry into the output
 * directory and named by `archive:`, so a plan of the export is clean (the
 * archive is the bytes converge uploaded: its digest compares equal in the
 * fingerprint store) and an apply of it publishes a version deleted live
 * again. Against the emulator, the CLI as a process.
 */
import { cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packModule } from '../../src/registry/pack.ts';
import { seedApply } from '../helpers/cli-seed.ts';
import { type CliTarget, cliTarget } from '../helpers/cli-target.ts';
import { documentValidator } from '../helpers/document-schema.ts';
import { filesBelow } from '../helpers/files-below.ts';
import { versionStatuses } from '../helpers/version-statuses.ts';

const FIXTURES = fileURLToPath(new URL('../../examples/modules/', import.meta.url));
const MODULE = '/api/v2/organizations/example-org/registry-modules/private/example-org';
const EXPORT = ['export', '--kind', 'RegistryModule', '--scope', 'example-org'];

let target: CliTarget;
let source: string;
/** The export of the organization's modules, and what it said. */
let out: string;
let stdout: string;
let stderr: string;

const files = filesBelow;
const statuses = (name: string) =>
  versionStatuses(target.emulator, { organization: 'example-org', name, provider: 'aws' });

/** plan --json of a directory: exit code, and the actions that are not no-ops. */
async function changes(dir: string, extra: Record<string, string> = {}) {
  const result = await target.run(['plan', dir, '--json', '--detailed-exitcode'], extra);
  const plan = result.code === 1 ? undefined : JSON.parse(result.stdout).plan;
  const actions = (plan?.actions ?? []) as Array<{ key: string; action: string; notes?: string[] }>;
  return { ...result, actions, changed: actions.filter((a) => a.action !== 'noop') };
}

beforeAll(async () => {
  target = await cliTarget('export-modules');
  source = join(target.scratch, 'source');
  await mkdir(source);
  for (const name of ['network', 'dns']) await cp(join(FIXTURES, name), join(source, name), { recursive: true });
  // a second network version, with one more file
  await cp(join(FIXTURES, 'network'), join(source, 'network-1.1'), { recursive: true });
  await writeFile(join(source, 'network-1.1', 'CHANGELOG.md'), '# 1.1.0\n');
  // HCL the registry cannot parse: its version is left without content (reg_ingress_failed)
  await mkdir(join(source, 'broken'));
  await writeFile(join(source, 'broken', 'main.tf'), 'variable "x" {\n  type = string\n');
  await writeFile(
    join(source, 'modules.yaml'),
    `kind: RegistryModule
metadata: {organization: example-org, name: network, provider: aws}
spec:
  test-config: {tests-enabled: true}
  versions:
    - {version: 1.0.0, source: network}
    - {version: 1.1.0, source: network-1.1}
---
kind: RegistryModule
metadata: {organization: example-org, name: dns, provider: aws}
spec: {versions: [{version: 2.0.0, source: dns}, {version: 2.1.0, source: broken}]}
`,
  );
  // applied in-process with the target's fingerprint store (each archive's digest recorded, as the
  // CLI's apply records it): the export is what these tests run as a process.
  // The broken version fails; the others are published
  await seedApply(target, [source], { failing: ['RegistryModuleVersion/example-org/dns/aws/2.1.0'] });
  expect(await statuses('dns')).toEqual([
    ['2.0.0', 'ok'],
    ['2.1.0', 'reg_ingress_failed'],
  ]);

  out = join(target.scratch, 'imported');
  const exported = await target.run([...EXPORT, '--out', out]);
  expect(exported.code, exported.stderr).toBe(0);
  stdout = exported.stdout;
  stderr = exported.stderr;
});
afterAll(() => target?.close());

describe('export of registry modules with their versions', () => {
  it('downloads each published version’s archive under modules/ and names it in the manifest', async () => {
    const archives = ['dns-aws/2.0.0', 'network-aws/1.0.0', 'network-aws/1.1.0'];
    expect(await files(out)).toEqual([
      ...archives.map((a) => `modules/example-org/${a}.tar.gz`),
      'registry-module.yaml',
    ]);
    const manifest = await readFile(join(out, 'registry-module.yaml'), 'utf8');
    expect(manifest).toContain(
      [
        '  versions:',
        '    - version: 1.0.0',
        '      archive: modules/example-org/network-aws/1.0.0.tar.gz',
        '    - version: 1.1.0',
        '      archive: modules/example-org/network-aws/1.1.0.tar.gz',
      ].join('\n'),
    );
    // the very bytes converge uploaded: their digest is the one the fingerprint store kept
    for (const [dir, file] of [
      ['network', 'network-aws/1.0.0'],
      ['network-1.1', 'network-aws/1.1.0'],
      ['dns', 'dns-aws/2.0.0'],
    ]) {
      const written = await readFile(join(out, 'modules/example-org', `${file}.tar.gz`));
      expect(written.equals((await packModule(join(source, dir!))).bytes)).toBe(true);
    }
  });

  it('counts every file it wrote, the archives with the manifests, and every version it read', () => {
    expect(stdout).toContain(
      'Exported 2 object(s) of 1 kind(s) to imported in 4 file(s) (1 manifest(s), 3 archive(s)).',
    );
    expect(stdout).toContain(
      '  RegistryModule: 2\n  RegistryModuleVersion: 4, 1 skipped, with their content beside the manifests',
    );
  });

  it('--json lists every file it wrote, the archives apart, and counts the versions with the kinds', async () => {
    const dir = join(target.scratch, 'imported-json');
    const result = await target.run([...EXPORT, '--out', dir, '--json']);
    expect(result.code, result.stderr).toBe(0);
    const doc = JSON.parse(result.stdout);
    const validate = await documentValidator('converge-export');
    expect(validate(doc), JSON.stringify(validate.errors)).toBe(true);
    const listed = [...doc.files, ...doc.archives].map((f: { path: string }) => f.path);
    expect(listed.sort()).toEqual(await files(dir));
    expect(doc.archives).toContainEqual({
      path: 'modules/example-org/network-aws/1.1.0.tar.gz',
      kind: 'RegistryModuleVersion',
      object: 'RegistryModuleVersion/example-org/network/aws/1.1.0',
    });
    expect(doc.kinds).toEqual([
      { kind: 'RegistryModule', objects: 2 },
      { kind: 'RegistryModuleVersion', objects: 4 },
    ]);
    expect(doc.skippedObjects).toEqual([
      {
        object: 'RegistryModuleVersion/example-org/dns/aws/2.1.0',
        kind: 'RegistryModuleVersion',
        why: 'it has no content to download (status reg_ingress_failed)',
      },
    ]);
  });

  it('says which version it leaves out, and why: one without content cannot be downloaded', async () => {
    expect(stderr).toContain(
      'Skipping RegistryModuleVersion/example-org/dns/aws/2.1.0: it has no content to download (status reg_ingress_failed).',
    );
    expect(await readFile(join(out, 'registry-module.yaml'), 'utf8')).not.toContain('2.1.0');
  });

  it('validates and plans no change, with the fingerprint store and without', async () => {
    const valid = await target.run(['validate', out]);
    expect(valid.code, valid.stderr).toBe(0);
    const withStore = await changes(out);
    expect(withStore.code, withStore.stderr).toBe(0);
    expect(withStore.actions.map((a) => a.key)).toEqual(
      expect.arrayContaining([
        'RegistryModuleVersion/example-org/network/aws/1.0.0',
        'RegistryModuleVersion/example-org/network/aws/1.1.0',
        'RegistryModuleVersion/example-org/dns/aws/2.0.0',
      ]),
    );
    expect(withStore.changed).toEqual([]);
    // no note of a digest that changed: the archive is what converge sent
    expect(withStore.actions.flatMap((a) => a.notes ?? []).join('\n')).not.toContain('digest');
    const withoutStore = await changes(out, { CONVERGE_FINGERPRINTS: 'off' });
    expect(withoutStore.code, withoutStore.stderr).toBe(0);
    expect(withoutStore.changed).toEqual([]);
  });

  it('writes archive paths relative to each manifest with --split, and that plans clean too', async () => {
    const split = join(target.scratch, 'split');
    const result = await target.run([...EXPORT, '--out', split, '--split']);
    expect(result.code, result.stderr).toBe(0);
    const manifest = await readFile(join(split, 'registry-module', 'example-org-network_aws.yaml'), 'utf8');
    expect(manifest).toContain('archive: ../modules/example-org/network-aws/1.0.0.tar.gz');
    const plan = await changes(split);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.changed).toEqual([]);
  });

  it('publishes a version deleted live again when the export is applied', async () => {
    const deleted = await fetch(`${target.emulator.url}${MODULE}/network/aws/1.1.0`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${target.emulator.tokens.admin}` },
    });
    expect(deleted.status).toBe(204);
    expect(await statuses('network')).toEqual([['1.0.0', 'ok']]);

    // the apply's own plan (its JSON lines' plan-ready) is that one create, and nothing else
    const applied = await target.run(['apply', out, '--auto-approve', '--json']);
    expect(applied.code, applied.stderr).toBe(0);
    const events = applied.stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line));
    const planned = events.find((event) => event.type === 'plan-ready').plan.actions as Array<{
      key: string;
      action: string;
    }>;
    expect(planned.filter((a) => a.action !== 'noop').map((a) => [a.key, a.action])).toEqual([
      ['RegistryModuleVersion/example-org/network/aws/1.1.0', 'create'],
    ]);
    expect(await statuses('network')).toEqual([
      ['1.0.0', 'ok'],
      ['1.1.0', 'ok'],
    ]);
    const again = await changes(out);
    expect(again.code, again.stderr).toBe(0);
    expect(again.changed).toEqual([]);
  });
});
