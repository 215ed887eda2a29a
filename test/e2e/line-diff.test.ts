/**
 * Multi-line values as line diffs, through the CLI as a process against the
 * emulator: an LDAP dynamic role whose creation template is a literal block
 * scalar in the manifest, changed in the manifest or behind converge's back.
 * `plan` and `drift`, as text and as Markdown, show the changed line with a
 * few lines around it, not the template as one long string; the JSON
 * documents keep the values as they are.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliTarget, cliTarget, LDAP_CONFIG, NO_FINGERPRINTS } from '../helpers/cli-target.ts';
import { secrets as secretsRequest } from '../helpers/engine.ts';

/** The creation template, 40 lines: an entry whose descriptions are numbered by their line. */
const TEMPLATE = [
  'dn: cn={{.Username}},ou=users,dc=example,dc=org',
  'objectClass: person',
  'objectClass: top',
  'cn: {{.Username}}',
  'sn: {{.Username}}',
  'userPassword: {{.Password}}',
  ...Array.from({ length: 34 }, (_, i) => `description: line ${i + 7}`),
];

function role(template: readonly string[]): string {
  return [
    'kind: LDAPDynamicRole',
    'metadata: {name: reviewers}',
    'spec:',
    '  creation_ldif: |',
    ...template.map((line) => `    ${line}`),
    '  deletion_ldif: |',
    '    dn: cn={{.Username}},ou=users,dc=example,dc=org',
    '    changetype: delete',
    '  default_ttl: 1h',
    '',
  ].join('\n');
}

/** The template with line `n` (1-based) replaced. */
const withLine = (n: number, text: string) => TEMPLATE.map((line, i) => (i === n - 1 ? text : line));

// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

let target: CliTarget;
let config: string;
let manifest: string;

async function write(name: string, text: string): Promise<string> {
  const path = join(target.scratch, name);
  await writeFile(path, text);
  return path;
}

/** A secrets-API request, as someone working behind converge's back would send it. */
function secrets(method: string, path: string, body?: unknown) {
  const { url, tokens } = target.emulator;
  return secretsRequest({ url, token: tokens.admin, secretsToken: tokens.secrets }, method, path, body);
}

beforeAll(async () => {
  // without a store the engine's bind password, write-only, is not compared (docs/commands.md,
  // "drift"); the role's templates, which are no secret, are what these tests read
  target = await cliTarget('line-diff', NO_FINGERPRINTS);
  config = await write('config.yaml', LDAP_CONFIG);
  manifest = await write('role.yaml', role(TEMPLATE));
  const applied = await target.run(['apply', config, manifest, '--auto-approve']);
  expect(applied.code, applied.stderr).toBe(0);
});
afterAll(() => target?.close());

