/**
 * Saved plans are records of what was reviewed, never programs (issue: saved
 * plans trusted). `apply FILE` plans again and runs only if every action is
 * the one in the file; tampered, foreign, empty or malformed files are
 * refused with one line and exit 1, and nothing is sent.
 */
import { spawnSync } from 'node:child_process';
import { appendFile, cp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type RunningEmulator, startEmulator } from '../../src/emulator/server.ts';
import { converge } from '../helpers/cli.ts';
import { type CliTarget, cliTarget, NO_FINGERPRINTS } from '../helpers/cli-target.ts';
import { api, apply, changes, desiredFrom, plan as planInProcess } from '../helpers/engine.ts';
import { tempDir } from '../helpers/temp-dir.ts';

let emulator: RunningEmulator;
let scratch: string;
let manifests: string;
let planFile: string;

const MANIFESTS = [
  'kind: GeneralSettings',
  'spec: {api-rate-limit: 45}',
  '---',
  'kind: ToolVersion',
  'metadata: {name: 9.9.9}',
  'spec: {url: "https://example.com/t.zip", sha: "' + 'a'.repeat(64) + '"}',
].join('\n');

beforeEach(async () => {
  scratch = await tempDir('saved');
  manifests = join(scratch, 'm.yaml');
  planFile = join(scratch, 'plan.json');
  await writeFile(manifests, MANIFESTS);
});
afterEach(() => rm(scratch, { recursive: true, force: true }));

/**
 * `emulator`, the server `run` plans against unless told another, started only in the blocks that
 * use it (a start is about 70 ms of CPU, and most tests here use a server of their own): one for
 * the whole block where no test depends on what another left (`perBlock`), else one per test.
 */
function withEmulator(perBlock: boolean) {
  const start = async () => {
    emulator = await startEmulator({ port: 0 });
  };
  const close = () => emulator.close();
  if (perBlock) {
    beforeAll(start);
    beforeEach(() => emulator.resetStats());
    afterAll(close);
  } else {
    beforeEach(start);
    afterEach(close);
  }
}

const envFor = (server: RunningEmulator) => ({
  CONVERGE_PLATFORM_URL: server.url,
  CONVERGE_PLATFORM_TOKEN: server.tokens.admin,
  CONVERGE_SECRETS_URL: server.url,
  CONVERGE_SECRETS_TOKEN: server.tokens.secrets,
  ...NO_FINGERPRINTS,
});
const run = (args: string[], server = emulator, extra: Record<string, string> = {}) =>
  converge(args, { cwd: scratch, env: { ...envFor(server), ...extra } });
const writes = (server = emulator) => Object.keys(server.stats().byRoute).filter((route) => !route.startsWith('GET '));

async function savedPlan(): Promise<Record<string, unknown> & { plan: { actions: Array<Record<string, unknown>> } }> {
  expect((await run(['plan', manifests, '--out', planFile])).code).toBe(0);
  return JSON.parse(await readFile(planFile, 'utf8'));
}

interface Reviewed {
  server: RunningEmulator;
  dir: string;
  text: string;
}
let reviewed: Promise<Reviewed> | undefined;

/**
 * One plan of MANIFESTS, made once for the file against a server of its own, for the tests that
 * apply a copy of it and are refused with nothing sent: none of them changes what the plan was
 * made against, so each finds the server as the plan left it, as a plan of its own would.
 */
