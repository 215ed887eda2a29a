/**
 * Fields an object leaves to someone else (`ignore`, docs/environments.md) and the `(default)`
 * label, through the one comparison (src/reconcile/comparison.ts) and the planner: what a pattern
 * covers, what is compared, what a create and an update send, and what a plan says.
 */
import { describe, expect, it } from 'vitest';
import { generalSettings } from '../../../src/providers/general-settings/index.ts';
import { defineProvider } from '../../../src/providers/shared/define.ts';
import type { FieldsConfig } from '../../../src/providers/shared/fields.ts';
import { flag, integer, text } from '../../../src/providers/shared/rules.ts';
import { compare } from '../../../src/reconcile/comparison.ts';
import { ignoredPaths, isIgnored, namesAField } from '../../../src/reconcile/ignore.ts';
import { buildPlan } from '../../../src/reconcile/plan.ts';
import type { Provider, UpdateStyle } from '../../../src/reconcile/provider.ts';
import type { DesiredObject, Fields, LiveObject } from '../../../src/reconcile/types.ts';
import { desired } from './builders.ts';

const kind = 'Role';
const TABLE: FieldsConfig = {
  fields: {
    key_type: { immutable: true },
    ttl: integer(60),
    port: integer(22),
    default_extensions: { default: {} },
    'limits.cpu': integer(1),
    'limits.memory': integer(256),
    note: text(),
    enabled: flag(false),
  },
};

function tableKind(updateStyle: UpdateStyle): Provider {
  return defineProvider(
    () => ({
      kind,
      updateStyle,
      address: (m) => ({ kind, name: m.name ?? '' }),
      list: async () => [],
      create: async () => undefined,
      update: async () => {},
      delete: async () => {},
    }),
    TABLE,
  );
}
const patchKind = tableKind('patch');
const replaceKind = tableKind('replace');

/** What the API holds: someone else set the port, an extension and the memory limit. */
const LIVE: Fields = {
  key_type: 'ca',
  ttl: 60,
  port: 2222,
  default_extensions: { 'permit-pty': '', 'permit-agent-forwarding': '' },
  limits: { cpu: 1, memory: 512 },
  enabled: false,
};

function plan(provider: Provider, object: DesiredObject, stored: Fields | undefined) {
  const live = new Map<string, LiveObject>();
  if (stored) live.set(`${kind}/a`, { kind, address: { kind, name: 'a' }, ref: 'a', fields: stored });
  const { plan, problems } = buildPlan([{ provider, desired: [object], live }], {
    prune: false,
    ownership: [],
    secrets: { lookup: undefined, resend: false },
  });
  expect(problems).toEqual([]);
  return plan.actions[0]!;
}

const role = (spec: Fields, ignore?: string[]) => desired(kind, 'a', spec, ignore ? { ignore } : {});

describe('ignore patterns', () => {
  it('cover the path they name and everything inside it; `*` stands for one segment', () => {
    expect(isIgnored('port', ['port'])).toBe(true);
    expect(isIgnored('default_extensions.permit-pty', ['default_extensions'])).toBe(true);
    expect(isIgnored('default_extensions.permit-pty', ['default_extensions.*'])).toBe(true);
    expect(isIgnored('default_extensions', ['default_extensions.*'])).toBe(false);
    expect(isIgnored('limits.memory', ['*.memory'])).toBe(true);
    expect(isIgnored('limits.cpu', ['*.memory'])).toBe(false);
    expect(isIgnored('portal', ['port'])).toBe(false);
  });

  it('find the outermost paths of a map they name, walking only where a pattern leads', () => {
    expect(ignoredPaths(LIVE, ['default_extensions.*', 'limits.memory', 'ttl']).sort()).toEqual([
      'default_extensions.permit-agent-forwarding',
      'default_extensions.permit-pty',
      'limits.memory',
      'ttl',
    ]);
    expect(ignoredPaths(LIVE, ['limits', 'limits.memory'])).toEqual(['limits']);
    expect(ignoredPaths(LIVE, [])).toEqual([]);
  });

  it('name a field of a table: a row, a path inside one, a map on the way to rows', () => {
    const rows = Object.keys(TABLE.fields);
    for (const known of ['port', 'default_extensions.*', 'default_extensions.permit-pty', 'limits', 'limits.*', '*']) {
      expect(namesAField(known, rows), known).toBe(true);
    }
    for (const unknown of ['prot', 'limits.disk', 'nope.*', 'port.x.y'.replace('port', 'porz')]) {
      expect(namesAField(unknown, rows), unknown).toBe(false);
    }
  });
});

