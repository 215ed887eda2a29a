/**
 * Secrets: every command runs with canary values in every secret variable
 * (and a canary token); no canary appears in stdout, stderr, any file
 * written (plans, reports, exports, .env.example, the fingerprint store) or
 * the emulator's log lines.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliResult, converge } from '../helpers/cli.ts';
import { api, type Target } from '../helpers/engine.ts';
import { KINDS_FIXTURE, kindsFixtureSecrets, SSH_CA_KEY_CANARIES } from '../helpers/kinds-fixture.ts';
import { type Emulator, emulator, scratchDir } from './support.ts';

const KINDS = KINDS_FIXTURE;

/** A canary for every secret the kinds fixture reads, and rotated ones for a second round. */
const CANARIES = kindsFixtureSecrets('canary-7f3e');
const ROTATED = kindsFixtureSecrets('canary-rot');
/** The saved plans' key: a canary too, like the tokens its digests are otherwise keyed with. */
const PLAN_KEY = 'canary-plan-key-5d21';

let server: Emulator;
let target: Target;
let scratch: Awaited<ReturnType<typeof scratchDir>>;
const outputs: Array<{ what: string; text: string }> = [];
/** drift's report formats. */
const FORMATS = ['text', 'json', 'markdown', 'junit'] as const;

function canaries(): string[] {
  // the SSH CA's private key is one value across tags: each line of it is a canary of its own
  return [
    ...Object.values(CANARIES),
    ...Object.values(ROTATED),
    ...SSH_CA_KEY_CANARIES,
    server.tokens.admin,
    server.tokens.secrets,
    PLAN_KEY,
  ];
}

async function run(args: string[], secrets: Record<string, string> = CANARIES): Promise<CliResult> {
  const result = await converge(args, {
    cwd: scratch.dir,
    env: {
      CONVERGE_PLATFORM_URL: server.url,
      CONVERGE_PLATFORM_TOKEN: server.tokens.admin,
      CONVERGE_SECRETS_URL: server.url,
      CONVERGE_SECRETS_TOKEN: server.tokens.secrets,
      CONVERGE_FINGERPRINTS: join(scratch.dir, 'fingerprints.json'),
      CONVERGE_PLAN_KEY: PLAN_KEY,
      ...secrets,
    },
  });
  outputs.push(
    { what: `${args.join(' ')} (stdout)`, text: result.stdout },
    { what: `${args.join(' ')} (stderr)`, text: result.stderr },
  );
  return result;
}

/** Every file under the scratch directory, recursively. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

beforeAll(async () => {
  server = await emulator();
  target = { url: server.url, token: server.tokens.admin };
  scratch = await scratchDir('secrets');
});
afterAll(async () => {
  await server?.close();
  await scratch?.remove();
});

/*
 * Commands that change nothing (validate, plan, drift, export) and do not
 * depend on each other run at the same time: each is a process of its own,
 * mostly start-up, and the machine has more than one core. What each prints
 * and writes is checked as when they ran one after the other.
 */
