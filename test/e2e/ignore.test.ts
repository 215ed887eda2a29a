/**
 * Fields left to someone else (`ignore` in a document and in the configuration) and the
 * `(default)` label, through the CLI as a process against the emulator
 * (docs/environments.md, "Fields you leave to someone else"): an ignored field changed live is
 * never planned, never drift, and never sent (the live value survives an apply); a default the
 * manifest does not write is labelled in every format; a bad path is refused at its place with
 * no request sent.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { seedApply } from '../helpers/cli-seed.ts';
import { type CliTarget, cliTarget, NO_FINGERPRINTS } from '../helpers/cli-target.ts';

let target: CliTarget;
beforeAll(async () => {
  target = await cliTarget('ignore', NO_FINGERPRINTS);
});
afterAll(() => target?.close());

async function manifest(name: string, text: string): Promise<string> {
  const path = join(target.scratch, name);
  await writeFile(path, text);
  return path;
}

async function settings(attributes?: Record<string, unknown>): Promise<Record<string, unknown>> {
  const response = await fetch(`${target.emulator.url}/api/v2/admin/general-settings`, {
    method: attributes ? 'PATCH' : 'GET',
    headers: { authorization: `Bearer ${target.emulator.tokens.admin}`, 'content-type': 'application/vnd.api+json' },
    ...(attributes && { body: JSON.stringify({ data: { type: 'general-settings', attributes } }) }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: { attributes: Record<string, unknown> } }).data.attributes;
}

async function secrets(method: 'GET' | 'POST', path: string, body?: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${target.emulator.url}/v1${path}`, {
    method,
    headers: { 'x-service-token': target.emulator.tokens.secrets, 'content-type': 'application/json' },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  expect(response.status).toBeLessThan(300);
  return response.status === 204 ? {} : ((await response.json()) as { data: Record<string, unknown> }).data;
}

const GENERAL = (rateLimit: number, extra = '') =>
  `kind: GeneralSettings\nmetadata: {}\n${extra}spec:\n  api-rate-limit: ${rateLimit}\n  plan-timeout: 1h\n` +
  '  allow-speculative-plans-on-pull-requests-from-forks: false\n';

describe('a document that ignores fields', () => {
  beforeEach(async () => {
    await settings({ 'plan-timeout': '2h', 'api-rate-limit': 30 });
  });

  it('never plans, reports as drift nor sends a field it ignores, while the others are managed', async () => {
    const file = await manifest('general.yaml', GENERAL(40, 'ignore: [plan-timeout]\n'));
    expect((await target.run(['apply', file, '--auto-approve'])).code).toBe(0);
    // the manifest's 1h was not sent: the object already existed, so the field is someone else's
    expect(await settings()).toMatchObject({ 'plan-timeout': '2h', 'api-rate-limit': 40 });

    await settings({ 'plan-timeout': '5h' });
    const plan = await target.run(['plan', file]);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain('No changes');
    expect(plan.stdout).not.toContain('plan-timeout');
    const drift = await target.run(['drift', file, '--format', 'json']);
    expect(drift.code, drift.stdout).toBe(0);
    expect(JSON.parse(drift.stdout)).toMatchObject({ inSync: true });

    // another field changes: the update leaves the ignored one as someone else set it
    const next = await manifest('general.yaml', GENERAL(50, 'ignore: [plan-timeout]\n'));
    // apply prints the plan it runs (docs/commands.md), so one process shows the plan and applies it
    const updated = await target.run(['apply', next, '--auto-approve']);
    expect(updated.code, updated.stderr).toBe(0);
    expect(updated.stdout).toContain('api-rate-limit: 40 -> 50');
    expect(updated.stdout).toContain('GeneralSettings: ignored, never compared nor sent: plan-timeout');
    expect(await settings()).toMatchObject({ 'plan-timeout': '5h', 'api-rate-limit': 50 });
  });

  it('keeps what a role ignores when the role is written whole', async () => {
    const role = (user: string) =>
      'kind: SSHRole\nmetadata: {name: web}\nignore: [port]\n' +
      `spec: {key_type: otp, default_user: ${user}, cidr_list: 10.0.0.0/8, port: 2200}\n`;
    const file = await manifest('role.yaml', role('ubuntu'));
    expect((await target.run(['apply', file, '--auto-approve'])).code).toBe(0);
    // on create the manifest's value is sent, as Terraform's ignore_changes does
    const live = await secrets('GET', '/ssh/roles/web');
    expect(live).toMatchObject({ port: 2200 });

    await secrets('POST', '/ssh/roles/web', { ...live, port: 2222 });
    const changed = await manifest('role.yaml', role('admin'));
    // the plan as apply prints it before it runs it
    const applied = await target.run(['apply', changed, '--auto-approve']);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toMatch(/~ update SSHRole\/ssh\/web\n\s+default_user: "ubuntu" -> "admin"\n/);
    expect(applied.stdout).not.toContain('port:');
    // a role is written whole: the ignored port went back as it was read, not as the manifest says
    expect(await secrets('GET', '/ssh/roles/web')).toMatchObject({ port: 2222, default_user: 'admin' });
  });

  it('refuses a path that names no field of the kind at its file:line:col, and sends nothing', async () => {
    const file = await manifest(
      'bad.yaml',
      GENERAL(40, 'ignore:\n  - plan-timeout\n  - plan-timout\n  - apply-timeout.x\n  - "api-rate-limit."\n'),
    );
    target.emulator.resetStats();
    const result = await target.run(['plan', file]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'bad.yaml:5:5: ignore: "plan-timout" names no field of GeneralSettings; did you mean "plan-timeout"?',
    );
    // below a field that holds no map: it would cover nothing, while plans said the field was ignored
    expect(result.stderr).toContain('bad.yaml:6:5: ignore: "apply-timeout.x" names no field of GeneralSettings');
    expect(result.stderr).toContain(
      'bad.yaml:7:5: ignore: "api-rate-limit." is no field path: it has an empty segment',
    );
    expect(target.emulator.stats().total).toBe(0);
  });
});

describe("the configuration's ignore entries", () => {
  it('leave the fields of every object of a kind to someone else', async () => {
    await writeFile(
      join(target.scratch, 'converge.config.yaml'),
      'ignore:\n  - kind: GeneralSettings\n    fields: [apply-timeout, plan-timeout]\n',
    );
    try {
      // the starting state, applied in-process; the apply below, as a process, is the one that must leave them
      const file = await manifest('general.yaml', GENERAL(60));
      await seedApply(target, [file]);
      await settings({ 'apply-timeout': '3h', 'plan-timeout': '4h' });
      const plan = await target.run(['plan', file]);
      expect(plan.code, plan.stderr).toBe(0);
      expect(plan.stdout).toContain('No changes');
      expect((await target.run(['drift', file])).code).toBe(0);
      await writeFile(file, GENERAL(61));
      expect((await target.run(['apply', file, '--auto-approve'])).code).toBe(0);
      expect(await settings()).toMatchObject({ 'apply-timeout': '3h', 'plan-timeout': '4h', 'api-rate-limit': 61 });
    } finally {
      await writeFile(join(target.scratch, 'converge.config.yaml'), '{}\n');
    }
  });

  it('refuse an unknown kind or field, naming the file and the entry, before any request', async () => {
    const config = join(target.scratch, 'bad.config.yaml');
    await writeFile(
      config,
      'ignore:\n  - kind: GeneralSetting\n    fields: [plan-timeout]\n  - kind: SSHRole\n    fields: [ttl, prot]\n',
    );
    const file = await manifest('general.yaml', GENERAL(60));
    target.emulator.resetStats();
    const result = await target.run(['plan', file, '--config', config]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `${config}: ignore[0]: unknown kind "GeneralSetting"; did you mean "GeneralSettings"?`,
    );
    expect(result.stderr).toContain(`${config}: ignore[1]: "prot" names no field of SSHRole; did you mean "port"?`);
    expect(target.emulator.stats().total).toBe(0);
  });
});

describe("the configuration's ownership entries", () => {
  it('refuse an unknown kind as ignore entries do: the file, the entry, a suggestion, before any request', async () => {
    const config = join(target.scratch, 'owner.config.yaml');
    await writeFile(config, 'ownership:\n  - kind: ToolVersion\n  - kind: SshRole\n');
    const file = await manifest('general.yaml', GENERAL(60));
    target.emulator.resetStats();
    const result = await target.run(['plan', file, '--config', config]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`${config}: ownership[1]: unknown kind "SshRole"; did you mean "SSHRole"?`);
    expect(target.emulator.stats().total).toBe(0);
  });
});

describe('a field left at its default', () => {
  const FORKS = 'allow-speculative-plans-on-pull-requests-from-forks';
  const quiet = 'kind: GeneralSettings\nmetadata: {}\nspec:\n  api-rate-limit: 30\n';

  beforeEach(async () => {
    // every other field at its default: the only difference is the one the manifest leaves out
    await settings({ [FORKS]: true, 'api-rate-limit': 30, 'plan-timeout': '2h', 'apply-timeout': '24h' });
  });

  it('is labelled (default) in plan text, JSON and Markdown, with how to opt out', async () => {
    const file = await manifest('defaults.yaml', quiet);
    const text = await target.run(['plan', file]);
    expect(text.stdout).toContain(`${FORKS}: true -> false (default)`);
    expect(text.stdout).toContain('write the field to keep another value, or list it under ignore');
    const json = JSON.parse((await target.run(['plan', file, '--format', 'json'])).stdout);
    const changes = json.plan.actions.find((a: { kind: string }) => a.kind === 'GeneralSettings').changes;
    expect(changes).toContainEqual({ path: FORKS, before: true, after: false, default: true });
    const markdown = await target.run(['plan', file, '--format', 'markdown']);
    expect(markdown.stdout).toContain(`<code>${FORKS}</code> (default) | <code>true</code> | <code>false</code>`);
  });

  it('is labelled (default) in drift text, JSON and Markdown', async () => {
    const file = await manifest('defaults.yaml', quiet);
    const text = await target.run(['drift', file]);
    expect(text.code).toBe(2);
    expect(text.stdout).toContain(`${FORKS}: true -> false (default)`);
    expect(text.stdout).toContain('list it under ignore to leave it to someone else');
    const json = JSON.parse((await target.run(['drift', file, '--format', 'json'])).stdout);
    expect(json.objects[0].changes).toContainEqual({
      path: FORKS,
      secret: false,
      before: true,
      after: false,
      default: true,
    });
    const markdown = await target.run(['drift', file, '--format', 'markdown']);
    expect(markdown.stdout).toContain(`<code>${FORKS}</code> (default) | <code>true</code> | <code>false</code>`);
  });

  it('is no change once written or ignored', async () => {
    const written = await manifest('defaults.yaml', `${quiet}  ${FORKS}: true\n`);
    expect((await target.run(['plan', written])).stdout).toContain('No changes');
    const ignored = await manifest('defaults.yaml', quiet.replace('spec:', `ignore: [${FORKS}]\nspec:`));
    expect((await target.run(['drift', ignored])).code).toBe(0);
  });
});
