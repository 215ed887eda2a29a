/**
 * `converge drift` as a process against the emulator: in sync exits 0, a
 * change made behind converge's back exits 2 and shows in every format,
 * --output writes the report, nothing is ever changed, no secret is printed.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/server.ts';
import { seedApply } from '../helpers/cli-seed.ts';
import { type CliTarget, cliTarget } from '../helpers/cli-target.ts';
import { all, parseXml } from '../unit/ui/drift/xml.ts';

/** The example repository's staging environment: what every environment shares, and its own objects. */
const EXAMPLES = ['base', 'environments/staging'].map((dir) =>
  fileURLToPath(new URL(`../../examples/${dir}/`, import.meta.url)),
);
const BAD = fileURLToPath(new URL('../fixtures/manifests/bad/type-integer.yaml', import.meta.url));
const SMTP_PASSWORD = 'canary-drift-smtp-password-7731';

let target: CliTarget;
let emulator: RunningEmulator;
let scratch: string;

const run: CliTarget['run'] = (args, extra) => target.run(args, extra);

async function patchSettings(type: string, attributes: Record<string, unknown>): Promise<void> {
  const response = await fetch(`${emulator.url}/api/v2/admin/${type}`, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${emulator.tokens.admin}`, 'content-type': 'application/vnd.api+json' },
    body: JSON.stringify({ data: { type, attributes } }),
  });
  expect(response.status).toBe(200);
}

async function rateLimit(): Promise<unknown> {
  const response = await fetch(`${emulator.url}/api/v2/admin/general-settings`, {
    headers: { authorization: `Bearer ${emulator.tokens.admin}` },
  });
  const body = (await response.json()) as { data: { attributes: Record<string, unknown> } };
  return body.data.attributes['api-rate-limit'];
}

function writes(): number {
  return Object.entries(emulator.stats().byRoute)
    .filter(([route]) => !route.startsWith('GET '))
    .reduce((n, [, count]) => n + count, 0);
}

function expectNoSecret(...texts: string[]) {
  for (const text of texts) {
    expect(text).not.toContain(SMTP_PASSWORD);
    expect(text).not.toContain(emulator.tokens.admin);
  }
}

beforeAll(async () => {
  target = await cliTarget('drift', { SMTP_PASSWORD });
  ({ emulator, scratch } = target);
  // applied in-process, fingerprints kept as the CLI keeps them: drift is what this file runs as a process
  await seedApply(target, EXAMPLES);
});
afterAll(() => target?.close());

describe('converge drift', () => {
  it('exits 0 and says so when live state matches the manifests', async () => {
    const result = await run(['drift', ...EXAMPLES]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^Drift against http:\/\/127\.0\.0\.1:\d+ at \d{4}-/);
    expect(result.stdout).toMatch(/No drift: 30 object\(s\) match the manifests; 2 unmanaged\./);
    expect(result.stdout).toContain('? AdminUser/admin');
    expectNoSecret(result.stdout, result.stderr);
  });

  it('counts unmanaged objects as drift with --fail-on-unmanaged', async () => {
    const result = await run(['drift', ...EXAMPLES, '--fail-on-unmanaged', '--format', 'json']);
    expect(result.code).toBe(2);
    expect(JSON.parse(result.stdout)).toMatchObject({ inSync: false, counts: { unmanaged: 2, drifted: 0 } });
  });

  describe('after a change behind converge’s back', () => {
    /** The writes the server had taken when this block's drift runs began. */
    let writesBefore: number;
    beforeAll(async () => {
      await patchSettings('general-settings', { 'api-rate-limit': 250 });
      writesBefore = writes();
    });

    it('exits 2 and shows the field as live -> manifest (text)', async () => {
      const result = await run(['drift', ...EXAMPLES]);
      expect(result.code).toBe(2);
      expect(result.stdout).toContain('  ~ drifted GeneralSettings\n        api-rate-limit: 250 -> 60\n');
      expect(result.stdout).toContain(
        'Drift: 1 of 30 object(s) differ from the manifests (1 drifted, 0 missing, 0 to delete)',
      );
      expectNoSecret(result.stdout, result.stderr);
    });

    it('reports the change as versioned JSON on stdout, with --json as a short form', async () => {
      for (const args of [['--format', 'json'], ['--json']]) {
        const result = await run(['drift', ...EXAMPLES, ...args]);
        expect(result.code).toBe(2);
        const doc = JSON.parse(result.stdout);
        expect(doc).toMatchObject({ format: 'converge-drift', version: 2, inSync: false, counts: { drifted: 1 } });
        expect(doc.servers.platform).toBe(emulator.url);
        expect(doc.objects).toEqual([
          {
            key: 'GeneralSettings',
            kind: 'GeneralSettings',
            address: { kind: 'GeneralSettings', name: '' },
            action: 'update',
            state: 'drifted',
            changes: [
              {
                path: 'api-rate-limit',
                secret: false,
                before: 250,
                after: 60,
                // where the manifests set the declared value (docs/environments.md)
                source: { file: expect.stringMatching(/examples\/base\/settings\/general\.yaml$/), line: 4, col: 19 },
              },
            ],
          },
        ]);
        expect(result.stderr).toContain('Drift: 1 of 30 object(s) differ');
      }
    });

    it('reports the change as Markdown', async () => {
      const result = await run(['drift', ...EXAMPLES, '--format', 'markdown']);
      expect(result.code).toBe(2);
      expect(result.stdout.split('\n')[0]).toBe('## Drift: 1 of 30 object(s) differ from the manifests');
      expect(result.stdout).toContain('| GeneralSettings | 0 | 1 | 0 | 0 | 0 |');
      expect(result.stdout).toContain('| <code>api-rate-limit</code> | <code>250</code> | <code>60</code> |');
    });

    it('reports the change as JUnit XML, one failing case for the drifted object', async () => {
      const result = await run(['drift', ...EXAMPLES, '--format', 'junit']);
      expect(result.code).toBe(2);
      const root = parseXml(result.stdout);
      expect(root.attributes).toMatchObject({ tests: '32', failures: '1', skipped: '2' });
      const failures = all(root, 'failure');
      expect(failures).toHaveLength(1);
      expect(failures[0]!.text).toContain('api-rate-limit: 250 -> 60');
      const cases = all(root, 'testcase').map((c) => c.attributes.name);
      expect(cases).toContain('ToolVersion/1.10.0');
    });

    it('writes the report to --output and a summary line to stdout', async () => {
      const file = join(scratch, 'reports', 'drift.md');
      const result = await run(['drift', ...EXAMPLES, '--format', 'markdown', '--output', file]);
      expect(result.code).toBe(2);
      expect(result.stdout.trim()).toBe(
        `Drift: 1 of 30 object(s) differ from the manifests (1 drifted, 0 missing, 0 to delete); 2 unmanaged. ` +
          `Report (markdown) written to ${file}.`,
      );
      const report = await readFile(file, 'utf8');
      expect(report).toContain('<code>api-rate-limit</code>');
      expectNoSecret(report);
    });

    it('limits the report to --target', async () => {
      const result = await run(['drift', ...EXAMPLES, '--target', 'ToolVersion', '--format', 'json']);
      expect(result.code).toBe(0);
      expect(JSON.parse(result.stdout).counts).toMatchObject({ objects: 3, inSync: 3 });
    });

    // last in this block: every drift above, in each format, ran against the drifted server
    it('never changes anything', async () => {
      expect(writes()).toBe(writesBefore);
      expect(await rateLimit()).toBe(250);
    });
  });

  it('shows a changed write-only value as (sensitive), never the value', async () => {
    const changed = 'canary-drift-new-password-9955';
    const formats = ['text', 'json', 'markdown', 'junit'];
    const outputs = await Promise.all(
      formats.map((format) => run(['drift', ...EXAMPLES, '--format', format], { SMTP_PASSWORD: changed })),
    );
    for (const out of outputs) {
      expect(out.code).toBe(2);
      expect(out.stdout).toContain('password');
      expect(out.stdout).not.toContain(changed);
      expectNoSecret(out.stdout, out.stderr);
    }
    const json = outputs[formats.indexOf('json')]!;
    const smtp = JSON.parse(json.stdout).objects.find((o: { key: string }) => o.key === 'SMTPSettings');
    expect(smtp.changes).toEqual([
      {
        path: 'password',
        secret: true,
        note: 'changed since last apply',
        source: expect.objectContaining({ line: 12 }),
      },
    ]);
  });

  it('exits 1 on bad input, before any request', async () => {
    const before = emulator.stats().total;
    const result = await run(['drift', BAD]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/type-integer\.yaml:\d+:\d+: /);
    expect(emulator.stats().total).toBe(before);
  });

  it('refuses --resend-secrets, which has no meaning for drift', async () => {
    const result = await run(['drift', ...EXAMPLES, '--resend-secrets']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('--resend-secrets does not apply to drift');
  });
});
