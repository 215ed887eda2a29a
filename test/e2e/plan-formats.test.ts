/**
 * `converge plan --format markdown|json` as a process against the emulator:
 * the Markdown a pull request is commented with, and the versioned JSON
 * documents of plan, drift and apply's events, validated against their
 * schemas under schemas/documents/ with ajv.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/server.ts';
import type { CliResult } from '../helpers/cli.ts';
import { seedApply } from '../helpers/cli-seed.ts';
import { type CliTarget, cliTarget } from '../helpers/cli-target.ts';

const EXAMPLES = ['base', 'environments/staging'].map((dir) =>
  fileURLToPath(new URL(`../../examples/${dir}/`, import.meta.url)),
);
const POLICIES = fileURLToPath(new URL('../../examples/policies/', import.meta.url));
const SMTP_PASSWORD = 'canary-plan-format-smtp-password-4419';
const NEW_SMTP_PASSWORD = 'canary-plan-format-new-smtp-password-8812';

let target: CliTarget;
let emulator: RunningEmulator;
let scratch: string;

/**
 * The document schemas, each beside the others (the apply events refer to the plan report's
 * definitions), in one ajv for the file: each schema is compiled once, however many tests use it.
 */
let documents: Promise<Ajv> | undefined;
async function loadDocuments() {
  const dir = fileURLToPath(new URL('../../schemas/documents/', import.meta.url));
  const ajv = new Ajv({ allErrors: true, strict: true });
  addFormats.default(ajv);
  for (const file of await readdir(dir)) ajv.addSchema(JSON.parse(await readFile(join(dir, file), 'utf8')));
  return ajv;
}

/** A document's schema. */
async function schema(name: string) {
  documents ??= loadDocuments();
  const validate = (await documents).getSchema(`https://converge.dev/schemas/documents/${name}.schema.json`);
  if (!validate) throw new Error(`no schema ${name}`);
  return validate;
}

function expectNoSecret(...texts: string[]) {
  for (const text of texts) {
    for (const secret of [SMTP_PASSWORD, NEW_SMTP_PASSWORD, emulator.tokens.admin]) expect(text).not.toContain(secret);
  }
}

const changed = { SMTP_PASSWORD: NEW_SMTP_PASSWORD };

/**
 * `plan --json` of the pending changes, run once: three tests read the same document (nothing is
 * applied before the last test), so one process serves them all.
 */
let report: Promise<CliResult> | undefined;
const planJson = () => {
  report ??= target.run(['plan', ...EXAMPLES, '--json'], changed);
  return report;
};

/**
 * `plan --format json` of the pending changes with the example policies, run once: one test reads it
 * as the plan report `--format json` prints, one for the policies' results in it (the policies add
 * that member, no action: the counts are those of the plan without them).
 */
let withPolicies: Promise<CliResult> | undefined;
const policiesJson = () => {
  withPolicies ??= target.run(['plan', ...EXAMPLES, POLICIES, '--format', 'json'], changed);
  return withPolicies;
};

