/** The plan as Markdown for a pull-request comment: pure, from hand-built plans. */
import { describe, expect, it } from 'vitest';
import { GITHUB_COMMENT_LIMIT } from '../../../../src/ui/markdown.ts';
import { formatPlanMarkdown } from '../../../../src/ui/plan/markdown.ts';
import { action, CANARY, plan, unmanaged } from '../drift/builders.ts';

const LDIF_BEFORE =
  'dn: cn={{.Username}},ou=users,dc=example,dc=org\nobjectClass: person\nuserPassword: {{.Password}}\n';
const LDIF_AFTER =
  'dn: cn={{.Username}},ou=service,dc=example,dc=org\nobjectClass: person\nuserPassword: {{.Password}}\n';

function mixed() {
  return plan(
    [
      action('GeneralSettings', '', 'update', [{ path: 'api-rate-limit', before: 250, after: 60 }], {
        notes: ['plan-timeout not compared: the API does not return it'],
      }),
      action('ToolVersion', 'terraform/1.9.0', 'create', [{ path: 'url', after: 'https://example.com/tf.zip' }]),
      action('SMTPSettings', '', 'update', [
        { path: 'password', secret: true, note: 'changed since last apply', before: CANARY, after: CANARY },
      ]),
      action('AdminUser', 'mallory', 'delete', [], { reason: 'pruned: not in any manifest' }),
      action('SSHCertificateAuthority', 'ssh', 'replace', [
        { path: 'key_type', before: 'rsa', after: 'ed25519', replace: true },
      ]),
      action('LDAPDynamicRole', 'ldap/dev', 'update', [
        { path: 'creation_ldif', before: LDIF_BEFORE, after: LDIF_AFTER },
      ]),
      action('CostEstimationSettings', '', 'noop'),
    ],
    [unmanaged('AdminUser', 'eve', true), unmanaged('ToolVersion', 'terraform/0.12.0', false)],
  );
}

describe('plan as Markdown', () => {
  const md = formatPlanMarkdown(mixed());

  it('is titled as a plan with the counts, never as drift', () => {
    const lines = md.split('\n');
    expect(lines[0]).toBe('## Plan: 1 to create, 3 to update, 1 to replace, 1 to delete, 1 unchanged');
    expect(md).not.toMatch(/drift/i);
    expect(md).toContain('| **delete** (destructive) | 1 |');
    expect(md).toContain('| update | 3 |');
    expect(md).toContain('| unchanged | 1 |');
  });

  it('lists destructive actions first, marked, and says how many there are', () => {
    const summaries = md.split('\n').filter((l) => l.startsWith('<details><summary><b>'));
    expect(summaries.map((s) => s.match(/<b>(\w+)<\/b>/)?.[1])).toEqual([
      'delete',
      'replace',
      'create',
      'update',
      'update',
      'update',
    ]);
    expect(summaries[0]).toContain('(destructive) <code>AdminUser/mallory</code>');
    expect(summaries[1]).toContain('(destructive)');
    expect(summaries[2]).not.toContain('destructive');
    expect(md).toContain('**Destructive: 2 action(s) delete or replace a live object**');
    expect(md).toContain('<code>key&#95;type</code> (forces replacement)');
  });

  it('shows a secret as a marker with its reason, never its value', () => {
    const row = md.split('\n').find((line) => line.startsWith('| <code>password</code>'));
    expect(row).toBe('| <code>password</code> | _(secret)_ | _(secret)_ changed since last apply |');
    expect(md.includes(CANARY)).toBe(false);
  });

  it('shows a multi-line value as a line diff', () => {
    const diff = md.slice(md.indexOf('```diff'), md.indexOf('```\n', md.indexOf('```diff') + 3));
    expect(diff).toContain('-dn: cn={{.Username}},ou=users,dc=example,dc=org');
    expect(diff).toContain('+dn: cn={{.Username}},ou=service,dc=example,dc=org');
    expect(diff).toContain(' objectClass: person');
    expect(md).not.toContain('| <code>creation&#95;ldif</code>');
  });

  it('has the notes, the unmanaged list and balanced sections', () => {
    expect(md).toContain('<details><summary>Notes (1)</summary>');
    expect(md).toContain('- <code>GeneralSettings</code>: plan-timeout not compared: the API does not return it');
    expect(md).toContain('<code>AdminUser/eve</code> (in an ownership scope: `--prune` deletes it)');
    expect(md).toContain('<code>ToolVersion/terraform/0.12.0</code>');
    expect(md.split('<details>').length).toBe(md.split('</details>').length);
    expect(md).not.toContain('shortened');
  });

  it('escapes names and values that could break out of a cell or a section', () => {
    const hostile = formatPlanMarkdown(
      plan([action('ToolVersion', 'x|</details><img src=x>', 'create', [{ path: 'url', after: '`a` | **b**' }])]),
    );
    expect(hostile).not.toContain('<img');
    expect(hostile).not.toContain('`a`');
    expect(hostile.split('<details>').length).toBe(hostile.split('</details>').length);
  });

  it('keeps a code fence closed whatever backticks a value holds', () => {
    const md2 = formatPlanMarkdown(
      plan([action('PolicyVersion', 'p', 'update', [{ path: 'body', before: 'a\n```\nb\n', after: 'a\n````\nc\n' }])]),
    );
    expect(md2).toContain('`````diff');
  });

  it('says there are no changes', () => {
    const none = formatPlanMarkdown(plan([action('GeneralSettings', '', 'noop')]));
    expect(none.split('\n')[0]).toBe('## Plan: 0 to create, 0 to update, 0 to replace, 0 to delete, 1 unchanged');
    expect(none).toContain('No changes: live state matches the manifests.');
  });

  it('puts extra sections (policy results) after the changes and before the notes', () => {
    const withPolicy = formatPlanMarkdown(mixed(), { sections: [['### Policies', '', '- all passed']] });
    const at = withPolicy.indexOf('### Policies\n\n- all passed');
    expect(at).toBeGreaterThan(withPolicy.indexOf('LDAPDynamicRole'));
    expect(at).toBeLessThan(withPolicy.indexOf('Notes (1)'));
  });
});

