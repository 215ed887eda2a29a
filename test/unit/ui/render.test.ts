import { EventEmitter } from 'node:events';
import pc from 'picocolors';
import { describe, expect, it, vi } from 'vitest';
import { registerSecret } from '../../../src/api/redact.ts';
import { startInkReporter } from '../../../src/ui/ink/render.ts';
import { memoryOutput } from '../../../src/ui/output.ts';
import { ev, planned, planOf, summary, unstyled } from './events.ts';
import { screenOf } from './screen.ts';

/** A terminal-like stream that keeps everything written to it. */
class FakeTerminal extends EventEmitter {
  isTTY = true;
  columns = 100;
  rows = 40;
  written = '';
  write(chunk: string | Uint8Array, ...rest: unknown[]): boolean {
    this.written += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString();
    const callback = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
    callback?.();
    return true;
  }
}

/** A reporter on a fake terminal, without colour. */
function started(columns = 100) {
  const terminal = new FakeTerminal();
  terminal.columns = columns;
  const output = memoryOutput();
  const reporter = startInkReporter({
    stream: terminal as unknown as NodeJS.WriteStream,
    output,
    colors: pc.createColors(false),
  });
  return { terminal, output, reporter };
}

describe('startInkReporter', () => {
  it('shows reading as it goes, leaves one line when it ends, then the retries met meanwhile', async () => {
    const { terminal, output, reporter } = started();
    reporter.listener(ev({ type: 'read-start', kinds: ['GeneralSettings', 'AdminUser'] }));
    reporter.listener(ev({ type: 'read-progress', kind: 'GeneralSettings', objects: 1, requests: 1, done: true }));
    reporter.listener(
      ev({ type: 'retry', method: 'GET', path: '/api/v2/admin/users', attempt: 1, delayMs: 100, reason: '503' }),
    );
    reporter.listener(ev({ type: 'read-progress', kind: 'AdminUser', objects: 3, requests: 3, done: false }));
    // the view draws on its ticker: wait for the frame with the last progress (long: a machine
    // busy with other test files can hold the ticker back for seconds)
    await vi.waitFor(() => expect(screenOf(terminal.written).join('\n')).toContain('3 object(s) so far'), 20_000);
    expect(screenOf(terminal.written)).toEqual([
      expect.stringMatching(
        /^. Reading live state {2}1\/2 kind\(s\) read · 4 object\(s\) · 3 request\(s\) · .* · 1 retried$/,
      ),
      '  AdminUser  3 object(s) so far',
      '  last retry: GET /api/v2/admin/users: 503',
    ]);
    // the retry waits for the view to go: a line written under a live region would be drawn over
    expect(output.stderr).toEqual([]);

    reporter.listener(ev({ type: 'read-progress', kind: 'AdminUser', objects: 3, requests: 4, done: true }));
    reporter.listener(ev({ type: 'read-done', objects: 4, requests: 4, elapsedMs: 260 }));
    expect(screenOf(terminal.written)).toEqual(['Read 4 live object(s) in 260ms, 4 request(s)']);
    expect(output.stderr).toEqual(['retrying GET /api/v2/admin/users in 100 ms (503)']);
    const before = terminal.written;
    reporter.listener(ev({ type: 'plan-ready', plan: planOf([planned('GeneralSettings')]) }));
    await reporter.close();
    // nothing is drawn again before an apply starts
    expect(terminal.written).toBe(before);
  });

  it('says where a failed read stopped when it is closed', async () => {
    const { terminal, reporter } = started();
    reporter.listener(ev({ type: 'read-start', kinds: ['AdminUser', 'SSHRole'] }));
    reporter.listener(ev({ type: 'read-progress', kind: 'AdminUser', objects: 2, requests: 1, done: true }));
    await reporter.close();
    expect(screenOf(terminal.written)).toEqual([
      expect.stringMatching(/^Reading stopped after [\d.]+m?s: 1\/2 kind\(s\) read, 2 object\(s\), 1 request\(s\)$/),
    ]);
  });

  it('mounts the apply view on apply-start, and leaves the log and summary on close', async () => {
    registerSecret('tok-abcdef-123456');
    const { terminal, output, reporter } = started();
    const settings = planned('GeneralSettings');
    const ann = planned('AdminUser/ann', 'create');
    reporter.listener(ev({ type: 'read-start', kinds: [] }));
    reporter.listener(ev({ type: 'read-done', objects: 0, requests: 0, elapsedMs: 15 }));
    reporter.listener(ev({ type: 'plan-ready', plan: planOf([settings, ann]) }));
    // before apply-start the terminal belongs to the plan and the prompt
    expect(terminal.written).toBe('');
    expect(output.stderr).toEqual(['Read 0 live object(s) in 15 ms, 0 request(s)']);

    reporter.listener(ev({ type: 'apply-start', total: 2 }));
    reporter.listener(ev({ type: 'action-start', action: settings }));
    reporter.listener(ev({ type: 'action-start', action: ann }));
    reporter.listener(ev({ type: 'action-done', action: settings, elapsedMs: 42 }));
    const message = 'POST /api/users: 401 token tok-abcdef-123456 rejected';
    reporter.listener(ev({ type: 'action-failed', action: ann, error: { message } }));
    reporter.listener(
      ev({
        type: 'apply-done',
        summary: summary({
          done: { update: 1 },
          failed: [{ key: ann.key, action: 'create', error: { message } }],
          elapsedMs: 50,
        }),
      }),
    );
    await reporter.close();

    const screen = unstyled(terminal.written);
    expect(screen).toContain('Applying 2 change(s): 1 update, 1 create');
    expect(screen.split('✓ update  GeneralSettings  42ms')).toHaveLength(2);
    expect(screen).toContain('✗ create  AdminUser/ann  failed: POST /api/users: 401 token *** rejected');
    expect(screen).toContain('Apply finished with failures: 1 updated; 1 failed; 0 skipped (0.1 s)');
    expect(terminal.written).not.toContain('tok-abcdef-123456');
    // nothing else went to the plain output once the view took over
    expect(output.stdout).toEqual([]);
  });

  it('says what a failed replacement left live', async () => {
    const { terminal, reporter } = started(400);
    const role = planned('LDAPStaticRole/app1', 'replace');
    const error = {
      message:
        'replace failed: the create was refused (400 could not find the account "svc-app2" in the directory); ' +
        'the previous LDAPStaticRole/app1 was restored from what was read',
      code: 'REPLACE_FAILED',
      live: 'restored' as const,
    };
    reporter.listener(ev({ type: 'plan-ready', plan: planOf([role]) }));
    reporter.listener(ev({ type: 'apply-start', total: 1 }));
    reporter.listener(ev({ type: 'action-start', action: role }));
    reporter.listener(ev({ type: 'action-failed', action: role, error }));
    const failed = [{ key: role.key, action: 'replace' as const, error }];
    reporter.listener(ev({ type: 'apply-done', summary: summary({ failed, elapsedMs: 50 }) }));
    await reporter.close();
    const screen = unstyled(terminal.written);
    expect(screen).toContain(`✗ replace LDAPStaticRole/app1  failed: ${error.message}`);
    expect(screen).toContain('Apply finished with failures: nothing done; 1 failed; 0 skipped (0.1 s)');
  });

  it('closes cleanly when the apply never started', async () => {
    const { terminal, reporter } = started();
    reporter.listener(ev({ type: 'read-start', kinds: [] }));
    await reporter.close();
    expect(terminal.written).toBe('');
  });
});
