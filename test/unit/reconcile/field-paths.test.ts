// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the messages name the placeholder syntax
/**
 * The field table's rules at any depth (docs/architecture.md, "Field paths"),
 * through the one comparison (src/reconcile/comparison.ts) and the planner:
 * a test-only kind whose every rule sits on a nested row, and the real
 * kinds' sensitive rows, each refused as a literal at its value.
 */
import { describe, expect, it } from 'vitest';
import { buildExport, canExport } from '../../../src/export/build.ts';
import { providerMap } from '../../../src/providers/index.ts';
import { defineProvider } from '../../../src/providers/shared/define.ts';
import { canonicalForms, type FieldsConfig } from '../../../src/providers/shared/fields.ts';
import { flag, text } from '../../../src/providers/shared/rules.ts';
import { applyPlan } from '../../../src/reconcile/apply.ts';
import { compare } from '../../../src/reconcile/comparison.ts';
import { EventStream } from '../../../src/reconcile/events.ts';
import { withoutPaths } from '../../../src/reconcile/field-paths.ts';
import { buildPlan } from '../../../src/reconcile/plan.ts';
import type { SecretPolicy } from '../../../src/reconcile/secrets.ts';
import type { Fields, LiveObject } from '../../../src/reconcile/types.ts';
import { desired, memoryProvider } from './builders.ts';

const kind = 'Repo';
const TABLE: FieldsConfig = {
  fields: {
    'source.repo.identifier': { immutable: true },
    'source.repo.token': { writeOnly: true },
    'source.connection': { createOnly: true },
    'source.branch': text('main'),
    enabled: flag(false),
  },
};
const provider = defineProvider(
  (forms) => ({
    kind,
    address: (m) => ({ kind, name: m.name ?? '' }),
    list: async () => [],
    create: async () => undefined,
    update: async () => {},
    delete: async () => {},
    toManifest: (l) => ({ kind, metadata: {}, spec: forms.exportSpec(l.fields ?? {}) }),
  }),
  TABLE,
);

const SPEC: Fields = {
  source: { repo: { identifier: 'acme/app', token: 't0ken' }, connection: 'ot-1', branch: 'dev' },
};
/** What the API returns for SPEC: the token never, the connection echoed back. */
const STORED: Fields = {
  source: { repo: { identifier: 'acme/app' }, connection: 'ot-1', branch: 'dev' },
  enabled: false,
};

const noStore: SecretPolicy = { lookup: undefined, resend: false };

function plan(spec: Fields, stored: Fields | undefined, secrets: SecretPolicy = noStore) {
  const live = new Map<string, LiveObject>();
  if (stored) live.set(`${kind}/a`, { kind, address: { kind, name: 'a' }, ref: 'a', fields: stored });
  const action = buildPlan([{ provider, desired: [desired(kind, 'a', spec)], live }], {
    prune: false,
    ownership: [],
    secrets,
  }).plan.actions[0];
  if (!action) throw new Error('no action planned');
  return action;
}