describe('no secret in any output', () => {
  it('validate, plan, plan --out, plan --json, apply (a saved plan), and plan again', async () => {
    // `plan --out` prints the text plan as `plan` does and saves the plan: one process for both outputs
    const [validated, planned, json] = await Promise.all([
      run(['validate', KINDS]),
      run(['plan', KINDS, '--detailed-exitcode', '--out', 'plan.json']),
      run(['plan', KINDS, '--json']),
    ]);
    expect(validated.code).toBe(0);
    expect(planned.code).toBe(2);
    expect(planned.stdout).toContain('SMTPSettings');
    expect(json.code).toBe(0);
    const applied = await run(['apply', 'plan.json']);
    expect(applied.code, applied.stderr).toBe(0);
    expect((await run(['plan', KINDS, '--detailed-exitcode'])).code).toBe(0);
    // the secrets did reach the API: what the emulator stores readably is the canary
    const cost = await api(target, 'GET', '/admin/cost-estimation-settings');
    expect(JSON.stringify(cost.body)).toContain(CANARIES.CLOUD_A_KEY_ID);
  }, 60_000);

  it('plan and apply with rotated secrets, --resend-secrets, and an apply that fails with an API error', async () => {
    const [rotated, resend] = await Promise.all([
      run(['plan', KINDS, '--json'], ROTATED),
      run(['plan', KINDS, '--resend-secrets']),
    ]);
    expect(rotated.code).toBe(0);
    expect(rotated.stdout).toMatch(/changed since last apply/);
    expect(resend.code).toBe(0);
    const failing = join(scratch.dir, 'failing.yaml');
    await writeFile(
      failing,
      [
        'kind: SMTPSettings',
        'spec:',
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the manifests' placeholder syntax
        '  password: ${env:SMTP_PASSWORD}',
        '---',
        'kind: SMSSettings',
        'spec:',
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the manifests' placeholder syntax
        '  auth-token: ${env:SMS_TOKEN}',
        '---',
        'kind: AdminUser',
        'metadata: {name: owner}',
        'ensure: absent',
      ].join('\n'),
    );
    const failed = await run(['apply', failing, '--auto-approve'], ROTATED);
    expect(failed.code).toBe(1);
    expect(failed.stdout).toMatch(/sole owner/i);
    const resent = await run(['apply', KINDS, '--auto-approve', '--resend-secrets'], ROTATED);
    expect(resent.code, resent.stderr).toBe(0);
  }, 60_000);

  it('drift in every format, to stdout and to files', async () => {
    // something changed behind converge's back, and a secret rotated
    await api(target, 'PATCH', '/admin/smtp-settings', {
      data: { type: 'smtp-settings', attributes: { sender: 'someone@example.com' } },
    });
    // a report goes to stdout or to --output as the same text, redacted the same way (src/cli/run/drift.ts,
    // src/ui/output.ts): each format's file shows what it would print. The text format also goes to
    // stdout, for the path to the terminal; with --output, stdout has the one-line summary.
    const [shown, ...filed] = await Promise.all([
      run(['drift', KINDS, '--format', 'text']),
      ...FORMATS.map((format) => run(['drift', KINDS, '--format', format, '--output', `drift.${format}`])),
    ]);
    expect(shown?.code, shown?.stderr).toBe(2);
    expect(shown?.stdout).toContain('SMTPSettings');
    expect(shown?.stdout).toContain('sender');
    for (const [i, format] of FORMATS.entries()) {
      expect(filed[i]?.code, `${format}: ${filed[i]?.stderr}`).toBe(2);
      expect(filed[i]?.stdout).toContain(`Report (${format}) written to drift.${format}`);
      const report = await readFile(join(scratch.dir, `drift.${format}`), 'utf8');
      expect(report, format).toContain('SMTPSettings');
      expect(report, format).toContain('sender');
    }
  }, 60_000);

  it('export, one file per kind and one per object, with .env.example', async () => {
    const exports = [
      ['exported', []],
      ['exported-split', ['--split']],
    ] as const;
    await Promise.all(
      exports.map(async ([out, split]) => {
        const exported = await run(['export', '--out', out, ...split]);
        expect(exported.code, exported.stderr).toBe(0);
        const envExample = await readFile(join(scratch.dir, out, '.env.example'), 'utf8');
        expect(envExample).toMatch(/SMTP_SETTINGS_PASSWORD=/);
        expect(envExample).toMatch(/COST_ESTIMATION_SETTINGS_CLOUD_A_ACCESS_KEY_ID=/);
      }),
    );
  }, 60_000);

  it('none of the above printed or wrote a canary, nor did the emulator log one', async () => {
    const files = await filesUnder(scratch.dir);
    for (const name of [
      'plan.json',
      'fingerprints.json',
      'drift.junit',
      'drift.markdown',
      'drift.json',
      'drift.text',
    ]) {
      expect(
        files.some((f) => f.endsWith(name)),
        name,
      ).toBe(true);
    }
    expect(files.filter((f) => f.includes('exported-split')).length).toBeGreaterThan(6);
    const texts = [
      ...outputs,
      ...(await Promise.all(files.map(async (f) => ({ what: f, text: await readFile(f, 'utf8') })))),
      { what: 'emulator log', text: server.logs.join('\n') },
    ];
    expect(outputs.length).toBeGreaterThan(20);
    for (const { what, text } of texts) {
      for (const canary of canaries()) expect(text.includes(canary), `${canary} in ${what}`).toBe(false);
    }
    // a saved plan keeps keyed digests only: no plain digest of a secret that a guess could be tested against
    const plan = await readFile(join(scratch.dir, 'plan.json'), 'utf8');
    for (const canary of canaries()) {
      for (const form of [canary, JSON.stringify(canary)]) {
        for (const algorithm of ['sha256', 'sha1', 'md5']) {
          const digest = createHash(algorithm).update(form).digest('hex');
          expect(plan.includes(digest), `${algorithm} of ${canary} in plan.json`).toBe(false);
        }
      }
    }
  });
});
