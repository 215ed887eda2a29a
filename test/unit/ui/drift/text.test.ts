import pc from 'picocolors';
import { describe, expect, it } from 'vitest';
import { formatDriftText } from '../../../../src/ui/drift/text.ts';
import { action, CANARY, mixedPlan, plan, report } from './builders.ts';

const plain = pc.createColors(false);

describe('drift as text', () => {
  it('is headed Drift and shows each differing object with its fields as live -> manifest', () => {
    const text = formatDriftText(report(mixedPlan()), plain).join('\n');
    expect(text.split('\n')[0]).toBe('Drift against https://tfe.example.com at 2026-03-01T12:00:00.000Z');
    expect(text).toContain(
      '  ~ drifted GeneralSettings\n        api-rate-limit: 250 -> 60\n        plan-timeout: 18000 -> 10800',
    );
    expect(text).toContain('  + missing ToolVersion/1.10.0\n        sha: "abc"');
    expect(text).toContain('  - to delete ToolVersion/1.2.0 (ensure: absent)');
    expect(text).toContain(
      '  ~ drifted (replacement needed) ToolVersion/1.3.0\n        sha: "aaa" -> "bbb" (forces replacement)',
    );
    expect(text).not.toContain('ToolVersion/1.9.8'); // in sync: not listed
    expect(text).toContain('Unmanaged (2): live objects that no manifest mentions');
    expect(text).toContain('  ? ToolVersion/0.9.0 (in an ownership scope: --prune deletes it)');
    expect(text).toContain('Not compared\n  SMSSettings: auth-token is write-only');
    expect(text.trimEnd().split('\n').at(-1)).toMatch(/^Drift: 5 of 7 object\(s\) differ/);
  });

  it('marks secrets as (sensitive) and never prints their values', () => {
    const text = formatDriftText(report(mixedPlan()), plain).join('\n');
    expect(text).toContain('password: (sensitive) changed since last apply');
    expect(text).not.toContain(CANARY);
  });

  it('says so when nothing differs', () => {
    const text = formatDriftText(report(plan([action('ToolVersion', '1.9.8', 'noop')])), plain);
    expect(text.at(-1)).toBe('No drift: 1 object(s) match the manifests.');
    expect(text.join('\n')).not.toContain('->');
  });
});
