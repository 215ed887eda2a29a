/**
 * Deletes: nothing outside the declared ownership scopes is ever deleted.
 * - Pure, by property over every kind: with random live objects, manifests
 *   and ownership rules, `buildPlan` deletes an object only for `ensure:
 *   absent` (never a singleton) or, with --prune, when the kind is prunable and
 *   a rule owns it; and with --prune it deletes every such object.
 * - As a process: --prune with ownership `ToolVersion 1.*` deletes the
 *   unmanaged 1.x versions and nothing else; the mass-delete guard refuses a
 *   prune above `guard.maxDeletes` and then nothing is deleted.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { providers } from '../../src/providers/index.ts';
import { addressKey } from '../../src/reconcile/address.ts';
import { isOwned, type OwnershipRule } from '../../src/reconcile/ownership.ts';
import { buildPlan, type KindSnapshot } from '../../src/reconcile/plan.ts';
import { capabilities, type Provider } from '../../src/reconcile/provider.ts';
import type { DesiredObject, LiveObject } from '../../src/reconcile/types.ts';
import { converge } from '../helpers/cli.ts';
import { api, type Target } from '../helpers/engine.ts';
import { CASES_PER_KIND, type Emulator, emulator, scratchDir, toYaml, USERS_SEED } from './support.ts';

// ------------------------------------------------------------------ pure

const NAMES = ['1.0.0', '1.1.0', '1.10.0-fips', '2.0.0', '2.1.0', 'alice', 'bob', 'admin-x'];
const GLOBS = ['1.*', '2.*', '*', 'a*', '1.1*', 'b?b'];

/** Fields a live object of the kind would have, enough for planning. */
function liveFields(provider: Provider): Record<string, string | boolean> {
  if (provider.kind === 'AdminUser') return { 'is-admin': false, 'is-suspended': false };
  if (provider.cardinality === 'one') return {};
  return { url: 'https://example.com/a.zip', sha: '0'.repeat(64) };
}

function desiredObject(provider: Provider, id: string, ensure: 'present' | 'absent'): DesiredObject {
  return {
    kind: provider.kind,
    address: { kind: provider.kind, name: id },
    metadata: provider.cardinality === 'one' ? {} : { name: id },
    ensure,
    spec: ensure === 'absent' ? {} : liveFields(provider),
    secretFields: [],
    source: { file: 'm.yaml', line: 1, col: 1 },
    positions: {},
  };
}

const rule = fc.record(
  { kind: fc.constantFrom(...providers.map((p) => p.kind)), name: fc.constantFrom(...GLOBS) },
  { requiredKeys: ['kind'] },
);

const world = fc.record({
  prune: fc.boolean(),
  ownership: fc.array(rule, { maxLength: 5 }),
  kinds: fc.tuple(
    ...providers.map((provider) =>
      fc.record({
        live: provider.cardinality === 'one' ? fc.constant<string[]>(['']) : fc.subarray(NAMES),
        declared: fc.uniqueArray(
          fc.tuple(
            provider.cardinality === 'one' ? fc.constant('') : fc.constantFrom(...NAMES),
            fc.constantFrom<'present' | 'absent'>('present', 'absent'),
          ),
          { selector: ([name]) => name, maxLength: 4 },
        ),
      }),
    ),
  ),
});