describe('an object with ignored fields', () => {
  const spec: Fields = { key_type: 'ca', port: 22, limits: { cpu: 1 } };

  it('plans no change of a field it ignores, whatever the live value, and says what it ignores once', () => {
    expect(plan(patchKind, role(spec), LIVE).changes.map((c) => c.path)).toEqual([
      'default_extensions.permit-agent-forwarding',
      'default_extensions.permit-pty',
      'limits.memory',
      'port',
    ]);
    const action = plan(
      patchKind,
      role({ ...spec, enabled: true }, ['port', 'default_extensions.*', 'limits.memory']),
      LIVE,
    );
    expect(action.action).toBe('update');
    expect(action.changes).toEqual([{ path: 'enabled', before: false, after: true }]);
    expect(action.notes).toEqual(['ignored, never compared nor sent: port, default_extensions.*, limits.memory']);
  });

  it('is in sync when only ignored fields differ, and then says nothing', () => {
    const action = plan(patchKind, role(spec, ['port', 'default_extensions', 'limits.memory']), LIVE);
    expect(action).toMatchObject({ action: 'noop', changes: [] });
    expect(action.notes).toBeUndefined();
  });

  it('still compares the keys of a map it does not ignore', () => {
    const object = role({ ...spec, default_extensions: { 'permit-pty': 'yes' } }, [
      'port',
      'limits',
      'default_extensions.permit-agent-forwarding',
    ]);
    expect(plan(patchKind, object, LIVE).changes).toEqual([
      { path: 'default_extensions.permit-pty', before: '', after: 'yes' },
    ]);
  });

  it('never replaces the object for an ignored immutable field', () => {
    expect(plan(patchKind, role({ ...spec, key_type: 'otp' }), LIVE).action).toBe('replace');
    const ignored = role({ ...spec, key_type: 'otp' }, ['key_type', 'port', 'default_extensions', 'limits']);
    expect(plan(patchKind, ignored, LIVE)).toMatchObject({ action: 'noop', changes: [] });
  });

  it('never replaces the object for an ignored value the service made and someone swapped since', () => {
    const generated = defineProvider(
      () => ({
        kind,
        address: (m) => ({ kind, name: m.name ?? '' }),
        list: async () => [],
        create: async () => undefined,
        delete: async () => {},
      }),
      { fields: { public_key: { immutable: true, remembered: true }, note: text() } },
    );
    const live = new Map<string, LiveObject>([
      [`${kind}/a`, { kind, address: { kind, name: 'a' }, ref: 'a', fields: { public_key: 'ssh-ed25519 BBB' } }],
    ]);
    const planned = (ignore?: string[]) =>
      buildPlan([{ provider: generated, desired: [role({}, ignore)], live }], {
        prune: false,
        ownership: [],
        // the store saw another key after the create: someone swapped it
        secrets: { lookup: () => 'changed', resend: false },
      }).plan.actions[0];
    expect(planned()?.action).toBe('replace');
    expect(planned(['public_key'])).toMatchObject({ action: 'noop', changes: [] });
  });

  it('sends on create what the manifest writes for an ignored field, never a default converge would fill', () => {
    const object = role({ key_type: 'ca', port: 2200 }, ['port', 'ttl', 'limits.*']);
    const { fields } = compare(patchKind, object);
    expect(fields).toEqual({ key_type: 'ca', port: 2200, default_extensions: {}, enabled: false });
    const action = plan(patchKind, object, undefined);
    expect(action.changes.map((c) => c.path)).toEqual(['default_extensions', 'enabled', 'key_type', 'port']);
    expect(action.notes?.[0]).toBe(
      "ignored once created: port, ttl, limits.* (the manifest's values are sent on create, a default is left to the API)",
    );
  });

  it('never sends an ignored field on a patch update, nor the value the manifest writes for it', () => {
    const object = role({ ...spec, port: 2200, ttl: 30 }, ['port']);
    const comparison = compare(patchKind, object);
    const changes = comparison.changes(patchKind.canonicalLive(LIVE));
    expect(changes.map((c) => c.path)).not.toContain('port');
    const body = comparison.updateBody(changes, patchKind.canonicalLive(LIVE));
    expect(body).not.toHaveProperty('port');
    expect(body.ttl).toBe(30);
    // the spec an update writes from (a provider's wire form reads it) holds no ignored value either
    expect(comparison.updated.spec).toEqual({ key_type: 'ca', ttl: 30, limits: { cpu: 1 } });
  });

  it('keeps the live value of an ignored path inside a map a patch update sends whole', () => {
    const object = role({ ...spec, limits: { cpu: 4, memory: 128 } }, ['limits.memory', 'port', 'default_extensions']);
    const comparison = compare(patchKind, object);
    const live = patchKind.canonicalLive(LIVE);
    const changes = comparison.changes(live);
    expect(changes).toEqual([{ path: 'limits.cpu', before: 1, after: 4 }]);
    expect(comparison.updateBody(changes, live)).toEqual({ limits: { cpu: 4, memory: 512 } });
  });

  it('sends an ignored field back as it was read when the kind writes the whole object', () => {
    const object = role({ ...spec, ttl: 30, port: 22 }, ['port', 'default_extensions.*', 'limits.memory']);
    const comparison = compare(replaceKind, object);
    const live = replaceKind.canonicalLive(LIVE);
    const body = comparison.updateBody(comparison.changes(live), live);
    expect(body).toMatchObject({
      ttl: 30,
      port: 2222,
      default_extensions: { 'permit-pty': '', 'permit-agent-forwarding': '' },
      limits: { cpu: 1, memory: 512 },
    });
  });
});

