/**
 * The field table's rules (src/providers/shared/fields.ts), with a small
 * test-only kind per rule: nested fields, defaults and applicability that
 * depend on another field, per-object secrecy, immutable and create-only
 * fields, and what the engine makes of them.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { providers } from '../../../src/providers/index.ts';
import { defineProvider } from '../../../src/providers/shared/define.ts';
import { canonicalForms } from '../../../src/providers/shared/fields.ts';
import { duration, integer } from '../../../src/providers/shared/normalize.ts';
import { flag, text, whenEnabled, writeOnly } from '../../../src/providers/shared/rules.ts';
import { buildPlan } from '../../../src/reconcile/plan.ts';
import type { Fields, Json, LiveObject } from '../../../src/reconcile/types.ts';
import { desired } from '../reconcile/builders.ts';

const secrets = { lookup: undefined, resend: false };

describe('nested fields', () => {
  const forms = canonicalForms({
    fields: { 'test-config.tests-enabled': flag(false), 'vcs-repo.branch': text(), 'vcs-repo.identifier': text() },
  });

  it('default, normalize and compare each path on its own', () => {
    expect(forms.desired({ 'vcs-repo': { branch: 'main' } })).toEqual({
      'test-config': { 'tests-enabled': false },
      'vcs-repo': { branch: 'main' },
    });
    expect(forms.desired({ 'test-config': { 'tests-enabled': 'true' } })).toEqual({
      'test-config': { 'tests-enabled': true },
    });
  });

  it('read only the managed paths of a live object', () => {
    const live = forms.live({ 'test-config': { 'tests-enabled': true, 'agent-pool': 'x' }, other: 1 });
    expect(live).toEqual({ 'test-config': { 'tests-enabled': true } });
  });

  it('export the nested form back', () => {
    expect(forms.exportSpec({ 'test-config': { 'tests-enabled': true }, 'vcs-repo': { branch: 'dev' } })).toEqual({
      'test-config': { 'tests-enabled': true },
      'vcs-repo': { branch: 'dev' },
    });
  });
});

describe('defaults and applicability that depend on another field', () => {
  const isCa = (f: Fields) => f.key_type === 'ca';
  const forms = canonicalForms({
    fields: {
      key_type: text(),
      ttl: { normalize: duration, appliesWhen: isCa },
      port: { normalize: integer, default: (f) => (f.key_type === 'otp' ? 22 : undefined) },
      allowed_users: { default: (f) => (f.key_type === 'ca' ? '' : undefined) },
    },
  });

  it('apply a default only for the key type it belongs to', () => {
    expect(forms.desired({ key_type: 'otp' })).toEqual({ key_type: 'otp', port: 22 });
    expect(forms.desired({ key_type: 'ca' })).toEqual({ key_type: 'ca', allowed_users: '' });
    expect(forms.desired({ key_type: 'otp', port: '2222' })).toEqual({ key_type: 'otp', port: 2222 });
  });

  it('never compare a field that does not apply, and say so when a manifest sets it', () => {
    expect(forms.desired({ key_type: 'otp', ttl: '1h' })).toEqual({ key_type: 'otp', port: 22 });
    expect(forms.live({ key_type: 'otp', ttl: 0, port: 22 })).toEqual({ key_type: 'otp', port: 22 });
    expect(forms.desired({ key_type: 'ca', ttl: '1h' })).toMatchObject({ ttl: 3600 });
    expect(forms.notes({ key_type: 'otp', ttl: '1h' })).toEqual([
      'ttl does not apply to this object and is not compared (the API does not keep it)',
    ]);
    expect(forms.notes({ key_type: 'ca', ttl: '1h' })).toEqual([]);
  });
});

describe('secrecy per object', () => {
  const kind = defineProvider(
    (forms) => ({
      kind: 'Variable',
      address: (m) => ({ kind: 'Variable', name: m.name ?? '' }),
      list: async () => [],
      create: async () => undefined,
      update: async () => {},
      delete: async () => {},
      toManifest: (l) => ({ kind: 'Variable', metadata: {}, spec: forms.exportSpec(l.fields ?? {}) }),
    }),
    { fields: { value: { writeOnly: (f) => f.sensitive === true }, sensitive: flag(false) } },
  );

  it('makes a value write-only only where the object is sensitive', () => {
    expect(kind.writeOnly({ value: 'x', sensitive: true })).toEqual(['value']);
    expect(kind.writeOnly({ value: 'x' })).toEqual([]);
    expect(kind.canonicalLive({ value: null, sensitive: true })).toEqual({ sensitive: true });
    expect(kind.canonicalLive({ value: 'eu', sensitive: false })).toEqual({ value: 'eu', sensitive: false });
  });

  it('plans a sensitive value as a secret marker, and a plain one as a visible change', () => {
    const live = (fields: Fields): LiveObject => ({
      kind: 'Variable',
      address: { kind: 'Variable', name: 'A' },
      ref: 'A',
      fields,
    });
    const plan = (spec: Fields, fields: Fields) =>
      buildPlan(
        [{ provider: kind, desired: [desired('Variable', 'A', spec)], live: new Map([['Variable/A', live(fields)]]) }],
        {
          prune: false,
          ownership: [],
          secrets: { lookup: () => 'changed', resend: false },
        },
      ).plan.actions[0];
    expect(plan({ value: 'new', sensitive: true }, { sensitive: true })?.changes).toEqual([
      { path: 'value', secret: true, note: 'changed since last apply' },
    ]);
    expect(plan({ value: 'new' }, { value: 'old', sensitive: false })?.changes).toEqual([
      { path: 'value', before: 'old', after: 'new' },
    ]);
  });
});

describe('immutable and create-only fields', () => {
  const kind = defineProvider(
    (forms) => ({
      kind: 'StaticRole',
      address: (m) => ({ kind: 'StaticRole', name: m.name ?? '' }),
      list: async () => [],
      create: async () => undefined,
      update: async () => {},
      delete: async () => {},
      toManifest: (l) => ({ kind: 'StaticRole', metadata: {}, spec: forms.exportSpec(l.fields ?? {}) }),
    }),
    {
      fields: {
        username: { immutable: true },
        rotation_period: { normalize: duration },
        skip_import_rotation: { createOnly: true, normalize: (v) => v },
      },
    },
  );
  const live: LiveObject = {
    kind: 'StaticRole',
    address: { kind: 'StaticRole', name: 'app' },
    ref: 'app',
    fields: { username: 'svc', rotation_period: 86400, skip_import_rotation: false },
  };
  const planFor = (spec: Fields) =>
    buildPlan(
      [{ provider: kind, desired: [desired('StaticRole', 'app', spec)], live: new Map([['StaticRole/app', live]]) }],
      {
        prune: false,
        ownership: [],
        secrets,
      },
    ).plan.actions[0];

  it('derives the lists from the table', () => {
    expect(kind.immutable).toEqual(['username']);
    expect(kind.createOnly).toEqual(['skip_import_rotation']);
  });

  it('plans a change of an immutable field as a replacement', () => {
    const action = planFor({ username: 'svc2', rotation_period: '24h' });
    expect(action?.action).toBe('replace');
    expect(action?.changes).toEqual([{ path: 'username', before: 'svc', after: 'svc2', replace: true }]);
  });

  it('never compares a create-only field with an existing object', () => {
    expect(planFor({ username: 'svc', rotation_period: '24h', skip_import_rotation: true })?.action).toBe('noop');
    expect(kind.canonicalLive(live.fields ?? {})).toEqual({ username: 'svc', rotation_period: 86400 });
  });
});

describe('which secrets export and validate take', () => {
  const forms = canonicalForms({
    fields: {
      enabled: flag(false),
      token: writeOnly({ exportedWhen: whenEnabled }),
      password: writeOnly(),
      'test-address': writeOnly({ configuration: false }),
    },
  });

  it('exports a secret only when the live object has it: a token while its feature is enabled', () => {
    expect(forms.exportedWriteOnly({ enabled: false })).toEqual(['password']);
    expect(forms.exportedWriteOnly({ enabled: true })).toEqual(['token', 'password']);
  });

  it('refuses an empty value for every secret', () => {
    const spec = { token: '', password: '', 'test-address': '' };
    const object = desired('Test', 'x', spec, { secretFields: Object.keys(spec) });
    const refused = forms.tableProblems(object).map((problem) => problem.path);
    expect(refused).toEqual(['spec.token', 'spec.password', 'spec.test-address']);
  });
});

describe('canonical keys that follow the declared keys', () => {
  it('hold for a flat table of value defaults, and not where a field applies only sometimes or a default is computed', () => {
    expect(canonicalForms({ fields: { a: flag(false), b: text() } }).keysFollowSpecKeys).toBe(true);
    expect(canonicalForms({ fields: { 'a.b': flag(false) } }).keysFollowSpecKeys).toBe(false);
    expect(canonicalForms({ fields: { a: text(), b: { appliesWhen: (f) => f.a === 'x' } } }).keysFollowSpecKeys).toBe(
      false,
    );
    expect(canonicalForms({ fields: { a: text(), b: { default: (f) => f.a ?? null } } }).keysFollowSpecKeys).toBe(
      false,
    );
    // a rule across fields counts only when it says it decides by keys
    const finish = (fields: Fields) => ({ ...fields, b: fields.b ?? null });
    expect(canonicalForms({ fields: { a: text(), b: text() }, finish }).keysFollowSpecKeys).toBe(false);
    expect(canonicalForms({ fields: { a: text(), b: text() }, finish, finishByKeys: true }).keysFollowSpecKeys).toBe(
      true,
    );
  });

  it('are not claimed by a kind whose canonical form is its own', () => {
    const table = { fields: { a: text() } };
    expect(defineProvider(() => ({ kind: 'T' }) as never, table).canonicalKeysFollowSpec).toBe(true);
    const own = { kind: 'T', canonicalDesired: (spec: Fields) => spec };
    expect(defineProvider(() => own as never, table).canonicalKeysFollowSpec).toBe(false);
  });

  // the claim a policy's result cache relies on (src/policy/result-cache.ts): any two specs with
  // the same keys get the same canonical keys, finish and normalizers included, and none throws,
  // for every kind that makes it
  const claiming = providers.filter((p) => p.canonicalKeysFollowSpec);
  const values: Json[] = [true, false, null, '', 'x', ' X ', '1h', '3600', 60, 0, 2.5, ['a', 'b'], [], { a: 'b' }, {}];

  it('are claimed by most kinds', () => {
    expect(claiming.map((p) => p.kind)).toEqual(expect.arrayContaining(['ToolVersion', 'AdminUser', 'LDAPStaticRole']));
    expect(claiming.map((p) => p.kind)).not.toContain('SSHRole');
  });

  it.each(claiming.map((p) => [p.kind, p] as const))('hold for %s whatever the values', (_kind, provider) => {
    const keys = [...(provider.fieldPaths ?? []), 'unknown'];
    const specOf = (present: boolean[], picks: number[]): Fields =>
      Object.fromEntries(
        keys.flatMap((key, i) => (present[i] ? [[key, values[(picks[i] ?? 0) % values.length] as Json]] : [])),
      );
    const bools = fc.array(fc.boolean(), { minLength: keys.length, maxLength: keys.length });
    const picks = fc.array(fc.nat(), { minLength: keys.length, maxLength: keys.length });
    fc.assert(
      fc.property(bools, picks, picks, (present, a, b) => {
        const first = Object.keys(provider.canonicalDesired(specOf(present, a)));
        const second = Object.keys(provider.canonicalDesired(specOf(present, b)));
        expect(second).toEqual(first);
      }),
      { numRuns: 200 },
    );
  });
});