describe('rules on nested rows', () => {
  it('compare nothing that is create-only or write-only, at any depth: the stored object is no change', () => {
    expect(plan(SPEC, STORED)).toMatchObject({ action: 'noop', changes: [] });
  });

  it('replace the object for a nested immutable row, the change naming the row', () => {
    const moved = structuredClone(SPEC);
    (moved.source as { repo: Fields }).repo.identifier = 'acme/other';
    const action = plan(moved, STORED);
    expect(action.action).toBe('replace');
    expect(action.changes).toContainEqual({
      path: 'source.repo.identifier',
      before: 'acme/app',
      after: 'acme/other',
      replace: true,
    });
    // a replacement is a create: the nested secret goes with it, as a marker only
    expect(action.changes).toContainEqual({ path: 'source.repo.token', secret: true, note: 'sent on create' });
  });

  it('show a map interpolated from a placeholder as one secret change, still a replacement', () => {
    const moved = structuredClone(SPEC);
    (moved.source as { repo: Fields }).repo.identifier = 'acme/other';
    const d = desired(kind, 'a', moved, { secretFields: ['source'] });
    const changes = compare(provider, d).changes(provider.canonicalLive(STORED));
    expect(changes).toEqual([{ path: 'source', secret: true, note: 'secret value differs', replace: true }]);
  });

  it('update a nested mutable row in place, sending neither the create-only row nor an unmarked secret', () => {
    const branch = structuredClone(SPEC);
    (branch.source as Fields).branch = 'main';
    const action = plan(branch, STORED, { lookup: () => 'same', resend: false });
    expect(action).toMatchObject({
      action: 'update',
      changes: [{ path: 'source.branch', before: 'dev', after: 'main' }],
    });
    const body = compare(provider, desired(kind, 'a', branch)).updateBody(action.changes);
    expect(body).toEqual({ source: { repo: { identifier: 'acme/app' }, branch: 'main' } });
  });

  it('send a nested write-only row that changed, and only as a marker in the plan', () => {
    const action = plan(SPEC, STORED, { lookup: () => 'changed', resend: false });
    expect(action.changes).toEqual([{ path: 'source.repo.token', secret: true, note: 'changed since last apply' }]);
    expect(JSON.stringify(action)).not.toContain('t0ken');
    const body = compare(provider, desired(kind, 'a', SPEC)).updateBody(action.changes);
    expect(body).toEqual({ source: { repo: { identifier: 'acme/app', token: 't0ken' }, branch: 'dev' } });
  });

  it('show a create of nested rows row by row, the secret as a marker', () => {
    const action = plan(SPEC, undefined);
    expect(action.action).toBe('create');
    expect(action.changes).toEqual([
      { path: 'enabled', after: false },
      { path: 'source.branch', after: 'dev' },
      { path: 'source.connection', after: 'ot-1' },
      { path: 'source.repo.identifier', after: 'acme/app' },
      { path: 'source.repo.token', secret: true, note: 'sent on create' },
    ]);
  });

  it('hide a nested write-only value a server echoes, before it travels further', () => {
    const echoed = { source: { repo: { identifier: 'x', token: 'echoed' } }, other: 1 };
    expect(canonicalForms(TABLE).readable(echoed)).toEqual({ source: { repo: { identifier: 'x' } }, other: 1 });
  });

  it('export a nested write-only row as a placeholder at its place', () => {
    const object: LiveObject = { kind, address: { kind, name: 'a' }, ref: 'a', fields: STORED };
    if (!canExport(provider)) throw new Error('the table kind exports');
    const exported = buildExport([{ provider, objects: [object] }], { split: false, schemaRef: () => 's.json' });
    const content = exported.files[0]?.content ?? '';
    expect(content).toMatch(
      / {4}repo:\n {6}identifier: acme\/app\n {6}token: \$\{env:REPO_A_SOURCE_REPO_TOKEN\} # write-only/,
    );
    expect(exported.placeholders.map((p) => p.field)).toEqual(['source.repo.token']);
  });

  it('refuse a nested secret written as a literal, at its value; accept it from a placeholder', () => {
    const literal = desired(kind, 'a', SPEC);
    expect(provider.check?.(literal, [literal])).toEqual([
      {
        path: 'spec.source.repo.token',
        message:
          'a secret must not be written into a manifest: use ${env:NAME}, ${file:path} or a sensitive ${var:name}',
      },
    ]);
    const placeholder = desired(kind, 'a', SPEC, { secretFields: ['source'], secretPaths: ['source.repo.token'] });
    expect(provider.check?.(placeholder, [placeholder])).toEqual([]);
    // another value of the same map from a placeholder does not make the token's literal one
    const other = desired(kind, 'a', SPEC, { secretFields: ['source'], secretPaths: ['source.branch'] });
    expect(provider.check?.(other, [other])).toHaveLength(1);
  });
});

