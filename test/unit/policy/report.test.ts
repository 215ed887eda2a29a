/** Policy results as text (src/policy/report.ts): what reaches a terminal is shown, never run. */
import { describe, expect, it } from 'vitest';
import type { PolicyResult } from '../../../src/policy/evaluate.ts';
import { policyMarkdown, summarizePolicies, violationLine } from '../../../src/policy/report.ts';

const violation = (object: string, message = 'no deletes'): PolicyResult => ({
  policy: 'no-deletes',
  enforcement: 'deny',
  outcome: 'deny',
  message,
  object,
  kind: 'SSHRole',
});

describe('violationLine', () => {
  it("shows the control characters of a live object's name: a pruned role named with ESC [2J does not clear the screen", () => {
    const line = violationLine(violation('SSHRole/ssh/x\u001b[2J\u001b]52;c;ZXZpbA==\u0007\ry'));
    expect(line).toBe('denied by policy no-deletes: SSHRole/ssh/x␛[2J␛]52;c;ZXZpbA==␇␍y: no deletes');
  });

  it('shows those of the message too, and keeps a plain line as it is', () => {
    expect(violationLine(violation('SSHRole/ssh/web', 'a\nb'))).toBe(
      'denied by policy no-deletes: SSHRole/ssh/web: a␊b',
    );
    expect(
      violationLine({ ...violation('ToolVersion/1.0.1'), source: { file: 'm/tools.yaml', line: 5, col: 1 } }),
    ).toBe('denied by policy no-deletes: ToolVersion/1.0.1 (m/tools.yaml:5:1): no deletes');
  });
});

describe('policyMarkdown', () => {
  const warning = (object: string): PolicyResult => ({ ...violation(object), enforcement: 'warn', outcome: 'warn' });
  const summary = summarizePolicies({
    evaluated: 6,
    results: [warning('a'), violation('b'), warning('c'), violation('d'), warning('e')],
  });
  const rows = (lines: string[]) => lines.filter((line) => /^\| (❌|⚠️)/.test(line));

  it('lists every violation, denials first, without a cap', () => {
    const lines = policyMarkdown(summary);
    expect(rows(lines).map((line) => line.match(/<code>(\w)<\/code>/)?.[1])).toEqual(['b', 'd', 'a', 'c', 'e']);
    expect(lines.join('\n')).not.toContain('not listed');
  });

  it('lists as many rows as it is given, denials first, and counts the rest', () => {
    expect(rows(policyMarkdown(summary, { rows: 3 }))).toHaveLength(3);
    expect(policyMarkdown(summary, { rows: 3 }).at(-1)).toBe(
      '_and 2 more warning(s) not listed here; the JSON report (`--format json`) lists every one._',
    );
    expect(policyMarkdown(summary, { rows: 1 }).at(-1)).toMatch(/^_and 1 more denial\(s\) and 3 more warning\(s\) /);
    const none = policyMarkdown(summary, { rows: 0 });
    expect(rows(none)).toEqual([]);
    expect(none).toContain('Policies: 6 check(s), 2 denied, 3 warning(s).');
    expect(none.at(-1)).toMatch(/^_2 denial\(s\) and 3 warning\(s\) not listed here;/);
  });
});
