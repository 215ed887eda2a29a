/**
 * The apply view in a real terminal: the CLI runs under tmux (a pty, so
 * stdout is a TTY and the Ink view is chosen), and the screen is read with
 * capture-pane, during the run and after it.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type RunningEmulator, startEmulator } from '../../src/emulator/server.ts';
import { CLI } from '../helpers/cli.ts';
import { kindsFixtureSecrets } from '../helpers/kinds-fixture.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const KINDS = fileURLToPath(new URL('../fixtures/kinds/', import.meta.url));
const hasTmux = (() => {
  try {
    execFileSync('tmux', ['-V']);
    return true;
  } catch {
    return false;
  }
})();

const tmux = (...args: string[]) => execFileSync('tmux', args, { encoding: 'utf8' });
/**
 * Between two reads of the screen. Each read starts a tmux client from this (large) process; every
 * state waited for lasts seconds (answers are held 300-400 ms each), so four reads a second see it.
 */
const POLL_MS = 250;
const screen = (session: string) => tmux('capture-pane', '-p', '-t', session);

async function waitFor(session: string, test: (text: string) => boolean, timeoutMs = 20_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  let text = '';
  while (Date.now() < deadline) {
    text = screen(session);
    if (test(text)) return text;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  throw new Error(`the screen never showed what was expected; last screen:\n${text}`);
}

/** The emulator's connection and what the kinds fixture reads from the environment. */
function kindEnv(): Record<string, string> {
  return {
    CONVERGE_PLATFORM_URL: emulator.url,
    CONVERGE_PLATFORM_TOKEN: emulator.tokens.admin,
    CONVERGE_SECRETS_URL: emulator.url,
    CONVERGE_SECRETS_TOKEN: emulator.tokens.secrets,
    // secrets long enough to be redacted anywhere, so no warning about them scrolls the view
    ...kindsFixtureSecrets('tmux'),
    TERM: 'xterm-256color',
  };
}

let emulator: RunningEmulator;
let session: string;

beforeEach(async () => {
  emulator = await startEmulator({ port: 0 });
  session = `converge-test-${process.pid}-${Date.now()}`;
});
afterEach(async () => {
  try {
    tmux('kill-session', '-t', session);
  } catch {
    // the session already ended
  }
  await emulator?.close();
});

// tmux is a test dependency: .ci/run installs it; a machine without it cannot run this test at all
describe.runIf(hasTmux || process.env.CI)('the apply view in a terminal (tmux)', () => {
  it('shows live rows while actions run, then finished rows and the summary', async () => {
    const scratch = await tempDir('tmux');
    const env = {
      ...kindEnv(),
      CONVERGE_FINGERPRINTS: join(scratch, 'fingerprints.json'),
    };
    const exports = Object.entries(env)
      .map(([k, v]) => `${k}='${v}'`)
      .join(' ');
    // slow answers keep actions in flight long enough to be seen on screen
    const command = `env -u CI ${exports} '${process.execPath}' '${CLI}' apply '${KINDS}' --auto-approve --parallelism 2; echo "exit=$?"; sleep 60`;
    emulator.setLatency(400);
    tmux('new-session', '-d', '-s', session, '-x', '140', '-y', '50', command);

    const during = await waitFor(session, (text) => /running|in flight|…/.test(text) && /\d+ done/.test(text));
    expect(during).toMatch(/\d+ done/);
    expect(during).toMatch(/ToolVersion|GeneralSettings|SAMLSettings|AdminUser/);

    emulator.setLatency(0);
    const after = await waitFor(session, (text) => text.includes('exit='), 60_000);
    expect(after).toContain('exit=0');
    expect(after).toMatch(/Apply complete/);
    expect(after).toMatch(/✓ .*ToolVersion\/1\.9\.8/);
    // the same run's secrets never reach the screen
    expect(after).not.toContain(emulator.tokens.admin);
  }, 90_000);

  it.each(['apply --auto-approve', 'plan'])(
    '%s: shows live state being read, then one line saying what was read, above the plan',
    async (args) => {
      const scratch = await tempDir('tmux');
      const exports = Object.entries({
        ...kindEnv(),
        CONVERGE_FINGERPRINTS: join(scratch, 'fingerprints.json'),
      })
        .map(([k, v]) => `${k}='${v}'`)
        .join(' ');
      const command = `env -u CI ${exports} '${process.execPath}' '${CLI}' ${args.replace(/^(\w+)/, `$1 '${KINDS}'`)}; echo "exit=$?"; sleep 60`;
      // a slow server: reading takes seconds, as against a real one
      emulator.setLatency(300);
      tmux('new-session', '-d', '-s', session, '-x', '140', '-y', '50', command);

      const reading = await waitFor(session, (text) => /Reading live state .*[1-9]\d* request\(s\)/.test(text));
      expect(reading).toMatch(
        /Reading live state {2}\d+\/\d+ kind\(s\) read · \d+ object\(s\) · \d+ request\(s\) · [\d.]+m?s/,
      );
      expect(reading).toMatch(/^ {2}\w+ {2}\d+ object\(s\) so far$/m);

      emulator.setLatency(0);
      await waitFor(session, (text) => text.includes('exit='), 60_000);
      // the whole history, scrolled off or not
      const after = tmux('capture-pane', '-p', '-S', '-', '-t', session);
      expect(after).toContain('exit=0');
      // the live region is gone: one line of it is left, first, and the plan follows it
      expect(after).not.toContain('Reading live state');
      expect(after).not.toContain('so far');
      const [first, second] = after.split('\n');
      expect(first).toMatch(/^Read \d+ live object\(s\) in [\d.]+m?s, \d+ request\(s\)$/);
      expect(second).toMatch(/^ {2}[+~-] /);
    },
    90_000,
  );
});
