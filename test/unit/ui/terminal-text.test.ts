/**
 * Server text in the text reporters: the function itself, the Ink apply
 * view's store and the plain lines (the e2e side is
 * test/e2e/terminal-text.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { colorsFor } from '../../../src/ui/colors.ts';
import { ApplyViewStore } from '../../../src/ui/ink/store.ts';
import { memoryOutput } from '../../../src/ui/output.ts';
import { plainReporter } from '../../../src/ui/plain-reporter.ts';
import { terminalLine, terminalLines } from '../../../src/ui/terminal-text.ts';
import { ev, planned, planOf, summary } from './events.ts';

/** OSC 52, clear-screen, a CR and a forged line, a C1 CSI and a right-to-left override. */
const HOSTILE = 'a\u001b]52;c;ZXZpbA==\u0007\u001b[2J\rSuccess!\n\u009b31m\u202egnp.exe';
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202e]/;

describe('terminal text', () => {
  it('shows C0 controls as control pictures, C1 and bidi controls as escapes, keeps tabs', () => {
    expect(terminalLine(HOSTILE)).toBe('a␛]52;c;ZXZpbA==␇␛[2J␍Success!␊\\u009b31m\\u202egnp.exe');
    expect(terminalLine('a\tb\u007f')).toBe('a\tb␡');
    expect(terminalLine('plain text, ünïcode ✓')).toBe('plain text, ünïcode ✓');
  });

  it('keeps the lines of a log; a CRLF is a line end, a bare CR is shown', () => {
    expect(terminalLines('one\r\ntwo\rTWO\nthree\u001b[1A')).toBe('one\ntwo␍TWO\nthree␛[1A');
  });

  it('the Ink view shows keys and messages, redacted and made safe', () => {
    const action = planned(`AdminUser/${HOSTILE}`, 'create');
    const store = new ApplyViewStore();
    store.fold(ev({ type: 'plan-ready', plan: planOf([action]) }));
    store.fold(ev({ type: 'apply-start', total: 1 }));
    store.fold(ev({ type: 'action-start', action }));
    const error = { message: `POST /users: 422 ${HOSTILE}` };
    store.fold(ev({ type: 'action-failed', action, error }));
    store.fold(
      ev({ type: 'apply-done', summary: summary({ failed: [{ key: action.key, action: 'create', error }] }) }),
    );
    const view = store.getSnapshot();
    expect(JSON.stringify(view)).not.toMatch(/\\u001b|\\r|\\u0007/);
    expect(view.failures[0]!.message).toContain('␛]52;c;');
    expect(view.summary!.failed[0]!.key).toContain('␛[2J␍Success!');
  });

  it('the plain lines show keys and messages made safe', () => {
    const output = memoryOutput();
    const report = plainReporter(output, colorsFor(process.stdout, false));
    const action = planned(`AdminUser/${HOSTILE}`, 'create');
    const error = { message: HOSTILE };
    report(ev({ type: 'apply-start', total: 1 }));
    report(ev({ type: 'action-failed', action, error }));
    report(ev({ type: 'retry', method: 'GET', path: `/users/${HOSTILE}`, attempt: 1, delayMs: 1, reason: HOSTILE }));
    report(ev({ type: 'apply-done', summary: summary({ failed: [{ key: action.key, action: 'create', error }] }) }));
    for (const line of [...output.stdout, ...output.stderr]) expect(line).not.toMatch(CONTROL);
    expect(output.stdout.join('\n')).toContain('failed to create AdminUser/a␛]52;c;ZXZpbA==␇');
  });
});
