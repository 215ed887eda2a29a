import { describe, expect, it } from 'vitest';
import type { PlannedAction } from '../../../../src/reconcile/types.ts';
import { formatDriftMarkdown } from '../../../../src/ui/drift/markdown.ts';
import { escapeMarkdownHtml, GITHUB_COMMENT_LIMIT } from '../../../../src/ui/markdown.ts';
import { action, CANARY, mixedPlan, plan, report, unmanaged } from './builders.ts';

/** Table rows split into cells on unescaped pipes, as GitHub does. */
function cells(row: string): string[] {
  return row
    .replace(/\\\|/g, '')
    .split('|')
    .slice(1, -1)
    .map((c) => c.trim());
}

function balanced(md: string, tag: string): boolean {
  return md.split(`<${tag}>`).length === md.split(`</${tag}>`).length;
}

describe('drift as Markdown', () => {
  const md = formatDriftMarkdown(report(mixedPlan()));

  it('starts with an emoji-free title and a summary table by kind', () => {
    const lines = md.split('\n');
    expect(lines[0]).toBe('## Drift: 5 of 7 object(s) differ from the manifests');
    expect(lines[2]).toBe(
      'converge 0.1.0 compared the manifests with <code>https://tfe.example.com</code> at 2026-03-01T12:00:00.000Z: ' +
        '3 drifted, 1 missing, 1 to delete, 2 in sync; 2 unmanaged.',
    );
    expect(md).not.toMatch(/\p{Extended_Pictographic}/u);
    expect(md).toContain('| kind | in sync | drifted | missing | to delete | unmanaged |');
    expect(md).toContain('| ToolVersion | 1 | 1 | 1 | 1 | 1 |');
    expect(md).toContain('| PolicyVersion | 0 | 0 | 0 | 0 | 1 |');
    expect(md).toContain('| **total** | 2 | 3 | 1 | 1 | 2 |');
  });

  it('has one collapsible section per differing object, with a field table', () => {
    expect(md.match(/<details><summary><code>/g)).toHaveLength(5);
    expect(md).toContain(
      '<details><summary><code>GeneralSettings</code>: drifted, 2 field(s)</summary>\n\n| field | live | desired |',
    );
    expect(md).toContain('| <code>api-rate-limit</code> | <code>250</code> | <code>60</code> |');
    expect(md).toContain('| <code>sha</code> | _(absent)_ | <code>&#34;abc&#34;</code> |'.replace(/&#34;/g, '"'));
    expect(md).toContain('<code>ToolVersion/1.2.0</code>: to delete (ensure: absent)');
    expect(md).toContain('<code>ToolVersion/1.3.0</code>: drifted, replacement needed, 1 field(s)');
    expect(md).not.toContain('ToolVersion/1.9.8'); // in sync
    expect(balanced(md, 'details')).toBe(true);
    expect(balanced(md, 'summary')).toBe(true);
  });

  it('lists unmanaged objects by kind in a collapsible section', () => {
    expect(md).toContain('<details><summary>Unmanaged: 2 live object(s) that no manifest mentions</summary>');
    expect(md).toContain('One of them is inside an ownership scope: `--prune` would delete it.');
    expect(md).toContain('- **ToolVersion** (1): <code>0.9.0</code> (prunable)');
    expect(md).toContain('- **PolicyVersion** (1): <code>0.1.0</code>');
  });

  it('marks secrets as (sensitive) and never includes their values', () => {
    expect(md).toContain('| <code>password</code> | _(sensitive)_ | _(sensitive)_ changed since last apply |');
    expect(md).not.toContain(CANARY);
  });

  it('escapes pipes, backticks, < and Markdown in names and values, keeping each row three cells', () => {
    const nasty = 'a|b`c<script>alert(1)</script>*x* _y_ [l](u) $m$ \\';
    const p = plan([action('ToolVersion', nasty, 'update', [{ path: `p|${nasty}`, before: nasty, after: 'ok' }])]);
    const out = formatDriftMarkdown(report(p));
    expect(out).not.toContain('<script>');
    expect(out).not.toContain('`c');
    expect(out).not.toContain('*x*');
    expect(out).not.toContain('$m$');
    const row = out.split('\n').find((l) => l.startsWith('| <code>p'))!;
    expect(cells(row)).toHaveLength(3);
    expect(row).toContain('&#124;');
    expect(row).toContain('&#96;');
    expect(row).toContain('&#60;script&#62;');
    expect(escapeMarkdownHtml('a|b')).toBe('a&#124;b');
  });

  it('says in words what the manifest asks for where it has no value: a CA key the service makes', () => {
    const swapped = action('SSHCertificateAuthority', 'ssh', 'replace', [
      {
        path: 'public_key',
        before: 'ssh-rsa AAAA',
        after: undefined,
        note: 'a new one, made by the service',
        replace: true,
      },
    ]);
    const text = formatDriftMarkdown(report(plan([swapped])));
    expect(text).toContain('| <code>"ssh-rsa AAAA"</code> | <code>(a new one, made by the service)</code> |');
    expect(text).not.toContain('_(unset)_');
  });

  it('cuts long values', () => {
    const long = 'x'.repeat(500);
    const out = formatDriftMarkdown(
      report(plan([action('CustomizationSettings', '', 'update', [{ path: 'footer', before: long, after: 'y' }])])),
    );
    expect(out).toContain(`<code>"${'x'.repeat(78)}…</code>`);
    expect(out).not.toContain('x'.repeat(100));
  });

  it('says there is no drift when everything matches', () => {
    const out = formatDriftMarkdown(report(plan([action('ToolVersion', '1.9.8', 'noop')])));
    expect(out.split('\n')[0]).toBe('## No drift: 1 object(s) match the manifests');
    expect(out).not.toContain('<details>');
  });
});

describe('drift as Markdown at scale', () => {
  function bigPlan(): ReturnType<typeof plan> {
    const actions: PlannedAction[] = [];
    for (let i = 0; i < 300; i++) {
      actions.push(
        action('ToolVersion', `1.${i}.0`, 'update', [
          {
            path: 'url',
            before: `https://old.example.com/${'a'.repeat(60)}/${i}.zip`,
            after: `https://new.example.com/${i}.zip`,
          },
          { path: 'enabled', before: false, after: true },
          { path: 'beta', before: true, after: false },
        ]),
      );
    }
    for (let i = 0; i < 150; i++)
      actions.push(action('PolicyVersion', `0.${i}.0`, 'create', [{ path: 'sha', after: 'f'.repeat(64) }]));
    for (let i = 0; i < 50; i++)
      actions.push(action('AdminUser', `user-${i}`, 'update', [{ path: 'is-admin', before: true, after: false }]));
    const undeclared = Array.from({ length: 400 }, (_, i) => unmanaged('ToolVersion', `0.${i}.9`, false));
    return plan(actions, undeclared);
  }

  const md = formatDriftMarkdown(report(bigPlan()));

  it('stays under GitHub comment limit at 500 objects', () => {
    expect(md.length).toBeLessThan(GITHUB_COMMENT_LIMIT);
    expect(md.length).toBeLessThanOrEqual(60_000);
  });

  it('groups by kind and caps each group, saying how many more there are', () => {
    expect(md).toContain('### ToolVersion (300)');
    expect(md).toContain('### PolicyVersion (150)');
    expect(md).toContain('### AdminUser (50)');
    const sections = md.match(/<details><summary><code>/g) ?? [];
    expect(sections.length).toBeGreaterThan(0);
    expect(sections.length).toBeLessThanOrEqual(150); // at most 50 per kind
    expect(md).toMatch(/_and \d+ more ToolVersion object\(s\) not shown here; run `converge drift --format json`/);
    expect(md).toContain('| ToolVersion | 0 | 300 | 0 | 0 | 400 |');
    expect(md).toMatch(/- \*\*ToolVersion\*\* \(400\): .*, and \d+ more/);
    expect(balanced(md, 'details')).toBe(true);
  });

  it('shrinks the caps to whatever fits a smaller limit, and cuts as a last resort', () => {
    const small = formatDriftMarkdown(report(bigPlan()), { maxChars: 8_000 });
    expect(small.length).toBeLessThanOrEqual(8_000);
    expect(small).toContain('| **total** |');
    expect(balanced(small, 'details')).toBe(true);
    const tiny = formatDriftMarkdown(report(bigPlan()), { maxChars: 600 });
    expect(tiny.length).toBeLessThanOrEqual(600);
    expect(tiny).toContain('The report was cut to fit');
  });
});