describe('the (default) label', () => {
  const live: Fields = {
    ...generalSettings.canonicalDesired({}),
    'allow-speculative-plans-on-pull-requests-from-forks': true,
  };
  const settings = (spec: Fields, ignore?: string[]) =>
    desired('GeneralSettings', '', spec, { address: { kind: 'GeneralSettings', name: '' }, ...(ignore && { ignore }) });

  it('marks the change of a field the manifest leaves at its documented default', () => {
    const changes = compare(generalSettings, settings({ 'api-rate-limit': 40 })).changes(live);
    expect(changes).toEqual([
      { path: 'allow-speculative-plans-on-pull-requests-from-forks', before: true, after: false, default: true },
      { path: 'api-rate-limit', before: 30, after: 40 },
    ]);
  });

  it('marks nothing the manifest writes, even when it writes the default value', () => {
    const written = settings({ 'allow-speculative-plans-on-pull-requests-from-forks': false });
    expect(compare(generalSettings, written).changes(live)).toEqual([
      { path: 'allow-speculative-plans-on-pull-requests-from-forks', before: true, after: false },
    ]);
  });

  it('is gone once the field is ignored: there is no change left', () => {
    const ignored = settings({}, ['allow-speculative-plans-on-pull-requests-from-forks']);
    expect(compare(generalSettings, ignored).changes(live)).toEqual([]);
  });

  it('marks a key of a map row left at its default', () => {
    const changes = compare(patchKind, role({ key_type: 'ca' })).changes(patchKind.canonicalLive(LIVE));
    expect(changes.filter((c) => c.path.startsWith('default_extensions.')).every((c) => c.default)).toBe(true);
    expect(changes.find((c) => c.path === 'port')).toMatchObject({ default: true });
  });
});