describe("apply's read-back after a lost answer", () => {
  it('finds a created object whole when only a nested create-only row is not read back: no update follows', async () => {
    // the API keeps the connection to itself: it is sent on create and never returned
    const p = memoryProvider(kind, {
      createOnly: ['source.connection'],
      fieldPaths: ['source.repo', 'source.connection'],
      canonicalDesired: (spec) => spec,
      canonicalLive: (fields) => withoutPaths(fields, ['source.connection']),
    });
    const create = p.create.bind(p);
    p.create = async (ctx, d, fields) => {
      await create(ctx, d, fields);
      throw Object.assign(new Error('socket hang up after the request was sent'), { outcome: 'unknown' });
    };
    const wanted = desired(kind, 'a', { source: { repo: 'acme/app', connection: 'ot-1' } });
    const { plan } = buildPlan([{ provider: p, desired: [wanted], live: new Map() }], {
      prune: false,
      ownership: [],
      secrets: noStore,
    });
    const signal = new AbortController().signal;
    const summary = await applyPlan(plan, {
      providers: new Map([[kind, p]]),
      desired: new Map([[`${kind}/a`, wanted]]),
      live: new Map(),
      clients: {},
      signal,
      parallelism: 1,
      events: new EventStream(),
      interrupt: signal,
    });
    expect(summary.done).toEqual({ create: 1 });
    // read back by a list, found whole: nothing is sent again
    expect(p.calls).toEqual(['create:a', 'list']);
  });
});

/** Write-only rows that are no secret, so a manifest may write them: a trigger, a public certificate, a digest. */
const NOT_SECRET = ['SMTPSettings test-email-address', 'LDAPConfig client_tls_cert', 'RegistryModuleVersion digest'];

describe('every write-only row of every kind', () => {
  const rows = [...providerMap.values()].flatMap((p) =>
    (p.fieldPaths ?? []).map((path) => ({ provider: p, path, label: `${p.kind} ${path}` })),
  );
  // a row is write-only for some object: a test variable's value when it is sensitive
  const spec = (path: string): Fields => ({ [path]: 'literal-value', sensitive: true });
  const writeOnly = rows.filter(({ provider: p, path }) => p.writeOnly(spec(path)).includes(path));

  it('finds the write-only rows in the tables', () => {
    expect(writeOnly.map((r) => r.label)).toEqual(
      expect.arrayContaining([
        'SMTPSettings password',
        'SMSSettings auth-token',
        'CostEstimationSettings cloud-b-credentials',
      ]),
    );
  });

  it.each(writeOnly.map((r) => [r.label, r] as const))(
    '%s: a literal is refused at its value unless it is no secret',
    (label, row) => {
      const object = desired(row.provider.kind, 'x', spec(row.path));
      const problems = (row.provider.check?.(object, [object]) ?? []).filter((p) => p.path === `spec.${row.path}`);
      if (NOT_SECRET.includes(label)) {
        expect(problems).toEqual([]);
        return;
      }
      expect(problems.map((p) => p.message)).toEqual([
        expect.stringMatching(
          /must not be written into a manifest: use \$\{env:NAME\}, \$\{file:path\} or a sensitive \$\{var:name\}$/,
        ),
      ]);
      const interpolated = desired(row.provider.kind, 'x', spec(row.path), {
        secretFields: [row.path],
        secretPaths: [row.path],
      });
      expect(
        (row.provider.check?.(interpolated, [interpolated]) ?? []).filter((p) => p.path === `spec.${row.path}`),
      ).toEqual([]);
      // a variable that is not sensitive would show the secret in every plan
      const plain = desired(row.provider.kind, 'x', spec(row.path), {
        interpolatedPaths: [row.path],
        plainVariables: { [row.path]: ['pass'] },
      });
      expect(
        (row.provider.check?.(plain, [plain]) ?? []).filter((p) => p.path === `spec.${row.path}`).map((p) => p.message),
      ).toEqual([
        expect.stringMatching(
          /must not come from variable "pass", which is not sensitive .*: declare it with sensitive: true$/,
        ),
      ]);
    },
  );
});