describe('a plan too large for one comment', () => {
  const many = plan(
    Array.from({ length: 3000 }, (_, i) =>
      action('ToolVersion', `terraform/1.${i}.0`, i % 100 === 0 ? 'delete' : 'create', [
        { path: 'url', after: `https://releases.example.com/terraform/1.${i}.0/terraform_linux_amd64.zip` },
        { path: 'sha', after: 'a'.repeat(64) },
      ]),
    ),
  );

  it('fits GitHub limit, keeps the destructive ones first and says it was shortened', () => {
    const md = formatPlanMarkdown(many);
    expect(md.length).toBeLessThanOrEqual(GITHUB_COMMENT_LIMIT);
    expect(md.split('\n')[0]).toBe('## Plan: 2970 to create, 0 to update, 0 to replace, 30 to delete, 0 unchanged');
    expect(md).toContain("_This plan was shortened to fit GitHub's comment limit (65,536 characters)");
    expect(md.indexOf('<b>delete</b>')).toBeLessThan(md.indexOf('<b>create</b>'));
    expect(md.split('<details>').length).toBe(md.split('</details>').length);
  });

  it('cuts a long line diff and says how many lines are left', () => {
    const long = Array.from({ length: 500 }, (_, i) => `line ${i}`).join('\n');
    const md = formatPlanMarkdown(
      plan([action('PolicyVersion', 'p', 'update', [{ path: 'body', before: 'x\n', after: long }])]),
    );
    expect(md).toMatch(/_and \d+ more diff line\(s\)_/);
    expect(md).not.toContain('+line 499');
  });

  it('cuts at a line end with the note when even the summary does not fit', () => {
    const md = formatPlanMarkdown(many, {
      maxChars: 2000,
      sections: [['### Policies', ...Array(500).fill('- ok')]],
    });
    expect(md.length).toBeLessThanOrEqual(2000);
    expect(md.trimEnd().endsWith('It was cut here.')).toBe(true);
  });
});