describe('a multi-line value as a line diff', () => {
  it('a line changed in the manifest: plan as text and as Markdown show that line and its neighbours', async () => {
    const edited = await write('role-edited.yaml', role(withLine(25, 'description: changed in the manifest')));

    const text = await target.run(['plan', config, edited, '--detailed-exitcode']);
    expect(text.code, text.stderr).toBe(2);
    const context = (from: number, to: number) =>
      Array.from({ length: to - from + 1 }, (_, i) => `           description: line ${from + i}`);
    expect(text.stdout).toContain(
      [
        '  ~ update LDAPDynamicRole/ldap/reviewers',
        '        creation_ldif: 1 line added, 1 removed',
        '          @@ -22,7 +22,7 @@',
        ...context(22, 24),
        '          -description: line 25',
        '          +description: changed in the manifest',
        ...context(26, 28),
        '',
      ].join('\n'),
    );
    // unchanged context stays short: far lines are not shown, and the value is no quoted string
    expect(text.stdout).not.toContain('description: line 18');
    expect(text.stdout).not.toContain('"dn: cn=');

    const md = await target.run(['plan', config, edited, '--format', 'markdown']);
    expect(md.code, md.stderr).toBe(0);
    const section = md.stdout.slice(md.stdout.indexOf('<code>LDAPDynamicRole/ldap/reviewers</code>'));
    expect(section).toContain(
      '<code>creation&#95;ldif</code>: 1 line added, 1 removed\n\n```diff\n@@ -22,7 +22,7 @@\n description: line 22\n',
    );
    expect(section).toContain('\n-description: line 25\n+description: changed in the manifest\n');
    // inside the object's collapsible section
    expect(section.indexOf('```diff')).toBeLessThan(section.indexOf('</details>'));

    // the JSON document keeps the values as they are
    const json = await target.run(['plan', config, edited, '--json']);
    const doc = JSON.parse(json.stdout);
    const change = doc.plan.actions
      .find((a: { key: string }) => a.key === 'LDAPDynamicRole/ldap/reviewers')
      .changes.find((c: { path: string }) => c.path === 'creation_ldif');
    expect(change.after).toBe(withLine(25, 'description: changed in the manifest').join('\n'));
    expect(change.before).toBe(TEMPLATE.join('\n'));
  });

  it('a line changed live: drift as text and as Markdown, and the plan, show it with its control characters made visible', async () => {
    const live = await secrets('GET', '/ldap/role/reviewers');
    expect(live.status).toBe(200);
    const creation = withLine(33, 'description: edited by hand \u001b[2J\u001b]52;c;ZXZpbA==\u0007').join('\n');
    const data = live.body?.data as Record<string, unknown>;
    const posted = await secrets('POST', '/ldap/role/reviewers', { ...data, creation_ldif: creation });
    expect(posted.status, JSON.stringify(posted.body)).toBeLessThan(300);

    const hunk = [
      'creation_ldif: 1 line added, 1 removed',
      '  @@ -30,7 +30,7 @@',
      '   description: line 30',
      '   description: line 31',
      '   description: line 32',
      '  -description: edited by hand ␛[2J␛]52;c;ZXZpbA==␇',
      '  +description: line 33',
      '   description: line 34',
      '   description: line 35',
      '   description: line 36',
    ];
    const indented = (by: string) => hunk.map((line) => `${by}${line}`).join('\n');

    const drift = await target.run(['drift', config, manifest]);
    expect(drift.code, drift.stderr).toBe(2);
    expect(drift.stdout).toContain(`  ~ drifted LDAPDynamicRole/ldap/reviewers\n${indented('        ')}`);
    expect(drift.stdout).not.toContain('description: line 25');

    const plan = await target.run(['plan', config, manifest]);
    expect(plan.stdout).toContain(`  ~ update LDAPDynamicRole/ldap/reviewers\n${indented('        ')}`);

    const md = await target.run(['drift', config, manifest, '--format', 'markdown']);
    expect(md.code, md.stderr).toBe(2);
    expect(md.stdout).toContain(
      '<code>creation&#95;ldif</code>: 1 line added, 1 removed\n\n```diff\n@@ -30,7 +30,7 @@\n',
    );
    expect(md.stdout).toContain('\n-description: edited by hand ␛[2J␛]52;c;ZXZpbA==␇\n+description: line 33\n');

    const planMd = await target.run(['plan', config, manifest, '--format', 'markdown']);
    expect(planMd.stdout).toContain('\n-description: edited by hand ␛[2J␛]52;c;ZXZpbA==␇\n+description: line 33\n');

    for (const result of [drift, plan, md, planMd]) {
      expect(result.stdout).not.toMatch(CONTROL);
      expect(result.stderr).not.toMatch(CONTROL);
    }

    // the drift document keeps the live value as it is
    const json = await target.run(['drift', config, manifest, '--format', 'json']);
    const object = JSON.parse(json.stdout).objects.find(
      (o: { key: string }) => o.key === 'LDAPDynamicRole/ldap/reviewers',
    );
    expect(object.changes.find((c: { path: string }) => c.path === 'creation_ldif').before).toBe(creation);
  });
});
