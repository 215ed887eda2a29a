import { EventEmitter } from 'node:events';
import pc from 'picocolors';
import { describe, expect, it } from 'vitest';
import { registerSecret } from '../../../src/api/redact.ts';
import { startInkReporter } from '../../../src/ui/ink/render.ts';
import { memoryOutput } from '../../../src/ui/output.ts';
import { ev, planned, planOf, summary, unstyled } from './events.ts';

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

describe('startInkReporter', () => {
  it('prints reading as plain lines, mounts on apply-start, and leaves the log and summary on close', async () => {
    registerSecret('tok-abcdef-123456');
    const terminal = new FakeTerminal();
    const output = memoryOutput();
    const reporter = startInkReporter({
      stream: terminal as unknown as NodeJS.WriteStream,
      output,
      colors: pc.createColors(false),
    });
    const settings = planned('GeneralSettings');
    const ann = planned('AdminUser/ann', 'create');
    reporter.listener(ev({ type: 'read-start', kinds: ['GeneralSettings', 'AdminUser'] }));
    reporter.listener(ev({ type: 'read-done', objects: 2, elapsedMs: 15 }));
    reporter.listener(ev({ type: 'plan-ready', plan: planOf([settings, ann]) }));
    // before apply-start the terminal belongs to the plan and the prompt
    expect(terminal.written).toBe('');
    expect(output.stderr).toEqual(['Read 2 live object(s) in 15 ms']);

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
    const terminal = new FakeTerminal();
    terminal.columns = 400;
    const reporter = startInkReporter({
      stream: terminal as unknown as NodeJS.WriteStream,
      output: memoryOutput(),
      colors: pc.createColors(false),
    });
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
    const terminal = new FakeTerminal();
    const reporter = startInkReporter({
      stream: terminal as unknown as NodeJS.WriteStream,
      output: memoryOutput(),
      colors: pc.createColors(false),
    });
    reporter.listener(ev({ type: 'read-start', kinds: [] }));
    await reporter.close();
    expect(terminal.written).toBe('');
  });
});
