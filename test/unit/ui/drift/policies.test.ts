/** Policy results in every drift format: text, JSON, Markdown, and a JUnit case per policy and object. */
import { describe, expect, it } from 'vitest';
import type { PolicyResult } from '../../../../src/policy/evaluate.ts';
import { summarizePolicies } from '../../../../src/policy/report.ts';
import { colorsFor } from '../../../../src/ui/colors.ts';
import { formatDriftJson } from '../../../../src/ui/drift/json.ts';
import { formatDriftJunit } from '../../../../src/ui/drift/junit.ts';
import { formatDriftMarkdown } from '../../../../src/ui/drift/markdown.ts';
import { formatDriftText } from '../../../../src/ui/drift/text.ts';
import { GITHUB_COMMENT_LIMIT } from '../../../../src/ui/markdown.ts';
import { renderPlan } from '../../../../src/ui/plan/index.ts';
import { action, plan, report } from './builders.ts';

const source = { file: 'base/tools.yaml', line: 5, col: 1 };
const result = (policy: string, object: string, outcome: PolicyResult['outcome']): PolicyResult => ({
  policy,
  enforcement: outcome === 'warn' ? 'warn' : 'deny',
  outcome,
  message: `${policy} | says <no>`,
  object,
  kind: 'ToolVersion',
  source,
});
const policies = summarizePolicies({
  evaluated: 3,
  results: [
    result('release-host', 'ToolVersion/1.0.0', 'allow'),
    result('release-host', 'ToolVersion/1.0.1', 'deny'),
    result('beta-channel', 'ToolVersion/1.0.1', 'warn'),
  ],
});
const drift = report(plan([action('ToolVersion', '1.0.0', 'noop'), action('ToolVersion', '1.0.1', 'create')]), {
  policies,
});

describe('policy results in drift reports', () => {
  it('text: each violation with its place, then the count', () => {
    const lines = formatDriftText(drift, colorsFor(process.stdout, false));
    expect(lines).toContain(
      'denied by policy release-host: ToolVersion/1.0.1 (base/tools.yaml:5:1): release-host | says <no>',
    );
    expect(lines).toContain('Policies: 3 check(s), 1 denied, 1 warning(s).');
  });

  it('JSON: the counts and the violations', () => {
    const json = JSON.parse(formatDriftJson(drift));
    expect(json.policies).toMatchObject({ evaluated: 3, denied: 1, warned: 1 });
    expect(json.policies.violations.map((v: { policy: string; outcome: string }) => [v.policy, v.outcome])).toEqual([
      ['release-host', 'deny'],
      ['beta-channel', 'warn'],
    ]);
  });

  it('Markdown: a table with the message escaped', () => {
    const md = formatDriftMarkdown(drift);
    expect(md).toContain('### Policies');
    expect(md).toContain(
      '| ❌ denied | <code>release-host</code> | <code>ToolVersion/1.0.1</code> | <code>base/tools.yaml:5:1</code> | release-host &#124; says &#60;no&#62; |',
    );
  });

  it('JUnit: one case per policy and object; a denial fails, a warning passes with its message', () => {
    const xml = formatDriftJunit(drift);
    expect(xml).toContain('<testsuite name="converge drift: Policy release-host" tests="2" failures="1"');
    expect(xml).toContain('<testsuite name="converge drift: Policy beta-channel" tests="1" failures="0"');
    expect(xml).toContain('<failure type="policy-denied" message="release-host | says &lt;no&gt;">');
    expect(xml).toContain(
      '<system-out>warning: ToolVersion/1.0.1 (base/tools.yaml:5): beta-channel | says &lt;no&gt;</system-out>',
    );
  });
});

describe('hundreds of policy warnings in a Markdown report', () => {
  // 400 warnings of a long message: a table of them alone is over the comment's limit
  const message = `tool versions come from the release host: ${'a long explanation of why, '.repeat(6)}`;
  const tools = Array.from({ length: 400 }, (_, i) => `1.0.${i}`);
  const many = summarizePolicies({
    evaluated: 401,
    results: [
      { ...result('release-host', 'ToolVersion/9.9.9', 'deny'), message },
      ...tools.map((name) => ({ ...result('beta-channel', `ToolVersion/${name}`, 'warn'), message })),
    ],
  });
  const changes = plan(
    tools
      .slice(0, 30)
      .map((name) => action('ToolVersion', name, 'create', [{ path: 'url', after: `https://x/${name}` }])),
  );
  const shownObjects = (md: string) => md.split('\n').filter((line) => line.startsWith('<details><summary>')).length;

  it('drift: the objects are still shown, the table capped, its denial first, the rest counted', () => {
    const md = formatDriftMarkdown(report(changes, { policies: many }));
    expect(md.length).toBeLessThanOrEqual(60_000);
    expect(shownObjects(md)).toBeGreaterThanOrEqual(20);
    const rows = md.split('\n').filter((line) => line.startsWith('| ❌') || line.startsWith('| ⚠️'));
    expect(rows.length).toBeLessThan(401);
    expect(rows[0]).toContain('ToolVersion/9.9.9');
    expect(md).toContain(`_and ${401 - rows.length} more warning(s) not listed here;`);
    expect(md).toContain('Policies: 401 check(s), 1 denied, 400 warning(s).');
  });

  it('plan: the changes keep their sections, the table capped', async () => {
    const meta = { generatedAt: '2026-03-01T12:00:00.000Z', converge: '0.1.0' };
    const colors = colorsFor(process.stdout, false);
    const md = await renderPlan('markdown', { plan: changes, meta, colors, policies: many });
    expect(md.length).toBeLessThanOrEqual(GITHUB_COMMENT_LIMIT);
    expect(shownObjects(md)).toBe(30);
    expect(md).toMatch(/_and \d+ more warning\(s\) not listed here;/);
  });
});
