/**
 * Every row of every kind's field table, nested rows included, drawn from
 * the tables themselves (Provider.fieldPaths), so a row added later is
 * covered without a word here. Pure, in process, no network: a value per row
 * comes from the kind's JSON schema; the API is modelled by the table (it
 * stores what converge sends, in the wire form, and returns it without the
 * write-only fields); the planner then judges.
 *
 * - apply then plan is a no-op: the desired object, stored and read back,
 *   plans nothing;
 * - a different value of an immutable row, at any depth, plans a `replace`
 *   whose change names the row (docs/architecture.md, "Field paths").
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { durationLimitProblem } from '../../src/manifest/duration.ts';
import { providerMap } from '../../src/providers/index.ts';
import { getPath, isWithin, setPath, withoutPaths } from '../../src/reconcile/field-paths.ts';
import { buildPlan } from '../../src/reconcile/plan.ts';
import type { Provider } from '../../src/reconcile/provider.ts';
import type { DesiredObject, Fields, Json, LiveObject, PlannedAction } from '../../src/reconcile/types.ts';

type Schema = { [key: string]: unknown };

const schemaOf = (kind: string): Schema =>
  JSON.parse(readFileSync(new URL(`../../schemas/${kind}.schema.json`, import.meta.url), 'utf8'));

/** The schema of a kind's spec, with the definitions its `$ref`s name; a child kind's is its parent list's item. */
function specSchema(provider: Provider): { spec: Schema; definitions: Schema } {
  for (const parent of providerMap.values()) {
    const child = parent.children?.find((c) => c.provider === provider);
    if (!child) continue;
    const { spec, definitions } = specSchema(parent);
    return { spec: ((spec.properties as Schema)[child.field] as Schema).items as Schema, definitions };
  }
  const schema = schemaOf(provider.kind);
  return { spec: (schema.properties as Schema).spec as Schema, definitions: (schema.definitions ?? {}) as Schema };
}

/**
 * The schema of one row: its dotted path walked through `properties`. A row the schema does
 * not have is one no manifest writes (a version's digest, which `prepare` computes): any text.
 */
function rowSchema(provider: Provider, path: string): Schema {
  const { spec, definitions } = specSchema(provider);
  let node: Schema = spec;
  for (const step of path.split('.')) {
    const next = (node.properties as Schema | undefined)?.[step] as Schema | undefined;
    if (!next) return { type: 'string' };
    node = next;
  }
  return resolve(node, definitions);
}

function resolve(node: Schema, definitions: Schema): Schema {
  const ref = node.$ref;
  if (typeof ref !== 'string') return node;
  const target = definitions[ref.replace('#/definitions/', '')] as Schema;
  return { ...resolve(target, definitions), ...Object.fromEntries(Object.entries(node).filter(([k]) => k !== '$ref')) };
}

const word = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9._-]{0,11}$/);

/** Values the schema accepts (what the manifest validator would let through). */
function valuesOf(node: Schema, definitions: Schema = {}): fc.Arbitrary<Json> {
  if (Array.isArray(node.enum)) return fc.constantFrom(...(node.enum as Json[]));
  if (node.const !== undefined) return fc.constant(node.const as Json);
  if (Array.isArray(node.oneOf)) return fc.oneof(...(node.oneOf as Schema[]).map((n) => valuesOf(n, definitions)));
  const types = Array.isArray(node.type) ? (node.type as string[]) : [node.type as string];
  return fc.oneof(...types.map((type) => valuesOfType(type, node, definitions)));
}

function valuesOfType(type: string, node: Schema, definitions: Schema): fc.Arbitrary<Json> {
  switch (type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return fc.integer({ min: (node.minimum as number) ?? 0, max: (node.maximum as number) ?? 100_000 });
    case 'string': {
      const min = (node.minLength as number) ?? 0;
      const text = typeof node.pattern === 'string' ? fc.stringMatching(new RegExp(node.pattern)) : word;
      return text.filter((s) => s.length >= min);
    }
    case 'array':
      return fc.array(valuesOf(resolve(node.items as Schema, definitions), definitions), { maxLength: 3 });
    case 'object':
      return fc.dictionary(word, valuesOf(resolve(node.additionalProperties as Schema, definitions), definitions), {
        maxKeys: 3,
      });
    default:
      throw new Error(`no values for schema type ${type}`);
  }
}

/** A spec with a value at every row of the table, or (`some`) at any of them, the others left out. */
function specs(provider: Provider, some = false): fc.Arbitrary<Fields> {
  const rows = provider.fieldPaths ?? [];
  const { definitions } = specSchema(provider);
  const value = (path: string) => valuesOf(rowSchema(provider, path), definitions);
  return (
    fc
      // a value the service makes on create (a generated CA's public key) is always given: this
      // model of the API stores what it is sent and makes nothing itself
      .tuple(
        ...rows.map((path) =>
          some && !provider.remembers?.includes(path) ? fc.option(value(path), { nil: undefined }) : value(path),
        ),
      )
      .map((values) => {
        const spec: Fields = {};
        rows.forEach((path, i) => {
          if (values[i] !== undefined) setPath(spec, path, values[i] as Json);
        });
        return spec;
      })
  );
}

const object = (provider: Provider, spec: Fields): DesiredObject => ({
  kind: provider.kind,
  address: { kind: provider.kind, name: 'x' },
  metadata: { name: 'x' },
  ensure: 'present',
  spec,
  secretFields: [],
  source: { file: 'm.yaml', line: 1, col: 1 },
  positions: {},
});

