/**
 * The registry kinds through the CLI as a process: versions uploaded once
 * and never again, a local change reported instead of re-uploaded, an
 * upload the registry cannot read failing that version alone with its
 * reason, undeclared versions left alone unless pruned (and never the
 * module's last: the registry would delete the module with it, declared or not),
 * and a sensitive test variable that appears in no output.
 */
import { cp, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seedApply } from '../helpers/cli-seed.ts';
import { type CliTarget, cliTarget, keepFingerprints, NO_FINGERPRINTS } from '../helpers/cli-target.ts';

const FIXTURES = fileURLToPath(new URL('../../examples/modules/', import.meta.url));
const SECRET = 'canary-registry-api-key-3141';

let target: CliTarget;
beforeEach(async () => {
  // a store only in the tests of what it remembers of an upload (keepFingerprints)
  target = await cliTarget('registry', { ...NO_FINGERPRINTS, MODULE_API_KEY: SECRET });
  await cp(join(FIXTURES, 'network'), join(target.scratch, 'network'), { recursive: true });
});
afterEach(() => target?.close());

const modules = (versions: string[]) => `kind: RegistryModule
metadata: {organization: example-org, name: network, provider: aws}
spec:
  test-config: {tests-enabled: true}
  versions:
${versions.map((v) => `    - {version: ${v}}`).join('\n')}
---
kind: ModuleTestVariable
metadata: {organization: example-org, module: network/aws, name: API_KEY}
spec: {value: "\${env:MODULE_API_KEY}", sensitive: true}
`;

async function write(versions: string[]): Promise<string> {
  const file = join(target.scratch, 'modules.yaml');
  await writeFile(file, modules(versions));
  return file;
}

async function statuses(): Promise<Array<{ version: string; status: string; error?: string }>> {
  const response = await fetch(
    `${target.emulator.url}/api/v2/organizations/example-org/registry-modules/private/example-org/network/aws`,
    { headers: { authorization: `Bearer ${target.emulator.tokens.admin}` } },
  );
  return (await response.json()).data.attributes['version-statuses'];
}

/** A version's archive as the registry serves it (the module registry protocol's download). */
async function download(version: string): Promise<Buffer> {
  const headers = { authorization: `Bearer ${target.emulator.tokens.admin}` };
  const at = await fetch(`${target.emulator.url}/api/registry/v1/modules/example-org/network/aws/${version}/download`, {
    headers,
  });
  const location = at.headers.get('x-terraform-get');
  if (!location) throw new Error(`no download link (${at.status})`);
  return Buffer.from(await (await fetch(location, { headers })).arrayBuffer());
}