describe('which deletes a plan contains (pure, every kind)', () => {
  it(`deletes only declared absents and, with --prune, owned prunable objects; all of them (${CASES_PER_KIND * 5} cases)`, () => {
    fc.assert(
      fc.property(world, ({ prune, ownership, kinds }) => {
        const snapshots: KindSnapshot[] = providers.map((provider, i) => {
          const { live, declared } = kinds[i] ?? { live: [], declared: [] };
          const liveMap = new Map<string, LiveObject>(
            live.map((id) => {
              const address = { kind: provider.kind, name: id };
              return [
                addressKey(address),
                { kind: provider.kind, address, ref: `ref-${id}`, fields: liveFields(provider) },
              ];
            }),
          );
          return {
            provider,
            desired: declared.map(([id, ensure]) => desiredObject(provider, id, ensure)),
            live: liveMap,
          };
        });
        const { plan } = buildPlan(snapshots, {
          prune,
          ownership: ownership as OwnershipRule[],
          secrets: { lookup: undefined, resend: false },
        });
        const deletes = new Set(plan.actions.filter((a) => a.action === 'delete').map((a) => a.key));
        for (const { provider, desired, live } of snapshots) {
          const declared = new Map(desired.map((d) => [d.address.name, d.ensure]));
          for (const [key, { address }] of live) {
            const id = address.name;
            const absent = declared.get(id) === 'absent' && capabilities(provider).delete !== 'never';
            const pruned =
              prune && !declared.has(id) && capabilities(provider).delete === 'prunable' && isOwned(ownership, address);
            expect(deletes.has(key), `${key} (prune ${prune}, ${JSON.stringify(ownership)})`).toBe(absent || pruned);
            if (provider.cardinality === 'one') expect(deletes.has(key)).toBe(false);
            if (provider.kind === 'AdminUser' && deletes.has(key)) expect(declared.get(id)).toBe('absent');
          }
        }
        // nothing is deleted that is not live
        for (const key of deletes) {
          const [kind] = key.split('/');
          expect(snapshots.find((s) => s.provider.kind === kind)?.live.has(key), key).toBe(true);
        }
        // a prunable object that stays is reported, with whether --prune would delete it
        for (const u of plan.unmanaged) {
          const provider = providers.find((p) => p.kind === u.kind);
          expect(u.prunable).toBe(
            provider !== undefined && capabilities(provider).delete === 'prunable' && isOwned(ownership, u.address),
          );
          expect(prune && u.prunable).toBe(false);
        }
      }),
      { numRuns: CASES_PER_KIND * 5 },
    );
  });

  it('never plans a delete of a singleton, even declared absent; only a plan problem', () => {
    for (const provider of providers.filter((p) => p.cardinality === 'one')) {
      const { plan, problems } = buildPlan(
        [
          {
            provider,
            desired: [desiredObject(provider, '', 'absent')],
            live: new Map([
              [
                provider.kind,
                { kind: provider.kind, address: { kind: provider.kind, name: '' }, ref: 'x', fields: {} },
              ],
            ]),
          },
        ],
        { prune: true, ownership: [{ kind: provider.kind }], secrets: { lookup: undefined, resend: false } },
      );
      expect(plan.actions.filter((a) => a.action === 'delete')).toEqual([]);
      expect(problems.map((p) => p.message)).toEqual([`${provider.kind} cannot be deleted (update only)`]);
    }
  });
});

// --------------------------------------------------------------- process

const SHA = 'cd'.repeat(32);
const LIVE = ['1.0.0', '1.1.0', '1.2.0-fips', '2.0.0', '2.1.0'];

let server: Emulator | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function setup(config: string) {
  const scratch = await scratchDir('deletes');
  server = await emulator({
    seed: {
      ...USERS_SEED,
      toolVersions: LIVE.map((version) => ({ version, url: `https://example.com/${version}.zip`, sha: SHA })),
      policyVersions: ['1.0.0', '1.5.0'].map((version) => ({
        version,
        url: `https://example.com/p${version}.zip`,
        sha: SHA,
      })),
    },
  });
  const target: Target = { url: server.url, token: server.tokens.admin };
  const manifest = join(scratch.dir, 'versions.yaml');
  await writeFile(
    manifest,
    toYaml([
      { kind: 'ToolVersion', metadata: { name: '1.9.9' }, spec: { url: 'https://example.com/1.9.9.zip', sha: SHA } },
      { kind: 'PolicyVersion', metadata: { name: '1.9.9' }, spec: { url: 'https://example.com/p.zip', sha: SHA } },
      { kind: 'AdminUser', metadata: { name: 'alice' }, spec: { 'is-admin': false } },
    ]),
  );
  await writeFile(join(scratch.dir, 'converge.config.yaml'), config);
  const env = {
    CONVERGE_PLATFORM_URL: server.url,
    CONVERGE_PLATFORM_TOKEN: server.tokens.admin,
    CONVERGE_SECRETS_URL: server.url,
    CONVERGE_SECRETS_TOKEN: server.tokens.secrets,
    CONVERGE_FINGERPRINTS: 'off',
  };
  const run = (args: string[]) => converge(args, { cwd: scratch.dir, env });
  const names = async (type: string) => {
    const listed = await api(target, 'GET', `/admin/${type}?page%5Bsize%5D=100`);
    return ((listed.body?.data ?? []) as Array<{ attributes: { version: string } }>)
      .map((v) => v.attributes.version)
      .sort();
  };
  const users = async () => {
    const listed = await api(target, 'GET', '/admin/users?page%5Bsize%5D=100');
    return ((listed.body?.data ?? []) as Array<{ attributes: { username: string } }>)
      .map((u) => u.attributes.username)
      .sort();
  };
  return { server, run, names, users, manifest, remove: scratch.remove };
}