beforeAll(async () => {
  target = await cliTarget('plan-formats', { SMTP_PASSWORD });
  ({ emulator, scratch } = target);
  // the starting state, applied in-process with the target's fingerprint store (the SMTP password's
  // fingerprint recorded): what `converge apply` of the examples leaves, without its process
  await seedApply(target, EXAMPLES);
  // a change behind converge's back, and a new secret in the environment
  const response = await fetch(`${emulator.url}/api/v2/admin/general-settings`, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${emulator.tokens.admin}`, 'content-type': 'application/vnd.api+json' },
    body: JSON.stringify({ data: { type: 'general-settings', attributes: { 'api-rate-limit': 250 } } }),
  });
  expect(response.status).toBe(200);
});
afterAll(() => target?.close());

describe('converge plan --format markdown', () => {
  /**
   * The Markdown plan of the pending changes, saved with --out as well, run once: the first test
   * reads the document on stdout, the second where the saved plan went (--out changes neither).
   */
  const file = () => join(scratch, 'plan.json');
  let markdown: Promise<CliResult> | undefined;
  const planMarkdown = () => {
    const args = ['--format', 'markdown', '--detailed-exitcode', '--out', file()];
    markdown ??= target.run(['plan', ...EXAMPLES, ...args], changed);
    return markdown;
  };

  it('prints a plan titled as a plan, field changes, and the secret as a marker', async () => {
    const result = await planMarkdown();
    expect(result.code, result.stderr).toBe(2);
    const md = result.stdout;
    expect(md.split('\n')[0]).toBe('## Plan: 0 to create, 2 to update, 0 to replace, 0 to delete, 28 unchanged');
    expect(md).not.toMatch(/drift/i);
    expect(md).toContain('<details><summary><b>update</b> <code>GeneralSettings</code>, 1 field(s)</summary>');
    expect(md).toContain('| <code>api-rate-limit</code> | <code>250</code> | <code>60</code> |');
    expect(md).toMatch(/\| <code>password<\/code> \| _\(secret\)_ \| _\(secret\)_ changed/);
    expect(md).toContain('Unmanaged (2)');
    expect(md.split('<details>').length).toBe(md.split('</details>').length);
    // progress goes to stderr, the document alone to stdout
    expect(result.stderr).toMatch(/Read \d+ live object/);
    expectNoSecret(md, result.stderr);
  });

  it('keeps stdout a document with --out, and says where the plan went on stderr', async () => {
    const result = await planMarkdown();
    // 2: changes planned (--detailed-exitcode), the plan saved all the same
    expect(result.code, result.stderr).toBe(2);
    expect(result.stdout.split('\n')[0]).toMatch(/^## Plan: /);
    expect(result.stdout).not.toContain('Saved the plan');
    expect(result.stderr).toContain(`Saved the plan to ${file()}`);
    expect(JSON.parse(await readFile(file(), 'utf8'))).toMatchObject({ format: 'converge-plan' });
  });

  it('refuses an unknown format, sending nothing', async () => {
    const before = emulator.stats().total;
    const result = await target.run(['plan', ...EXAMPLES, '--format', 'html']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("'html' is invalid");
    expect(emulator.stats().total).toBe(before);
  });
});

describe('versioned JSON documents', () => {
  it('plan --format json and --json print a converge-plan-report that the schema accepts', async () => {
    const validate = await schema('converge-plan-report');
    for (const result of [await policiesJson(), await planJson()]) {
      expect(result.code, result.stderr).toBe(0);
      const doc = JSON.parse(result.stdout);
      expect(validate(doc), JSON.stringify(validate.errors)).toBe(true);
      expect(doc).toMatchObject({
        format: 'converge-plan-report',
        version: 1,
        changes: true,
        // the example policies warn only
        valid: true,
        counts: { create: 0, update: 2, replace: 0, delete: 0, noop: 28 },
      });
      // the shape before versioning stays: `.plan.actions`
      expect(doc.plan.actions.map((a: { key: string }) => a.key)).toContain('SMTPSettings');
      // progress goes to stderr, as with Markdown: stdout is the document alone
      expect(result.stderr).toMatch(/Read \d+ live object/);
      expectNoSecret(result.stdout, result.stderr);
    }
  });

  it('the schema rejects a document that breaks the contract', async () => {
    const validate = await schema('converge-plan-report');
    const result = await planJson();
    const doc = JSON.parse(result.stdout);
    const smtp = doc.plan.actions.find((a: { key: string }) => a.key === 'SMTPSettings');
    smtp.changes.find((c: { secret?: boolean }) => c.secret).after = 'a value';
    expect(validate(doc)).toBe(false);
    expect(validate({ ...JSON.parse(result.stdout), version: 2 })).toBe(false);
  });

  it('apply refuses the report: it is not a saved plan', async () => {
    const file = join(scratch, 'report.json');
    const result = await planJson();
    await writeFile(file, result.stdout);
    const before = emulator.stats().total;
    const refused = await target.run(['apply', file], changed);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('not a saved plan');
    expect(emulator.stats().total).toBe(before);
  });

  it('drift --format json prints a converge-drift document that its schema accepts', async () => {
    const validate = await schema('converge-drift');
    const result = await target.run(['drift', ...EXAMPLES, '--format', 'json'], changed);
    expect(result.code, result.stderr).toBe(2);
    const doc = JSON.parse(result.stdout);
    expect(validate(doc), JSON.stringify(validate.errors)).toBe(true);
    expect(doc).toMatchObject({ format: 'converge-drift', version: 2 });
  });

  it('with policies, the JSON carries their results (schema-valid) and the Markdown a Policies section', async () => {
    const validate = await schema('converge-plan-report');
    const json = await policiesJson();
    const doc = JSON.parse(json.stdout);
    expect(validate(doc), JSON.stringify(validate.errors)).toBe(true);
    expect(doc.policies.evaluated).toBeGreaterThan(0);
    const md = await target.run(['plan', ...EXAMPLES, POLICIES, '--format', 'markdown'], changed);
    expect(md.code).toBe(doc.policies.denied > 0 ? 1 : 0);
    const at = md.stdout.indexOf('### Policies');
    expect(at).toBeGreaterThan(md.stdout.indexOf('<code>GeneralSettings</code>'));
    expect(md.stdout.slice(at)).toContain(`Policies: ${doc.policies.evaluated} check(s)`);
  });

  // last: it applies the pending changes the tests above plan
  it('apply --json prints a header, then lines the converge-apply-events schema accepts', async () => {
    const validate = await schema('converge-apply-events');
    const lines = async (args: string[]) => {
      const result = await target.run(['apply', ...args, '--auto-approve', '--json'], changed);
      expectNoSecret(result.stdout, result.stderr);
      const parsed = result.stdout
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line));
      for (const line of parsed) expect(validate(line), JSON.stringify([line.type, validate.errors])).toBe(true);
      return { code: result.code, parsed, types: parsed.map((l: { type: string }) => l.type) };
    };
    const { code, parsed, types } = await lines(EXAMPLES);
    expect(code).toBe(0);
    expect(parsed[0]).toMatchObject({ type: 'header', format: 'converge-apply-events', version: 1 });
    for (const type of ['read-start', 'read-progress', 'read-done', 'plan-ready', 'apply-start', 'action-done'])
      expect(types).toContain(type);
    expect(types.at(-1)).toBe('apply-done');
    // every kind read says so once, done, and the requests only grow
    const kinds = parsed.find((l) => l.type === 'read-start').kinds as string[];
    const progress = parsed.filter((l) => l.type === 'read-progress');
    expect(
      progress
        .filter((l) => l.done)
        .map((l) => l.kind)
        .sort(),
    ).toEqual([...kinds].sort());
    const requests = progress.map((l) => l.requests as number);
    expect(requests).toEqual([...requests].sort((a, b) => a - b));
    expect(parsed.find((l) => l.type === 'read-done').requests).toBe(requests.at(-1));
    // the schema is a contract: a line that breaks it is refused, an event type it does not know is not
    const done = parsed.find((l) => l.type === 'action-done');
    expect(validate({ ...done, action: { ...done.action, action: 'upsert' } })).toBe(false);
    expect(validate({ ...parsed[0], version: 2 })).toBe(false);
    expect(validate({ type: 'a-later-event', seq: 9, time: 0 })).toBe(true);

    // with policies, their line comes after the header, before the plan is applied (or refused)
    const checked = await lines([...EXAMPLES, POLICIES]);
    expect(checked.types.slice(0, 1)).toEqual(['header']);
    expect(checked.types).toContain('policies');
  });
});
