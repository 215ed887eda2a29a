/** Policy results as text (src/policy/report.ts): what reaches a terminal is shown, never run. */
import { describe, expect, it } from 'vitest';
import type { PolicyResult } from '../../../src/policy/evaluate.ts';
import { violationLine } from '../../../src/policy/report.ts';

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
