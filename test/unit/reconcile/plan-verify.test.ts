/**
 * A saved plan's integrity check, offline: keyed digests that bind object
 * and field, a key that tells another key from an edited file, and one
 * refusal that names every difference (configuration section, object and
 * field, live field, action) instead of a guess.
 */
import { describe, expect, it } from 'vitest';
import { PlanDigester } from '../../../src/reconcile/plan-digests.ts';
import { PLAN_FORMAT, PLAN_VERSION, type SavedPlan } from '../../../src/reconcile/plan-file.ts';
import { checkKey, type VerifyInput, verifySavedPlan } from '../../../src/reconcile/plan-verify.ts';
import type { Plan } from '../../../src/reconcile/types.ts';
import { desired, live } from './builders.ts';

const SERVERS = { platform: 'https://tfe.example.com' };
const SETTINGS = desired('GeneralSettings', '', { 'api-rate-limit': 45, 'smtp-password': 'first' });
const LIVE = live('GeneralSettings', '', { 'api-rate-limit': 30 });
const UPDATE: Plan = {
  actions: [
    {
      key: 'GeneralSettings',
      kind: 'GeneralSettings',
      address: { kind: 'GeneralSettings', name: '' },
      action: 'update',
      changes: [{ path: 'api-rate-limit', before: 30, after: 45 }],
      dependsOn: [],
    },
  ],
  unmanaged: [],
  counts: { update: 1 },
};

function savedWith(digester: PlanDigester, plan: Plan = UPDATE): SavedPlan {
  const body: Omit<SavedPlan, 'integrity'> = {
    format: PLAN_FORMAT,
    version: PLAN_VERSION,
    createdAt: '2026-01-01T00:00:00.000Z',
    converge: 'test',
    manifests: ['/repo/m.yaml'],
    config: { digests: digester.config({ ownership: [], 'guard.maxDeletes': 10 }) },
    options: { prune: false, targets: [], selectors: {}, resendSecrets: false },
    servers: SERVERS,
    key: digester.record,
    desired: { GeneralSettings: digester.desired('GeneralSettings', SETTINGS, undefined) },
    live: { GeneralSettings: digester.live('GeneralSettings', LIVE, undefined) },
    plan,
  };
  return { ...body, integrity: digester.integrity(body) };
}

function now(digester: PlanDigester, saved: SavedPlan, change: Partial<VerifyInput> = {}): VerifyInput {
  return {
    plan: saved.plan,
    servers: SERVERS,
    intact: digester.integrity(saved) === saved.integrity,
    config: { file: undefined, digests: digester.config({ ownership: [], 'guard.maxDeletes': 10 }) },
    desired: { GeneralSettings: digester.desired('GeneralSettings', SETTINGS, undefined) },
    live: () => digester.live('GeneralSettings', LIVE, undefined),
    changed: (_key, field) => `${field} changed (test)`,
    ...change,
  };
}

const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('not refused');
};

describe('a saved plan’s integrity', () => {
  const digester = PlanDigester.create('tokens', 'token-a');
  // the key derived again from the token and the file's salt, as `converge apply` does: derived
  // once (scrypt costs tens of milliseconds by design) and used by every test that checks a file
  let derivedAgain: PlanDigester | undefined;
  const again = () => {
    derivedAgain ??= PlanDigester.derive('tokens', 'token-a', digester.record.salt);
    return derivedAgain;
  };

  it('holds for the file as converge wrote it, through JSON, with the key derived again', () => {
    const saved = JSON.parse(JSON.stringify(savedWith(digester))) as SavedPlan;
    const key = again();
    expect(() => checkKey(saved, SERVERS, key)).not.toThrow();
    expect(verifySavedPlan(saved, now(key, saved))).toBe(saved.plan);
  });

  it('keeps no value: digests bind the object and field, so equal values do not show as equal', () => {
    const a = desired('SMTPSettings', '', { password: 'same', username: 'same' });
    const digests = digester.desired('SMTPSettings', a, undefined);
    expect(digests.password).not.toBe(digests.username);
    expect(JSON.stringify(savedWith(digester))).not.toContain('first');
  });

  it.each([
    ['options', (s: SavedPlan) => (s.options.prune = true)],
    ['targets', (s: SavedPlan) => s.options.targets.push('ToolVersion')],
    ['configuration path', (s: SavedPlan) => (s.config.file = '/elsewhere/converge.yaml')],
    ['manifests', (s: SavedPlan) => s.manifests.push('/elsewhere')],
    ['an action', (s: SavedPlan) => (s.plan.counts = { update: 0 })],
  ])('tells an edited %s', (_what, edit) => {
    const saved = savedWith(digester);
    edit(saved);
    const message = refusal(() => verifySavedPlan(saved, now(again(), saved)));
    expect(message).toContain('the plan file was changed after converge wrote it');
  });

  it('tells another key from an edited file, and says which', () => {
    const saved = savedWith(digester);
    expect(refusal(() => checkKey(saved, SERVERS, PlanDigester.derive('tokens', 'token-b', saved.key.salt)))).toContain(
      'the plan was made with other API tokens',
    );
    expect(
      refusal(() => checkKey(saved, SERVERS, PlanDigester.derive('plan-key', 'token-a', saved.key.salt))),
    ).toContain('with the API tokens, and CONVERGE_PLAN_KEY is set now');
    expect(refusal(() => checkKey(saved, { platform: 'https://other.example.com' }, again()))).toContain(
      'platform: planned against https://tfe.example.com, now https://other.example.com',
    );
  });

  it('names the configuration sections, the objects and fields, and the live fields that changed', () => {
    const saved = savedWith(digester);
    const key = again();
    const changed = desired('GeneralSettings', '', { 'api-rate-limit': 45, 'smtp-password': 'third' });
    const message = refusal(() =>
      verifySavedPlan(
        saved,
        now(key, saved, {
          config: {
            file: '/b/converge.yaml',
            digests: key.config({ ownership: [{ kind: 'X' }], 'guard.maxDeletes': 10 }),
          },
          desired: {
            GeneralSettings: key.desired('GeneralSettings', changed, undefined),
            'ToolVersion/1.0.0': key.desired('ToolVersion/1.0.0', desired('ToolVersion', '1.0.0', {}), undefined),
          },
          live: () => key.live('GeneralSettings', live('GeneralSettings', '', { 'api-rate-limit': 99 }), undefined),
        }),
      ),
    );
    expect(message).not.toContain('changed after converge wrote it');
    for (const said of [
      "the configuration differs from the plan's (planned with no configuration file, now /b/converge.yaml) in:\n    ownership\n",
      'GeneralSettings: smtp-password: smtp-password changed (test)',
      'ToolVersion/1.0.0: declared since the plan',
      'live state changed since the plan was made. Changed:\n    GeneralSettings: api-rate-limit',
    ]) {
      expect(message).toContain(said);
    }
    expect(message).not.toMatch(/first|third/);
  });

  it('names the fields of an action that differs from the one planned now', () => {
    const saved = savedWith(digester);
    const fresh: Plan = structuredClone(UPDATE);
    fresh.actions[0]!.changes = [{ path: 'api-rate-limit', before: 30, after: 50 }];
    const message = refusal(() => verifySavedPlan(saved, now(again(), saved, { plan: fresh })));
    expect(message).toContain(
      "GeneralSettings: the file's update differs from the update planned now (api-rate-limit)",
    );
  });
});