/**
 * Whether the loader keeps every value as written: a duration field longer than converge keeps
 * is refused by the field's own check (src/manifest/duration.ts). Held here to every string that
 * reads as a duration, which only leaves out a few more values than the loader does.
 */
function keepable(value: Json | undefined): boolean {
  if (typeof value === 'string') return durationLimitProblem(value) === undefined;
  if (value === null || typeof value !== 'object') return true;
  return Object.values(value).every(keepable);
}

/**
 * Whether the kind's own rules accept the spec (its write-only values taken as from placeholders),
 * asked only of a kind whose service makes values on create: its spec must agree with the values
 * it gives in their place (an SSH CA's keys and `generate_signing_key`). Other kinds' rules (a TTL
 * within its maximum) do not change what the API stores.
 */
function accepted(provider: Provider, spec: Fields): boolean {
  if (!provider.remembers?.length) return true;
  const secretPaths = [...provider.writeOnly(spec)];
  const candidate = {
    ...object(provider, spec),
    secretFields: secretPaths.map((p) => p.split('.')[0] ?? p),
    secretPaths,
  };
  return (provider.check?.(candidate, [candidate]) ?? []).length === 0;
}

/** What the API holds after converge sent `spec`: its wire form, read back without the write-only rows. */
function stored(provider: Provider, spec: Fields): LiveObject {
  const fields = provider.canonicalDesired(spec);
  const sent = provider.wire ? provider.wire(fields, spec) : fields;
  const kind = provider.kind;
  return { kind, address: { kind, name: 'x' }, ref: 'x', fields: withoutPaths(sent, provider.writeOnly(spec)) };
}

/** The plan of `spec` against `live`; the fingerprint store holds the secrets converge sent. */
function plan(provider: Provider, spec: Fields, live: LiveObject): PlannedAction {
  const snapshot = { provider, desired: [object(provider, spec)], live: new Map([[`${provider.kind}/x`, live]]) };
  const secrets = { lookup: () => 'same' as const, resend: false };
  const [action] = buildPlan([snapshot], { prune: false, ownership: [], secrets }).plan.actions;
  if (!action) throw new Error('nothing planned');
  return action;
}

const show = (a: PlannedAction) => `${a.action}: ${JSON.stringify(a.changes)}`;

/**
 * Immutable rows that apply only to what the service makes itself (a generated CA's key type and
 * size, read from the key it generated): this model generates no keys. test/e2e/ssh.test.ts
 * replaces a generated CA whose key_type or key_bits changes, against the emulator.
 */
const MADE_BY_THE_SERVICE = ['SSHCertificateAuthority key_type', 'SSHCertificateAuthority key_bits'];

const kinds = [...providerMap.values()].filter((p) => (p.fieldPaths ?? []).length > 0);
const RUNS = { numRuns: 60 };

describe('field tables', () => {
  it('are read from every kind, nested rows included', () => {
    expect(kinds.map((p) => p.kind)).toHaveLength(providerMap.size);
    expect(providerMap.get('RegistryModule')?.fieldPaths).toEqual(
      expect.arrayContaining(['vcs-repo.identifier', 'vcs-repo.oauth-token-id', 'test-config.tests-enabled']),
    );
  });

  const noopCases = kinds.flatMap((p) => [[p.kind, 'every', p, false] as const, [p.kind, 'any', p, true] as const]);

  it.each(noopCases)('%s: apply then plan is a no-op, %s row set', (_kind, _rows, provider, some) => {
    fc.assert(
      fc.property(specs(provider, some), (spec) => {
        fc.pre(keepable(spec) && accepted(provider, spec));
        const action = plan(provider, spec, stored(provider, spec));
        expect(action.action, show(action)).toBe('noop');
      }),
      RUNS,
    );
  });

  const immutableRows = kinds
    .flatMap((p) => p.immutable.map((path) => [`${p.kind} ${path}`, p, path] as const))
    .filter(([label]) => !MADE_BY_THE_SERVICE.includes(label));

  it('leave out only immutable rows that exist', () => {
    const all = kinds.flatMap((p) => p.immutable.map((path) => `${p.kind} ${path}`));
    expect(all).toEqual(expect.arrayContaining(MADE_BY_THE_SERVICE));
  });

  it('have immutable rows to draw, a nested one among them', () => {
    expect(immutableRows.map(([label]) => label)).toContain('RegistryModule vcs-repo.identifier');
  });

  it.each(immutableRows)('%s: a new value plans a replace whose change names the row', (_label, provider, path) => {
    const { definitions } = specSchema(provider);
    fc.assert(
      fc.property(specs(provider), valuesOf(rowSchema(provider, path), definitions), (spec, value) => {
        const changed = structuredClone(spec);
        setPath(changed, path, value);
        const before = getPath(provider.canonicalDesired(spec), path);
        const after = getPath(provider.canonicalDesired(changed), path);
        // the row applies to this object, and the new value is a different one once normalized
        fc.pre(before !== undefined && after !== undefined && JSON.stringify(before) !== JSON.stringify(after));
        fc.pre(keepable(spec) && keepable(changed) && accepted(provider, spec) && accepted(provider, changed));
        const action = plan(provider, changed, stored(provider, spec));
        expect(action.action, show(action)).toBe('replace');
        const reasons = action.changes.filter((c) => c.replace);
        expect(reasons.length, show(action)).toBeGreaterThan(0);
        expect(
          reasons.every((c) => provider.immutable.some((row) => isWithin(c.path, row))),
          show(action),
        ).toBe(true);
        expect(reasons.some((c) => isWithin(c.path, path))).toBe(true);
      }),
      RUNS,
    );
  });
});
