/**
 * Addresses on the command line, through the CLI as a process: a --target
 * whose mount holds `/` written as it is, a target that matches nothing,
 * and kind names in another case (--allow-replace, --target).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seedApply } from '../helpers/cli-seed.ts';
import { type CliTarget, cliTarget, NO_FINGERPRINTS } from '../helpers/cli-target.ts';

const CA_KEY = fileURLToPath(new URL('../fixtures/kinds/ssh-ca', import.meta.url));

let target: CliTarget;
beforeEach(async () => {
  // no fingerprint store but where a CA's key is given (below): the roles have no write-only field
  target = await cliTarget('addresses', NO_FINGERPRINTS, {
    seed: { secrets: { mounts: [{ path: 'teams/ssh-prod', type: 'ssh' }] } },
  });
});
afterEach(() => target?.close());

async function manifest(name: string, text: string): Promise<string> {
  const path = join(target.scratch, name);
  await writeFile(path, text);
  return path;
}

const role = (mount: string, name: string) =>
  `kind: SSHRole\nmetadata: {mount: ${mount}, name: ${name}}\nspec: {key_type: otp, default_user: ubuntu, cidr_list: 10.0.0.0/8}\n`;

describe('--target with a mount holding /', () => {
  it('selects the role in the declared mount when the mount is written as it is, or percent-encoded', async () => {
    const file = await manifest('roles.yaml', `${role('teams/ssh-prod', 'web')}---\n${role('ssh', 'web')}`);
    for (const written of ['SSHRole/teams/ssh-prod/web', 'SSHRole/teams%2Fssh-prod/web']) {
      const planned = await target.run(['plan', file, '--target', written]);
      expect(planned.code, planned.stderr).toBe(0);
      expect(planned.stdout).toContain('+ create SSHRole/teams%2Fssh-prod/web');
      expect(planned.stdout).not.toContain('SSHRole/ssh/web');
      expect(planned.stderr).not.toContain('matches no object');
    }
    const applied = await target.run(['apply', file, '-t', 'SSHRole/teams/ssh-prod/web', '--auto-approve']);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toContain('created SSHRole/teams%2Fssh-prod/web');
    expect(applied.stdout).not.toContain('SSHRole/ssh/web');
  });

  it('refuses a name no role can have, naming the percent-encoded form, and sends nothing', async () => {
    const file = await manifest('roles.yaml', role('ssh', 'web'));
    target.emulator.resetStats();
    const result = await target.run(['plan', file, '--target', 'SSHRole/teams/ssh-prod/web']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      '--target SSHRole/teams/ssh-prod/web: no SSHRole in scope "teams" is named "ssh-prod/web"',
    );
    expect(result.stderr).toContain('--target SSHRole/teams%2Fssh-prod/web');
    expect(target.emulator.stats().total).toBe(0);
  });

  it('says so when a target matches no object in the manifests', async () => {
    const file = await manifest('roles.yaml', role('ssh', 'web'));
    const result = await target.run(['plan', file, '--target', 'SSHRole/ssh/api']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('--target SSHRole/ssh/api matches no object in the manifests');
    // a selector too, rather than a plan of nothing without a word
    const selected = await target.run(['plan', file, '--selector', 'team=nobody']);
    expect(selected.code, selected.stderr).toBe(0);
    expect(selected.stderr).toContain('--selector team=nobody matches no object in the manifests');
  });

  it('selects by own labels only, and refuses a label given two values, sending nothing', async () => {
    const file = await manifest('roles.yaml', role('ssh', 'web'));
    target.emulator.resetStats();
    // `__proto__` is a label key like any other: no object has it, so nothing is selected, and
    // a selector still cannot be combined with --prune
    const selected = await target.run(['plan', file, '--selector', '__proto__=x']);
    expect(selected.code, selected.stderr).toBe(0);
    expect(selected.stderr).toContain('--selector __proto__=x matches no object in the manifests');
    expect(selected.stdout).not.toContain('SSHRole/ssh/web');
    const pruned = await target.run(['plan', file, '--prune', '--selector', '__proto__=x']);
    expect(pruned.code).toBe(1);
    expect(pruned.stderr).toContain('--prune cannot be combined with --selector');
    const twice = await target.run(['plan', file, '-l', 'team=web', '-l', 'team=db']);
    expect(twice.code).toBe(1);
    expect(twice.stderr).toContain('--selector team is given two values ("web" and "db"): a label has one value');
    expect(target.emulator.stats().total).toBe(0);
  });

  it('prunes the live objects a target names with --prune, whether or not another target selects a declared one', async () => {
    const file = await manifest('roles.yaml', role('ssh', 'web'));
    // live, in no manifest: api and db; web declared
    await seedApply(target, [await manifest('seed.yaml', `${role('ssh', 'api')}---\n${role('ssh', 'db')}`)]);
    await manifest('converge.config.yaml', 'ownership:\n  - {kind: SSHRole, scope: ssh}\n');
    for (const targets of [['SSHRole/ssh/api'], ['SSHRole/ssh/api', 'SSHRole/ssh/web']]) {
      const planned = await target.run(['plan', file, '--prune', ...targets.flatMap((t) => ['--target', t])]);
      expect(planned.code, planned.stderr).toBe(0);
      expect(planned.stdout, targets.join(' ')).toContain('- delete SSHRole/ssh/api');
      expect(planned.stdout).not.toContain('SSHRole/ssh/db');
    }
    // beside a target whose object reads the kind only for its references (the roles a zero-address list names)
    const zero = await manifest('zero.yaml', 'kind: SSHZeroAddress\nmetadata: {mount: ssh}\nspec: {roles: [db]}\n');
    const both = await target.run([
      'plan',
      zero,
      '--prune',
      '--target',
      'SSHZeroAddress/ssh',
      '--target',
      'SSHRole/ssh/api',
    ]);
    expect(both.code, both.stderr).toBe(0);
    expect(both.stdout).toContain('- delete SSHRole/ssh/api');
    expect(both.stdout).not.toContain('delete SSHRole/ssh/db');
    // and when no manifest uses the kind's API at all (a platform kind only): its connection is made
    const tool = await manifest(
      'tool.yaml',
      `kind: ToolVersion\nmetadata: {name: 9.0.0}\nspec: {url: "https://releases.example.com/t.zip", sha: "${'a'.repeat(64)}"}\n`,
    );
    const otherApi = await target.run(['plan', tool, '--prune', '--target', 'SSHRole/ssh/api']);
    expect(otherApi.code, otherApi.stderr).toBe(0);
    expect(otherApi.stdout).toContain('- delete SSHRole/ssh/api');
    const alone = await target.run(['plan', file, '--prune', '--target', 'SSHRole/ssh/api']);
    expect(alone.stderr).toContain(
      '--target SSHRole/ssh/api matches no object in the manifests; with --prune, the live objects it names in an ownership scope are deleted',
    );
  });
});

describe('kinds named on the command line', () => {
  it('take any case: --target sshrole and --allow-replace sshcertificateauthority', async () => {
    const roles = await manifest('roles.yaml', role('ssh', 'web'));
    const planned = await target.run(['plan', roles, '--target', 'sshrole/ssh/web']);
    expect(planned.code, planned.stderr).toBe(0);
    expect(planned.stdout).toContain('+ create SSHRole/ssh/web');

    // a generated CA, then the key material given: a replacement that needs consent
    const ca = await manifest(
      'ca.yaml',
      'kind: SSHCertificateAuthority\nmetadata: {mount: ssh}\nspec: {key_type: ed25519}\n',
    );
    // the CA's private key is write-only: the clean plan after the replacement is the fingerprint store's
    const store = { CONVERGE_FINGERPRINTS: join(target.scratch, 'fingerprints.json') };
    await seedApply(target, [ca], { env: store });
    const publicKey = (await readFile(`${CA_KEY}.pub`, 'utf8')).trim();
    await writeFile(
      ca,
      `kind: SSHCertificateAuthority\nmetadata: {mount: ssh}\nspec:\n  private_key: \${file:${CA_KEY}}\n  public_key: ${publicKey}\n`,
    );
    await writeFile(
      join(target.scratch, 'converge.config.yaml'),
      `interpolation:\n  fileRoots: [${JSON.stringify(join(CA_KEY, '..'))}]\n`,
    );
    const consent = await target.run(
      ['apply', ca, '--auto-approve', '--allow-replace', 'sshcertificateauthority'],
      store,
    );
    expect(consent.code, consent.stderr).toBe(0);
    expect(consent.stdout).toContain('SSHCertificateAuthority/ssh');
    expect((await target.run(['plan', ca, '--detailed-exitcode'], store)).code).toBe(0);
  });

  it('refuses an unknown kind in --allow-replace with a suggestion, before anything is sent', async () => {
    const roles = await manifest('roles.yaml', role('ssh', 'web'));
    target.emulator.resetStats();
    const result = await target.run(['apply', roles, '--auto-approve', '--allow-replace', 'SSHCertificateAuthorty']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('--allow-replace SSHCertificateAuthorty: unknown kind');
    expect(result.stderr).toContain('did you mean "SSHCertificateAuthority"');
    expect(target.emulator.stats().total).toBe(0);
  });
});