function reviewedPlan(): Promise<Reviewed> {
  reviewed ??= (async () => {
    const server = await startEmulator({ port: 0 });
    const dir = await tempDir('saved-reviewed');
    await writeFile(join(dir, 'm.yaml'), MANIFESTS);
    const made = await converge(['plan', join(dir, 'm.yaml'), '--out', join(dir, 'plan.json')], {
      cwd: dir,
      env: envFor(server),
    });
    expect(made.code, made.stderr).toBe(0);
    return { server, dir, text: await readFile(join(dir, 'plan.json'), 'utf8') };
  })();
  return reviewed;
}
afterAll(async () => {
  if (!reviewed) return;
  const { server, dir } = await reviewed;
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

/** The reviewed plan, edited, applied against the server it was made against (`server`). */
async function applyEdited(
  edit: (saved: Awaited<ReturnType<typeof savedPlan>>) => void,
  extra: Record<string, string> = {},
) {
  const { server, dir, text } = await reviewedPlan();
  const saved = JSON.parse(text);
  edit(saved);
  await writeFile(planFile, JSON.stringify(saved));
  server.resetStats();
  return { server, result: await converge(['apply', planFile], { cwd: dir, env: { ...envFor(server), ...extra } }) };
}

describe('apply of a saved plan', () => {
  // the refusals of malformed files below send nothing, whatever the server holds
  withEmulator(true);

  it('refuses an injected delete, whatever the counts say, and sends nothing', async () => {
    const { server, result } = await applyEdited((saved) => {
      saved.plan.actions.push({
        key: 'AdminUser/owner',
        kind: 'AdminUser',
        address: { kind: 'AdminUser', name: 'owner' },
        action: 'delete',
        changes: [],
        dependsOn: [],
        ref: 'user-owner',
      });
      (saved.plan as Record<string, unknown>).counts = { create: 1, update: 1 };
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('AdminUser/owner: the file says delete, planning now says nothing to do');
    expect(result.stderr).toContain('nothing was sent');
    expect(writes(server)).toEqual([]);
  });

  it('refuses a plan whose shown value was edited', async () => {
    const { server, result } = await applyEdited((saved) => {
      const update = saved.plan.actions.find((a) => a.key === 'GeneralSettings') as {
        changes: Array<{ after?: unknown }>;
      };
      update.changes[0]!.after = 30;
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("GeneralSettings: the file's update differs from the update planned now");
    expect(writes(server)).toEqual([]);
  });

  it('refuses a plan with an action removed', async () => {
    const { server, result } = await applyEdited((saved) => {
      saved.plan.actions = saved.plan.actions.filter((a) => a.key !== 'ToolVersion/9.9.9');
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('ToolVersion/9.9.9: planning now says create, the file does not');
    expect(writes(server)).toEqual([]);
  });

  it('refuses a plan made against another server', async () => {
    const { server, text } = await reviewedPlan();
    await writeFile(planFile, text);
    const other = await startEmulator({ port: 0 });
    try {
      const result = await run(['apply', planFile], other);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('the plan was made against other servers');
      expect(result.stderr).toContain(`platform: planned against ${server.url}, now ${other.url}`);
      expect(writes(other)).toEqual([]);
    } finally {
      await other.close();
    }
  });

  it('applies an untouched plan, and then there is nothing left to do', async () => {
    await savedPlan();
    const applied = await run(['apply', planFile]);
    expect(applied.code).toBe(0);
    expect(applied.stdout).toContain('Apply complete: 1 updated, 1 created');
    // nothing left, planned in-process: the CLI's apply is what this test runs as a process
    const after = await planInProcess(
      { url: emulator.url, token: emulator.tokens.admin },
      await desiredFrom([manifests]),
    );
    expect(after.problems).toEqual([]);
    expect(changes(after.plan.actions)).toEqual([]);
  });

  it('never waits on a FIFO given as the one argument: refused at once as not a regular file', async () => {
    const fifo = join(scratch, 'plan.fifo');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const result = await run(['apply', fifo, '--auto-approve']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('is not a regular file (a device, FIFO or socket)');
    expect(writes()).toEqual([]);
  });

  it('applies a saved plan under any file name, known by its content; a manifest of any name stays a manifest', async () => {
    // a YAML manifest named .yml: planned and applied as a manifest (the rate limit moves off the plan's 45)
    const manifest = join(scratch, 'settings.yml');
    await writeFile(manifest, 'kind: GeneralSettings\nspec:\n  api-rate-limit: 77\n');
    const moved = await run(['apply', manifest, '--auto-approve']);
    expect(moved.code, moved.stderr).toBe(0);
    expect(moved.stdout).toContain('Apply complete: 1 updated');

    await savedPlan();
    const other = join(scratch, 'plan.out');
    await writeFile(other, await readFile(planFile, 'utf8'));
    const applied = await run(['apply', other]);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toMatch(/Apply complete: 1 updated/);
    expect(writes()).toContain('PATCH /api/v2/admin/general-settings');
  });

  it.each([
    ['an empty file', '', 'the file is empty, not a saved plan'],
    ['whitespace', '  \n', 'the file is empty, not a saved plan'],
    ['not JSON', '{"format": "converge-plan", ', 'not a saved plan:'],
    ['a JSON list', '[]', 'not a saved plan (not a JSON object)'],
    ['another JSON object', '{"a": 1}', 'not a saved plan (no "format": "converge-plan")'],
    ['an old version', '{"format": "converge-plan", "version": 1}', 'plan format version 1 is not supported'],
    ['the previous version', '{"format": "converge-plan", "version": 2}', 'plan format version 2 is not supported'],
    [
      'a plan without its parts',
      '{"format": "converge-plan", "version": 3, "plan": {"actions": "all"}}',
      'not a well-formed saved plan (manifests; config; options; servers; key; desired; live; plan.actions; integrity)',
    ],
  ])('refuses %s with one clear line and exit 1', async (_what, text, message) => {
    await writeFile(planFile, text);
    const result = await run(['apply', planFile]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(message);
    expect(result.stderr).not.toMatch(/hit a bug|at .*\.ts:\d+/);
    expect(emulator.stats().total).toBe(0);
  });
});

/** Tool versions live on the server that only a wider configuration's ownership would prune. */
const LIVE_TOOLS = ['1.0.0', '1.1.0', '2.0.0']
  .map(
    (v) =>
      `kind: ToolVersion\nmetadata: {name: ${v}}\nspec: {url: "https://example.com/${v}.zip", sha: "${'b'.repeat(64)}"}`,
  )
  .join('\n---\n');
const NARROW = 'ownership:\n  - {kind: ToolVersion, name: "1.0.*"}\n';
const WIDE = 'ownership:\n  - {kind: ToolVersion}\nguard: {maxDeletes: 1000}\n';

describe('what a saved plan covers: configuration, options and targets', () => {
  /**
   * One server holding LIVE_TOOLS and one plan of MANIFESTS made with `-c narrow`, made once for
   * this block (a plan is a process of about 1 s of CPU): the refusals below send nothing and put
   * back what they edit, so each finds the server and the configuration as the plan left them, as
   * a plan of its own would. The one test that applies the plan runs last.
   */
  let server: RunningEmulator;
  let dir: string;
  let narrow: string;
  let wide: string;
  let narrowPlan: string;
  beforeAll(async () => {
    server = await startEmulator({ port: 0 });
    dir = await tempDir('saved-config');
    const tools = join(dir, 'tools.yaml');
    await writeFile(tools, LIVE_TOOLS);
    // what the server holds, set up in-process: the CLI's apply is not what these test
    await apply({ url: server.url, token: server.tokens.admin }, await desiredFrom([tools]));
    narrow = join(dir, 'narrow.yaml');
    wide = join(dir, 'wide.yaml');
    await writeFile(narrow, NARROW);
    await writeFile(wide, WIDE);
    await writeFile(join(dir, 'm.yaml'), MANIFESTS);
    narrowPlan = JSON.stringify(await plan(join(dir, 'narrow-plan.json'), ['-c', narrow]));
  });
  afterAll(async () => {
    await server?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const plan = async (file: string, args: string[]) => {
    // in the block's directory: the test's scratch directory does not exist yet in beforeAll
    const made = await converge(['plan', join(dir, 'm.yaml'), ...args, '--out', file], {
      cwd: dir,
      env: envFor(server),
    });
    expect(made.code, made.stderr).toBe(0);
    return JSON.parse(await readFile(file, 'utf8'));
  };
  const toolsLeft = async () => {
    const response = await fetch(`${server.url}/api/v2/admin/tool-versions`, {
      headers: { authorization: `Bearer ${server.tokens.admin}` },
    });
    return ((await response.json()).data as Array<{ attributes: { version: string } }>).map(
      (t) => t.attributes.version,
    );
  };
  const sent = () => Object.keys(server.stats().byRoute).filter((route) => !route.startsWith('GET '));

  it('refuses a file pointed at another configuration, with prune and its actions pasted in, before reading anything', async () => {
    const reviewed = JSON.parse(narrowPlan);
    const other = await plan(join(scratch, 'other.json'), ['-c', wide, '--prune']);
    expect(other.plan.actions.filter((a: { action: string }) => a.action === 'delete')).toHaveLength(3);
    reviewed.config = other.config;
    reviewed.options.prune = true;
    reviewed.plan = other.plan;
    reviewed.live = other.live;
    reviewed.desired = other.desired;
    await writeFile(planFile, JSON.stringify(reviewed));
    server.resetStats();
    const result = await run(['apply', planFile], server);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('the plan file was changed after converge wrote it');
    expect(result.stderr).toContain(`the configuration it names (${wide}) was not used; nothing was sent`);
    expect(server.stats().total).toBe(0);
    expect((await toolsLeft()).sort()).toEqual(expect.arrayContaining(['1.0.0', '1.1.0', '2.0.0']));
  });

  it.each([
    ['prune', (saved: Record<string, { prune: boolean }>) => (saved.options!.prune = true)],
    ['targets', (saved: Record<string, { targets: string[] }>) => (saved.options!.targets = ['ToolVersion'])],
    ['resendSecrets', (saved: Record<string, { resendSecrets: boolean }>) => (saved.options!.resendSecrets = true)],
  ])('refuses a file whose %s was edited, and sends nothing', async (_what, edit) => {
    const { server, result } = await applyEdited((saved) => edit(saved as never));
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('the saved plan cannot be applied; nothing was sent');
    expect(result.stderr).toContain('the plan file was changed after converge wrote it');
    expect(writes(server)).toEqual([]);
  });

  it('refuses, without -c, a configuration the plan names whose content changed since', async () => {
    await writeFile(planFile, narrowPlan);
    await writeFile(narrow, WIDE);
    try {
      server.resetStats();
      const result = await run(['apply', planFile], server);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`the configuration differs from the plan's (${narrow}) in:`);
      expect(result.stderr).not.toContain('the plan file was changed');
      expect(sent()).toEqual([]);
    } finally {
      await writeFile(narrow, NARROW);
    }
  });

  it('refuses a command-line option that would change the plan', async () => {
    await writeFile(planFile, narrowPlan);
    server.resetStats();
    const result = await run(['apply', planFile, '--prune', '-t', 'ToolVersion'], server);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      '--prune, --target cannot change a saved plan: it applies with the options it was made with (prune: false, targets: all)',
    );
    expect(server.stats().total).toBe(0);
  });

  // last in this block: it applies the shared plan, which changes the server
  it('applies with the -c given, and refuses it when its content differs from the plan’s, naming the sections', async () => {
    await writeFile(planFile, narrowPlan);
    server.resetStats();
    const refused = await run(['apply', planFile, '-c', wide], server);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      `the configuration differs from the plan's (planned with ${narrow}, now ${wide}) in:`,
    );
    expect(refused.stderr).toMatch(/in:\n {4}guard\.maxDeletes\n {4}ownership\n/);
    expect(sent()).toEqual([]);

    // the same content under another name (in the same directory, so the same fingerprint store) is the same configuration
    const copy = join(dir, 'narrow-copy.yaml');
    await writeFile(copy, `# a copy\n${NARROW}`);
    const applied = await run(['apply', planFile, '-c', copy], server);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toContain('Apply complete: 1 updated, 1 created');
  });
});

describe('what a saved plan covers: secrets and keys', () => {
  withEmulator(false);

  const SMTP = [
    'kind: SMTPSettings',
    'spec:',
    '  enabled: true',
    '  host: smtp.example.com',
    '  port: 587',
    '  sender: platform@example.com',
    '  auth: login',
    '  username: mailer',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the manifests' placeholder syntax
    '  password: ${env:SMTP_PASSWORD}',
  ].join('\n');

  it('refuses a plan made for one secret value when its source now holds another, naming the object and field', async () => {
    await writeFile(manifests, SMTP);
    const made = await run(['plan', manifests, '--out', planFile], emulator, { SMTP_PASSWORD: 'first-password-1' });
    expect(made.code, made.stderr).toBe(0);
    emulator.resetStats();
    const third = await run(['apply', planFile], emulator, { SMTP_PASSWORD: 'third-password-3' });
    expect(third.code).toBe(1);
    expect(third.stderr).toContain(
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the placeholder as the message names it
      'SMTPSettings: password: its source changed since the plan (${env:SMTP_PASSWORD})',
    );
    expect(third.stderr).not.toContain('the file was edited');
    expect(third.stderr + third.stdout).not.toMatch(/first-password|third-password/);
    expect(writes()).toEqual([]);
    const planned = await readFile(planFile, 'utf8');
    expect(planned).not.toContain('first-password-1');

    const same = await run(['apply', planFile], emulator, { SMTP_PASSWORD: 'first-password-1' });
    expect(same.code, same.stderr).toBe(0);
  });

  it('reports a live change with its field', async () => {
    await savedPlan();
    await api({ url: emulator.url, token: emulator.tokens.admin }, 'PATCH', '/admin/general-settings', {
      data: { type: 'general-settings', attributes: { 'api-rate-limit': 99 } },
    });
    emulator.resetStats();
    const result = await run(['apply', planFile]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'live state changed since the plan was made. Changed:\n    GeneralSettings: api-rate-limit\n',
    );
    expect(writes()).toEqual([]);
  });

  it('keys a plan with CONVERGE_PLAN_KEY when set, and refuses it without the key', async () => {
    const key = { CONVERGE_PLAN_KEY: 'shared-plan-key-for-tests' };
    const made = await run(['plan', manifests, '--out', planFile], emulator, key);
    expect(made.code, made.stderr).toBe(0);
    expect(await readFile(planFile, 'utf8')).not.toContain(key.CONVERGE_PLAN_KEY);
    emulator.resetStats();
    const without = await run(['apply', planFile]);
    expect(without.code).toBe(1);
    expect(without.stderr).toContain(
      'the plan was made with CONVERGE_PLAN_KEY, which is not set now or holds another value: none of its digests can be checked; nothing was sent',
    );
    expect(emulator.stats().total).toBe(0);
    const applied = await run(['apply', planFile], emulator, key);
    expect(applied.code, applied.stderr).toBe(0);
  });

  it('refuses a plan made with other API tokens', async () => {
    const { server: planned } = await reviewedPlan();
    const { server, result } = await applyEdited(() => {}, { CONVERGE_PLATFORM_TOKEN: planned.tokens.owner });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('the plan was made with other API tokens: none of its digests can be checked');
    expect(server.stats().total).toBe(0);
  });
});

describe('what a saved plan covers: content read from files', () => {
  const EXAMPLES = fileURLToPath(new URL('../../examples/', import.meta.url));
  let target: CliTarget;
  afterEach(() => target?.close());
  const sent = () => Object.keys(target.emulator.stats().byRoute).filter((route) => !route.startsWith('GET '));

  /** Plans `manifests` to a file, appends `text` to a file the plan read, and applies the plan: refused. */
  async function editedAfterPlan(manifests: string, edited: string, text: string) {
    const out = join(target.scratch, 'plan.json');
    const made = await target.run(['plan', manifests, '--out', out]);
    expect(made.code, made.stderr).toBe(0);
    await appendFile(join(target.scratch, edited), text);
    target.emulator.resetStats();
    const result = await target.run(['apply', out]);
    expect(result.code).toBe(1);
    return result;
  }

  it("refuses a plan whose module's files changed since, naming the version and the directory; nothing is published", async () => {
    target = await cliTarget('saved-module', NO_FINGERPRINTS);
    await cp(join(EXAMPLES, 'modules/network'), join(target.scratch, 'network'), { recursive: true });
    const file = join(target.scratch, 'modules.yaml');
    await writeFile(
      file,
      'kind: RegistryModule\nmetadata: {organization: example-org, name: network, provider: aws}\nspec: {versions: [{version: 1.0.0, source: network}]}\n',
    );
    const result = await editedAfterPlan(file, 'network/main.tf', '\n# edited after the review\n');
    expect(result.stderr).toContain(
      'RegistryModuleVersion/example-org/network/aws/1.0.0: digest: the content of network changed since the plan',
    );
    expect(sent()).toEqual([]);
  });

  it('refuses a plan whose LDIF file changed since, naming the role, the field and the file', async () => {
    target = await cliTarget('saved-ldif', NO_FINGERPRINTS);
    for (const part of ['config.yaml', 'dynamic-roles.yaml', 'ldif']) {
      await cp(join(EXAMPLES, 'base/ldap', part), join(target.scratch, part), { recursive: true });
    }
    const result = await editedAfterPlan(
      target.scratch,
      'ldif/readonly-create.ldif.tmpl',
      'title: edited after the review\n',
    );
    expect(result.stderr).toContain(
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the placeholder as the message names it
      'LDAPDynamicRole/ldap/readonly: creation_ldif: its source changed since the plan (${file:ldif/readonly-create.ldif.tmpl})',
    );
    expect(result.stderr).not.toContain('edited after the review');
    expect(sent()).toEqual([]);
  });
});
