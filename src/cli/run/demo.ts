/**
 * The demo: converge against the embedded emulator, as a user would run it.
 * Each step is the real CLI in a child process (so a terminal gets the same
 * Ink view a user gets, and CI the same plain lines); the emulator runs in
 * this process and is stopped at the end, whatever happens.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_ADMIN_PASSWORD } from '../../emulator/ldap/directory/index.ts';
import { MEMORY_DIRECTORY_URL } from '../../emulator/secrets/seed.ts';
import { startEmulator } from '../../emulator/server.ts';
import { ConvergeError } from '../../errors.ts';
import { colorsFor } from '../../ui/colors.ts';
import { EXIT_CHANGES, EXIT_ERROR, EXIT_OK } from '../run-main.ts';

/** The CLI entry next to this file: main.ts when run from source, main.js when built. */
const MAIN = fileURLToPath(new URL(import.meta.url.endsWith('.ts') ? '../main.ts' : '../main.js', import.meta.url));

export interface DemoOptions {
  examples: string;
  environment: string;
}

export async function runDemo(options: DemoOptions): Promise<number> {
  const root = resolve(options.examples);
  // the policies ride along as a CI job's would: the LDAP one warns about the in-memory directory
  const manifests = ['base', 'policies', join('environments', options.environment)];
  const config = join('environments', options.environment, 'converge.config.yaml');
  const scratch = await mkdtemp(join(tmpdir(), 'converge-demo-'));
  const emulator = await startEmulator({ port: 0 });
  const colors = colorsFor(process.stdout, true);
  const env = {
    ...process.env,
    CONVERGE_PLATFORM_URL: emulator.url,
    CONVERGE_PLATFORM_TOKEN: emulator.tokens.admin,
    CONVERGE_SECRETS_URL: emulator.url,
    CONVERGE_SECRETS_TOKEN: emulator.tokens.secrets,
    // a store of its own, so every demo starts from a clean slate
    CONVERGE_FINGERPRINTS: join(scratch, 'fingerprints.json'),
    // example values: the manifests read these secrets from the environment, as in CI
    SMTP_PASSWORD: process.env.SMTP_PASSWORD ?? 'demo-only-smtp-password',
    // the LDAP engine's directory: the emulator's in-memory one, whose admin password is known
    LDAP_URL: MEMORY_DIRECTORY_URL,
    LDAP_BINDPASS: DEFAULT_ADMIN_PASSWORD,
  };
  const say = (text: string) => process.stdout.write(`\n${colors.bold(`== ${text}`)}\n`);
  // every step names the environment's configuration, as a CI job would
  const converge = (command: string, args: string[], expect: number[] = [EXIT_OK]) =>
    run([command, ...manifests, '-c', config, ...args], {
      cwd: root,
      env,
      expect,
      show: (line) => process.stdout.write(`\n${colors.dim(`$ converge ${line}`)}\n`),
    });
  const patch = (path: string, type: string, attributes: Record<string, unknown>) =>
    admin(emulator.url, emulator.tokens.admin, 'PATCH', path, { data: { type, attributes } });
  try {
    say(`emulator listening on ${emulator.url} (platform and secrets APIs, in this process)`);
    await converge('validate', []);
    // --show-sources: which file set each value, the base or the staging overlay (users.yaml)
    await converge('plan', ['--detailed-exitcode', '--show-sources'], [EXIT_CHANGES]);
    await converge('apply', ['--auto-approve']);
    say('a second plan shows no changes');
    await converge('plan', ['--detailed-exitcode']);

    say('the network module published above runs its tests on the platform');
    await run(['test', 'run', 'example-org/network/aws', '--module-dir', join('modules', 'network')], {
      cwd: root,
      env,
      expect: [EXIT_OK],
      show: (line) => process.stdout.write(`\n${colors.dim(`$ converge ${line}`)}\n`),
    });

    say('someone changes things behind converge’s back, through the API');
    await patch('/admin/general-settings', 'general-settings', { 'api-rate-limit': 250, 'plan-timeout': '5h' });
    await patch('/admin/customization-settings', 'customization-settings', { footer: 'edited by hand' });
    const tool = await firstVersion(emulator.url, emulator.tokens.admin, '1.9.8');
    if (tool) await patch(`/admin/tool-versions/${tool}`, 'tool-versions', { enabled: false });
    await admin(emulator.url, emulator.tokens.admin, 'POST', '/admin/tool-versions', {
      data: {
        type: 'tool-versions',
        attributes: { version: '1.5.0', url: 'https://releases.example.com/tool/1.5.0.zip', sha: 'c'.repeat(64) },
      },
    });
    // an SSH role rewritten with a longer lifetime, and one nobody declared
    const secrets = (path: string, body: unknown) => secretsWrite(emulator.url, emulator.tokens.secrets, path, body);
    await secrets('/ssh/roles/engineers', {
      key_type: 'ca',
      allow_user_certificates: true,
      allowed_users: '*',
      default_user: 'ubuntu',
      ttl: '8h',
      max_ttl: '12h',
    });
    await secrets('/ssh/roles/break-glass', { key_type: 'otp', default_user: 'root', cidr_list: '0.0.0.0/0' });
    // the LDAP engine rotates its root password (converge must never send the old one again),
    // and a library set's check-outs are made longer by hand
    await secrets('/ldap/rotate-root', {});
    await secrets('/ldap/library/batch', { ttl: '20h', max_ttl: '24h' });

    say('the plan shows the drift, and that the rotated LDAP root password is not sent again');
    await converge('plan', ['--detailed-exitcode'], [EXIT_CHANGES]);
    say('drift finds it (exit 2), as a nightly job would');
    await converge('drift', [], [EXIT_CHANGES]);
    say('the same report in Markdown, for a pull-request comment');
    await converge('drift', ['--format', 'markdown'], [EXIT_CHANGES]);
    say('demo complete: the emulator stops now');
    return EXIT_OK;
  } catch (error) {
    process.stderr.write(`demo failed: ${(error as Error).message}\n`);
    return EXIT_ERROR;
  } finally {
    await emulator.close();
    await rm(scratch, { recursive: true, force: true });
  }
}

async function admin(url: string, token: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${url}/api/v2${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/vnd.api+json' },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  if (!response.ok) {
    throw new ConvergeError('API_ERROR', `${method} ${path} answered ${response.status}: ${await response.text()}`);
  }
  return response.status === 204 ? undefined : ((await response.json()) as { data?: unknown });
}

async function secretsWrite(url: string, token: string, path: string, body: unknown): Promise<void> {
  const response = await fetch(`${url}/v1${path}`, {
    method: 'POST',
    headers: { 'x-service-token': token, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) {
    throw new ConvergeError('API_ERROR', `POST ${path} answered ${response.status}: ${await response.text()}`);
  }
}

async function firstVersion(url: string, token: string, version: string): Promise<string | undefined> {
  const found = await admin(url, token, 'GET', `/admin/tool-versions?filter%5Bversion%5D=${version}`);
  const data = found?.data as Array<{ id: string }> | undefined;
  return data?.[0]?.id;
}

function run(
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; expect: number[]; show: (line: string) => void },
): Promise<void> {
  options.show(args.join(' '));
  return new Promise<void>((done, fail) => {
    const child = spawn(process.execPath, [MAIN, ...args], { cwd: options.cwd, env: options.env, stdio: 'inherit' });
    child.on('error', fail);
    child.on('exit', (code) =>
      options.expect.includes(code ?? -1) ? done() : fail(new Error(`converge ${args[0]} exited ${code}`)),
    );
  });
}
