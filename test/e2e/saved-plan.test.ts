/**
 * Saved plans are records of what was reviewed, never programs (issue: saved
 * plans trusted). `apply FILE` plans again and runs only if every action is
 * the one in the file; tampered, foreign, empty or malformed files are
 * refused with one line and exit 1, and nothing is sent.
 */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type RunningEmulator, startEmulator } from '../../src/emulator/server.ts';
import { converge } from '../helpers/cli.ts';

let emulator: RunningEmulator;
let scratch: string;
let manifests: string;
let planFile: string;

const MANIFESTS = [
  'kind: GeneralSettings',
  'spec: {api-rate-limit: 45}',
  '---',
  'kind: ToolVersion',
  'metadata: {name: 9.9.9}',
  'spec: {url: "https://example.com/t.zip", sha: "' + 'a'.repeat(64) + '"}',
].join('\n');

beforeEach(async () => {
  emulator = await startEmulator({ port: 0 });
  scratch = await mkdtemp(join(tmpdir(), 'converge-saved-'));
  manifests = join(scratch, 'm.yaml');
  planFile = join(scratch, 'plan.json');
  await writeFile(manifests, MANIFESTS);
});
afterEach(() => emulator?.close());

const envFor = (server: RunningEmulator) => ({
  CONVERGE_PLATFORM_URL: server.url,
  CONVERGE_PLATFORM_TOKEN: server.tokens.admin,
  CONVERGE_SECRETS_URL: server.url,
  CONVERGE_SECRETS_TOKEN: server.tokens.secrets,
});
const run = (args: string[], server = emulator) => converge(args, { cwd: scratch, env: envFor(server) });
const writes = (server = emulator) => Object.keys(server.stats().byRoute).filter((route) => !route.startsWith('GET '));

async function savedPlan(): Promise<Record<string, unknown> & { plan: { actions: Array<Record<string, unknown>> } }> {
  expect((await run(['plan', manifests, '--out', planFile])).code).toBe(0);
  return JSON.parse(await readFile(planFile, 'utf8'));
}

async function applyEdited(edit: (saved: Awaited<ReturnType<typeof savedPlan>>) => void) {
  const saved = await savedPlan();
  edit(saved);
  await writeFile(planFile, JSON.stringify(saved));
  emulator.resetStats();
  return run(['apply', planFile]);
}

describe('apply of a saved plan', () => {
  it('refuses an injected delete, whatever the counts say, and sends nothing', async () => {
    const result = await applyEdited((saved) => {
      saved.plan.actions.push({
        key: 'AdminUser/owner',
        kind: 'AdminUser',
        address: { kind: 'AdminUser', name: 'owner' },
        action: 'delete',
        changes: [],
        dependsOn: [],
        ref: 'user-owner',
      });
      (saved.plan as Record<string, unknown>).counts = { create: 1, update: 1 };
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('AdminUser/owner: the file says delete, planning now says nothing to do');
    expect(result.stderr).toContain('nothing was sent');
    expect(writes()).toEqual([]);
  });

  it('refuses a plan whose shown value was edited', async () => {
    const result = await applyEdited((saved) => {
      const update = saved.plan.actions.find((a) => a.key === 'GeneralSettings') as {
        changes: Array<{ after?: unknown }>;
      };
      update.changes[0]!.after = 30;
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("GeneralSettings: the file's update differs from the update planned now");
    expect(writes()).toEqual([]);
  });

  it('refuses a plan with an action removed', async () => {
    const result = await applyEdited((saved) => {
      saved.plan.actions = saved.plan.actions.filter((a) => a.key !== 'ToolVersion/9.9.9');
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('ToolVersion/9.9.9: planning now says create, the file does not');
    expect(writes()).toEqual([]);
  });

  it('refuses a plan made against another server', async () => {
    await savedPlan();
    const other = await startEmulator({ port: 0 });
    try {
      const result = await run(['apply', planFile], other);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('the plan was made against other servers');
      expect(result.stderr).toContain(`platform: planned against ${emulator.url}, now ${other.url}`);
      expect(writes(other)).toEqual([]);
    } finally {
      await other.close();
    }
  });

  it('applies an untouched plan, and then there is nothing left to do', async () => {
    await savedPlan();
    const applied = await run(['apply', planFile]);
    expect(applied.code).toBe(0);
    expect(applied.stdout).toContain('Apply complete: 1 updated, 1 created');
    expect((await run(['plan', manifests, '--detailed-exitcode'])).code).toBe(0);
  });

  it.each([
    ['an empty file', '', 'the file is empty, not a saved plan'],
    ['whitespace', '  \n', 'the file is empty, not a saved plan'],
    ['not JSON', '{"format": "converge-plan", ', 'not a saved plan:'],
    ['a JSON list', '[]', 'not a saved plan (not a JSON object)'],
    ['another JSON object', '{"a": 1}', 'not a saved plan (no "format": "converge-plan")'],
    ['an old version', '{"format": "converge-plan", "version": 1}', 'plan format version 1 is not supported'],
    ['the previous version', '{"format": "converge-plan", "version": 2}', 'plan format version 2 is not supported'],
    [
      'a plan without its parts',
      '{"format": "converge-plan", "version": 3, "plan": {"actions": "all"}}',
      'not a well-formed saved plan (manifests; config; options; servers; key; desired; live; plan.actions; integrity)',
    ],
  ])('refuses %s with one clear line and exit 1', async (_what, text, message) => {
    await writeFile(planFile, text);
    const result = await run(['apply', planFile]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(message);
    expect(result.stderr).not.toMatch(/hit a bug|at .*\.ts:\d+/);
    expect(emulator.stats().total).toBe(0);
  });
});