describe('registry kinds through the CLI', () => {
  it('uploads each version once; a later local change is a note, not an upload', async () => {
    keepFingerprints(target);
    const file = await write(['1.0.0, source: network', '1.1.0, source: network']);
    const applied = await target.run(['apply', file, '--auto-approve', '--no-progress']);
    expect(applied.code, applied.stderr).toBe(0);
    expect((await statuses()).map((s) => [s.version, s.status]).sort()).toEqual([
      ['1.0.0', 'ok'],
      ['1.1.0', 'ok'],
    ]);
    expect((await target.run(['plan', file, '--detailed-exitcode'])).code).toBe(0);

    await writeFile(join(target.scratch, 'network', 'main.tf'), '\n# a local change\n', { flag: 'a' });
    const plan = await target.run(['plan', file, '--detailed-exitcode']);
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain(
      'RegistryModuleVersion/example-org/network/aws/1.0.0: the content of network (sha256:',
    );
    for (const output of [applied, plan]) expect(output.stdout + output.stderr).not.toContain(SECRET);
  });

  it('targets a version by the address plans print, without the others', async () => {
    const file = await write(['1.0.0, source: network', '1.1.0, source: network']);
    // a new version of a module that is not live, targeted alone: nothing could create the module first
    target.emulator.resetStats();
    for (const command of [['plan'], ['apply', '--auto-approve']]) {
      const refused = await target.run([...command, file, '-t', 'RegistryModuleVersion/example-org/network/aws/1.1.0']);
      expect(refused.code, command.join(' ')).toBe(1);
      expect(refused.stderr).toContain(
        'modules.yaml:7:7: belongs to RegistryModule/example-org/network/aws, which is not live and not selected: ' +
          'target it too (-t RegistryModule/example-org/network/aws)',
      );
    }
    expect(Object.keys(target.emulator.stats().byRoute).every((route) => route.startsWith('GET'))).toBe(true);
    // the module's own target brings its versions with it
    const whole = await target.run(['plan', file, '--target', 'RegistryModule/example-org/network/aws']);
    expect(whole.code, whole.stderr).toBe(0);
    expect(whole.stdout).toContain('+ create RegistryModuleVersion/example-org/network/aws/1.0.0');
    expect(whole.stdout).toContain('+ create RegistryModuleVersion/example-org/network/aws/1.1.0');

    // once the module is live, its new version is planned alone
    await seedApply(target, [await write(['1.0.0, source: network'])]);
    await write(['1.0.0, source: network', '1.1.0, source: network']);
    const planned = await target.run(['plan', file, '--target', 'RegistryModuleVersion/example-org/network/aws/1.1.0']);
    expect(planned.code, planned.stderr).toBe(0);
    expect(planned.stderr).not.toContain('matches no object');
    expect(planned.stdout).toContain('+ create RegistryModuleVersion/example-org/network/aws/1.1.0');
    expect(planned.stdout).not.toContain('RegistryModuleVersion/example-org/network/aws/1.0.0');
  });

  it('a changed source is said with its remedy until the manifest acknowledges it; the original archive clears it', async () => {
    keepFingerprints(target);
    const file = await write(['1.0.0, source: network']);
    // published in-process, as `converge apply` would (the upload is the first test's point): the notes are this one's
    await seedApply(target, ['modules.yaml']);
    // what the registry holds, byte for byte, as anyone can download it
    const original = join(target.scratch, 'network-1.0.0.tar.gz');
    await writeFile(original, await download('1.0.0'));

    await writeFile(join(target.scratch, 'network', 'main.tf'), '\n# a local change\n', { flag: 'a' });
    const first = await target.run(['plan', file, '--detailed-exitcode']);
    expect(first.code, first.stderr).toBe(0);
    const note = first.stdout
      .split('\n')
      .find((line) => line.includes('RegistryModuleVersion/example-org/network/aws/1.0.0:'));
    const digest = /acknowledge it with `digest: (sha256:[0-9a-f]{64})`/.exec(note ?? '')?.[1];
    expect(note, first.stdout).toMatch(/the content of network \(sha256:[0-9a-f]{64}\) is not what converge published/);
    expect(digest).toBeDefined();
    // the same plan, the same note: nothing was acknowledged
    expect((await target.run(['plan', file])).stdout).toContain(note);

    // acknowledged: the plan is clean, and stays so while the content is the one acknowledged
    await write([`1.0.0, source: network, digest: "${digest}"`]);
    const acknowledged = await target.run(['plan', file, '--detailed-exitcode']);
    expect(acknowledged.code, acknowledged.stderr).toBe(0);
    expect(acknowledged.stdout).not.toContain('RegistryModuleVersion/example-org/network/aws/1.0.0:');
    expect(acknowledged.stdout).toContain('No changes');
    // another change is said again, with the new digest to acknowledge
    await writeFile(join(target.scratch, 'network', 'main.tf'), '\n# another one\n', { flag: 'a' });
    const again = await target.run(['plan', file]);
    expect(again.stdout).toMatch(/1\.0\.0: the content of network \(sha256:[0-9a-f]{64}\) is not the acknowledged /);

    // the version pointed at the archive the registry holds: nothing to say
    await write(['1.0.0, archive: network-1.0.0.tar.gz']);
    const restored = await target.run(['plan', file, '--detailed-exitcode']);
    expect(restored.code, restored.stderr).toBe(0);
    expect(restored.stdout).not.toContain('RegistryModuleVersion/example-org/network/aws/1.0.0:');
  }, 90_000);

  it('publishes a version only with the content it acknowledges: the plan says so, apply uploads nothing', async () => {
    const wrong = `sha256:${'0'.repeat(64)}`;
    const file = await write(['1.0.0, source: network', `2.0.0, source: network, digest: "${wrong}"`]);
    const plan = await target.run(['plan', file]);
    expect(plan.stdout).toMatch(
      new RegExp(`2\\.0\\.0: the content of network \\(sha256:[0-9a-f]{64}\\) is not the acknowledged ${wrong}`),
    );
    const applied = await target.run(['apply', file, '--auto-approve', '--no-progress']);
    expect(applied.code).toBe(1);
    expect(applied.stdout + applied.stderr).toContain(`is not the acknowledged ${wrong}; nothing was uploaded`);
    expect((await statuses()).map((s) => s.version)).toEqual(['1.0.0']);
  }, 60_000);

  it('says a source from the environment by its field in every note and refusal: too short to be masked, it is never quoted', async () => {
    keepFingerprints(target);
    // three characters: the redactor masks so short a secret only where it stands quoted
    const env = { MOD_SRC: 'nw7' };
    await cp(join(target.scratch, 'network'), join(target.scratch, 'nw7'), { recursive: true });
    const secretSource = (versions: string[]) =>
      write(versions.map((v) => `${v}, source: "\${env:MOD_SRC}"`)).then(() => 'modules.yaml');
    await seedApply(target, [await secretSource(['1.0.0'])], { env });
    await writeFile(join(target.scratch, 'nw7', 'main.tf'), '\n# a local change\n', { flag: 'a' });
    const wrong = `sha256:${'0'.repeat(64)}`;
    await secretSource(['1.0.0', `2.0.0, digest: "${wrong}"`]);

    // commands that change nothing, side by side
    const [planned, json, drift] = await Promise.all([
      target.run(['plan', 'modules.yaml', '--out', 'plan.json'], env),
      target.run(['plan', 'modules.yaml', '--json'], env),
      target.run(['drift', 'modules.yaml', '--format', 'markdown'], env),
    ]);
    expect(planned.stdout).toMatch(
      /1\.0\.0: the content of the source \(a secret value\) \(sha256:[0-9a-f]{64}\) is not what/,
    );
    expect(planned.stdout).toMatch(
      /2\.0\.0: the content of the source \(a secret value\) \(sha256:[0-9a-f]{64}\) is not the acknowledged/,
    );
    expect(json.stdout).toContain('the content of the source (a secret value)');
    expect(drift.stdout).toContain('the content of the source (a secret value)');
    // the content changed again since the saved plan: said by its field
    await writeFile(join(target.scratch, 'nw7', 'main.tf'), '\n# another one\n', { flag: 'a' });
    const stale = await target.run(['apply', 'plan.json'], env);
    expect(stale.stderr).toContain('digest: the content of the source (a secret value) changed since the plan');
    // and the version whose content is not the one it acknowledges is refused by it too
    const refused = await target.run(['apply', 'modules.yaml', '--auto-approve', '--no-progress'], env);
    expect(refused.stdout).toContain('2.0.0: the content of the source (a secret value) (sha256:');
    for (const result of [planned, json, drift, stale, refused]) {
      expect(result.stdout + result.stderr).not.toContain('nw7');
    }
  }, 90_000);

  it('refuses a digest that is not sha256 at validate, with its position', async () => {
    const file = await write(['1.0.0, source: network, digest: "md5:abc"']);
    const result = await target.run(['validate', file]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/modules\.yaml:\d+:\d+: .*must be sha256: and 64 lower-case hex digits/);
  });

  it('fails a version the registry cannot read, alone, with its reason; the others go on', async () => {
    await mkdir(join(target.scratch, 'broken'));
    await writeFile(join(target.scratch, 'broken', 'main.tf'), 'variable "x" {\n  type = string\n');
    const file = await write(['1.0.0, source: network', '2.0.0, source: broken']);
    const applied = await target.run(['apply', file, '--auto-approve', '--no-progress']);
    expect(applied.code).toBe(1);
    expect(applied.stdout + applied.stderr).toMatch(
      /2\.0\.0 was uploaded but the registry could not read it: main\.tf:/,
    );
    expect(applied.stdout).toContain('created RegistryModuleVersion/example-org/network/aws/1.0.0');
  });

  it('lists undeclared versions as unmanaged, and deletes them only with --prune inside an ownership scope', async () => {
    const file = await write(['1.0.0, source: network', '1.1.0, source: network']);
    // both versions published in-process: the CLI's prune is what this test runs as a process
    await seedApply(target, ['modules.yaml']);
    await write(['1.0.0, source: network']);
    const plan = await target.run(['plan', file]);
    expect(plan.stdout).toContain('? RegistryModuleVersion/example-org/network/aws/1.1.0');
    await writeFile(
      join(target.scratch, 'converge.config.yaml'),
      'ownership:\n  - kind: RegistryModuleVersion\n    scope: example-org\n',
    );
    const pruned = await target.run(['apply', file, '--prune', '--auto-approve', '--no-progress']);
    expect(pruned.code, pruned.stderr).toBe(0);
    expect((await statuses()).map((s) => s.version)).toEqual(['1.0.0']);
  });

  /** network with two versions, published in-process (the CLI's prune is what runs as a process), and these ownership kinds. */
  async function twoVersionsOwned(kinds: string[]): Promise<string> {
    const file = await write(['1.0.0, source: network', '1.1.0, source: network']);
    await seedApply(target, ['modules.yaml']);
    const rules = kinds.map((kind) => `  - {kind: ${kind}, scope: example-org}\n`).join('');
    await writeFile(join(target.scratch, 'converge.config.yaml'), `ownership:\n${rules}`);
    return file;
  }

  it('prunes a module no manifest declares in one delete that takes its versions with it', async () => {
    const file = await twoVersionsOwned(['RegistryModule', 'RegistryModuleVersion']);
    // network is in no manifest any more; storage declares a version, so versions are read and planned
    await writeFile(
      file,
      'kind: RegistryModule\nmetadata: {organization: example-org, name: storage, provider: aws}\nspec: {versions: [{version: 1.0.0, source: network}]}\n',
    );
    const plan = await target.run(['plan', file, '--prune']);
    expect(plan.stdout).toContain('- delete RegistryModule/example-org/network/aws');
    expect(plan.stdout).not.toContain('delete RegistryModuleVersion/example-org/network/');
    const pruned = await target.run(['apply', file, '--prune', '--auto-approve', '--no-progress']);
    expect(pruned.code, pruned.stdout + pruned.stderr).toBe(0);
    const gone = await fetch(
      `${target.emulator.url}/api/v2/organizations/example-org/registry-modules/private/example-org/network/aws`,
      { headers: { authorization: `Bearer ${target.emulator.tokens.admin}` } },
    );
    expect(gone.status).toBe(404);
  });

  it("never prunes a module's last version: the registry would delete the declared module with it", async () => {
    const file = await twoVersionsOwned(['RegistryModuleVersion']);
    // every version of network undeclared, while another module declares one (so versions are planned)
    await writeFile(
      file,
      [
        'kind: RegistryModule',
        'metadata: {organization: example-org, name: network, provider: aws}',
        'spec: {versions: []}',
        '---',
        'kind: RegistryModule',
        'metadata: {organization: example-org, name: storage, provider: aws}',
        'spec: {versions: [{version: 1.0.0, source: network}]}',
        '',
      ].join('\n'),
    );
    const pruned = await target.run(['apply', file, '--prune', '--auto-approve', '--no-progress']);
    expect(pruned.code).toBe(1);
    // one of the two goes; the other is the module's last, and stays with the module
    expect(await statuses()).toHaveLength(1);
    expect(pruned.stdout + pruned.stderr).toMatch(
      /not deleted: 1\.[01]\.0 is the only version of network\/aws, and deleting a module's last version deletes the module/,
    );
    expect(pruned.stdout + pruned.stderr).toContain('`ensure: absent`');
  });

  it('never prunes the last version of a module no manifest declares, and does not say one does', async () => {
    const file = await twoVersionsOwned(['RegistryModuleVersion']);
    // network in no manifest, its module not owned: only its versions are pruned, never its last
    await writeFile(
      file,
      'kind: RegistryModule\nmetadata: {organization: example-org, name: storage, provider: aws}\nspec: {versions: [{version: 1.0.0, source: network}]}\n',
    );
    const pruned = await target.run(['apply', file, '--prune', '--auto-approve', '--no-progress']);
    expect(pruned.code).toBe(1);
    expect(await statuses()).toHaveLength(1);
    const output = pruned.stdout + pruned.stderr;
    expect(output).toMatch(/not deleted: 1\.[01]\.0 is the only version of network\/aws/);
    expect(output).toContain('or --prune with an ownership rule for RegistryModule and no manifest declaring it');
    expect(output).not.toContain('manifest declares');
  });
});
