/**
 * Text written by a server or a module reaches the terminal with its control
 * characters shown, never run (docs/security.md, "Server text on a
 * terminal"). Each canary holds what an attacker would send: OSC 52 (write
 * the clipboard), clear-screen, a bare carriage return and a forged
 * "Success!" line. The CLI runs as a process against the emulator, whose
 * live objects and test log carry the canaries; no output may hold an ESC,
 * a BEL or a carriage return.
 */
import { cp, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningEmulator, startEmulator } from '../../src/emulator/server.ts';
import { type CliResult, converge } from '../helpers/cli.ts';

const NETWORK = fileURLToPath(new URL('../../examples/modules/network/', import.meta.url));
const SSH_ROLES = fileURLToPath(new URL('../../examples/base/ssh/roles.yaml', import.meta.url));
// the roles read a variable's value (`${var:engineer_ttl}`): its declaration goes with them
const VARIABLES = fileURLToPath(new URL('../../examples/base/variables.yaml', import.meta.url));

/** OSC 52 writing "evil" to the clipboard, clear-screen, and a line overwritten after a CR. */
const CANARY = 'x\u001b]52;c;ZXZpbA==\u0007\u001b[2J\u001b[H\rSuccess! 9 passed, 0 failed.\u009b31m';
/** What the terminal shows instead. */
const SHOWN = 'x␛]52;c;ZXZpbA==␇␛[2J␛[H␍Success! 9 passed, 0 failed.\\u009b31m';

let emulator: RunningEmulator;
let scratch: string;

const run = (args: string[]): Promise<CliResult> =>
  converge(args, {
    cwd: scratch,
    env: {
      CONVERGE_PLATFORM_URL: emulator.url,
      CONVERGE_PLATFORM_TOKEN: emulator.tokens.admin,
      CONVERGE_SECRETS_URL: emulator.url,
      CONVERGE_SECRETS_TOKEN: emulator.tokens.secrets,
      // no write-only field is declared here: without a store each process skips deriving its two scrypt keys
      CONVERGE_FINGERPRINTS: 'off',
    },
  });

async function post(path: string, body: unknown, platform = false): Promise<void> {
  const headers: Record<string, string> = platform
    ? { authorization: `Bearer ${emulator.tokens.admin}`, 'content-type': 'application/vnd.api+json' }
    : { 'x-service-token': emulator.tokens.secrets, 'content-type': 'application/json' };
  const answer = await fetch(`${emulator.url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
  expect(answer.status, await answer.text()).toBeLessThan(300);
}

/** Neither the escape character, nor BEL, nor a carriage return, nor a C1 control got through. */
function expectSafe(result: CliResult): void {
  for (const text of [result.stdout, result.stderr]) {
    // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
    expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
  }
}

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, seed: { users: [{ username: `user-${CANARY}` }] } });
  scratch = await mkdtemp(join(tmpdir(), 'converge-terminal-text-'));
  const role = encodeURIComponent(`role-${CANARY}`);
  await post(`/v1/ssh/roles/${role}`, { key_type: 'otp', default_user: 'u', cidr_list: '10.0.0.0/8' });
  await post(`/v1/ldap/role/${role}`, {
    creation_ldif: 'dn: cn={{.Username}},dc=example,dc=org\nobjectClass: person\ncn: {{.Username}}\nsn: x\n',
    deletion_ldif: 'dn: cn={{.Username}},dc=example,dc=org\nchangetype: delete\n',
  });
});
afterAll(async () => {
  await emulator?.close();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe('server text on a terminal', () => {
  it('plan and drift list live names of SSH roles, LDAP roles and users with their control characters shown', async () => {
    const manifests = join(scratch, 'manifests');
    await cp(SSH_ROLES, join(manifests, 'ssh-roles.yaml'));
    await cp(VARIABLES, join(manifests, 'variables.yaml'));
    await writeFile(
      join(manifests, 'declared.yaml'),
      'kind: AdminUser\nmetadata: {name: owner}\nspec: {is-admin: false}\n---\n' +
        'kind: LDAPDynamicRole\nmetadata: {name: readonly}\nspec:\n' +
        '  creation_ldif: "dn: cn={{.Username}},dc=example,dc=org\\nobjectClass: person\\ncn: {{.Username}}\\nsn: x\\n"\n' +
        '  deletion_ldif: "dn: cn={{.Username}},dc=example,dc=org\\nchangetype: delete\\n"\n',
    );
    const plan = await run(['plan', manifests]);
    expect(plan.code, plan.stderr).toBe(0);
    expectSafe(plan);
    expect(plan.stdout).toContain(`? SSHRole/ssh/role-${SHOWN}`);
    expect(plan.stdout).toContain(`? LDAPDynamicRole/ldap/role-${SHOWN}`);
    expect(plan.stdout).toContain(`? AdminUser/user-${SHOWN}`);

    const drift = await run(['drift', manifests]);
    expectSafe(drift);
    expect(drift.stdout).toContain(`? SSHRole/ssh/role-${SHOWN}`);
  });

  it("a policy's result names a live object to prune with its control characters shown", async () => {
    const manifests = join(scratch, 'pruned');
    await cp(SSH_ROLES, join(manifests, 'ssh-roles.yaml'));
    await cp(VARIABLES, join(manifests, 'variables.yaml'));
    await writeFile(
      join(manifests, 'policy.yaml'),
      'kind: Policy\nmetadata: {name: no-ssh-deletes}\nspec:\n  match: {kinds: [SSHRole]}\n' +
        '  rule: "change.action != \'delete\'"\n  message: SSH roles are not deleted from CI\n',
    );
    // its own configuration: the other tests here run without an ownership scope
    const config = join(scratch, 'prune.config.yaml');
    await writeFile(config, 'ownership:\n  - {kind: SSHRole, scope: ssh, name: "role-*"}\n');
    const plan = await run(['plan', manifests, '--prune', '-c', config]);
    expect(plan.code, plan.stderr).toBe(1);
    expectSafe(plan);
    expect(plan.stdout).toContain(
      `denied by policy no-ssh-deletes: SSHRole/ssh/role-${SHOWN}: SSH roles are not deleted from CI`,
    );
  });

  it('test run shows the log and the test file names with their control characters shown', async () => {
    await post(
      '/api/v2/organizations/example-org/registry-modules',
      {
        data: {
          type: 'registry-modules',
          attributes: { name: 'network', provider: 'aws', 'registry-name': 'private' },
        },
      },
      true,
    );
    const module = join(scratch, 'module');
    await cp(NETWORK, module, { recursive: true });
    await rename(join(module, 'tests', 'network.tftest.hcl'), join(module, 'tests', `${CANARY}.tftest.hcl`));

    const result = await run(['test', 'run', 'example-org/network/aws', '--module-dir', module]);
    expectSafe(result);
    // the log's file lines and the progress line naming the test files
    expect(result.stdout).toContain(`tests/${SHOWN}.tftest.hcl... in progress`);
    expect(result.stderr).toContain(`1 test file(s): tests/${SHOWN}.tftest.hcl`);
    // the log's own summary is still there, on its own line
    expect(result.stdout).toMatch(/^(Success|Failure)! \d+ passed/m);
  });
});