const OWN_1X = [
  'ownership:',
  '  - kind: ToolVersion',
  '    name: "1.*"',
  // a rule for users must not let --prune delete any: users go only by ensure: absent
  '  - kind: AdminUser',
  '',
].join('\n');

describe('--prune as a process', () => {
  it('deletes only the unmanaged versions inside the ownership scope', async () => {
    const t = await setup(OWN_1X);
    const usersBefore = await t.users();
    const planned = await t.run(['plan', t.manifest, '--prune', '--json']);
    expect(planned.code, planned.stderr).toBe(0);
    const actions = (JSON.parse(planned.stdout) as { plan: { actions: Array<{ action: string; key: string }> } }).plan
      .actions;
    expect(
      actions
        .filter((a) => a.action === 'delete')
        .map((a) => a.key)
        .sort(),
    ).toEqual(['ToolVersion/1.0.0', 'ToolVersion/1.1.0', 'ToolVersion/1.2.0-fips']);

    t.server.resetStats();
    const applied = await t.run(['apply', t.manifest, '--prune', '--auto-approve']);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toMatch(/3 deleted/);
    expect(await t.names('tool-versions')).toEqual(['1.9.9', '2.0.0', '2.1.0']);
    expect(await t.names('policy-versions')).toEqual(['1.0.0', '1.5.0', '1.9.9']);
    expect(await t.users()).toEqual(usersBefore);
    expect(t.server.stats().byRoute['DELETE /api/v2/admin/tool-versions/:id']).toBe(3);
    expect(
      Object.keys(t.server.stats().byRoute).filter((r) => r.startsWith('DELETE') && !r.includes('tool-versions')),
    ).toEqual([]);
    await t.remove();
  });

  it('deletes nothing without ownership scopes, and without --prune', async () => {
    const t = await setup('guard:\n  maxDeletes: 100\n');
    expect((await t.run(['apply', t.manifest, '--prune', '--auto-approve'])).code).toBe(0);
    await writeFile(join(t.manifest, '..', 'converge.config.yaml'), OWN_1X);
    expect((await t.run(['apply', t.manifest, '--auto-approve'])).code).toBe(0);
    expect(await t.names('tool-versions')).toEqual([...LIVE, '1.9.9'].sort());
    expect(Object.keys(t.server.stats().byRoute).filter((r) => r.startsWith('DELETE'))).toEqual([]);
    await t.remove();
  });

  it('refuses a prune above guard.maxDeletes and deletes nothing; --allow-mass-delete proceeds', async () => {
    const t = await setup(`${OWN_1X}guard:\n  maxDeletes: 2\n`);
    t.server.resetStats();
    const refused = await t.run(['apply', t.manifest, '--prune', '--auto-approve']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('deletes 3 objects, more than the limit of 2');
    expect(Object.keys(t.server.stats().byRoute).filter((r) => !r.startsWith('GET '))).toEqual([]);
    expect(await t.names('tool-versions')).toEqual(LIVE);
    const allowed = await t.run(['apply', t.manifest, '--prune', '--auto-approve', '--allow-mass-delete']);
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(await t.names('tool-versions')).toEqual(['1.9.9', '2.0.0', '2.1.0']);
    await t.remove();
  });
});
