/**
 * Idempotence, by property: for every kind, generated valid manifests are
 * applied, and then a plan shows no change; what export writes from the live
 * state plans no change either. One emulator per kind; each case is applied
 * on top of what the previous one left (collections are emptied between cases,
 * and so are the SSH mounts of the secrets API's kinds: roles, CA, zero-address list).
 *
 * CONVERGE_FULL_RUN=1 (set by .ci/run) runs 200 cases per kind.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildExport } from '../../src/export/build.ts';
import { providers } from '../../src/providers/index.ts';
import { addressKey } from '../../src/reconcile/address.ts';
import { FingerprintStore, serverNamespace } from '../../src/reconcile/fingerprint-store.ts';
import type { DesiredObject, PlannedAction } from '../../src/reconcile/types.ts';
import { api, apply, changes, desiredFrom, plan, providerMap, type Target } from '../helpers/engine.ts';
import { type Generated, KIND_ARBITRARIES, SSH_OTP_ONLY_FIELDS } from './arbitraries.ts';
import {
  CASES_PER_KIND,
  type Emulator,
  emptySshMounts,
  emulator,
  scratchDir,
  sshSeed,
  targetOf,
  writeManifest,
} from './support.ts';

const CLIENT = { assumedRateLimit: 0 };

let scratch: Awaited<ReturnType<typeof scratchDir>>;
beforeAll(async () => {
  scratch = await scratchDir('idempotence');
});
afterAll(() => scratch?.remove());

/** A change as one line, so that a failing case says what did not converge. */
const show = (a: PlannedAction) =>
  `${a.action} ${a.key}: ${a.changes.map((c) => `${c.path} ${JSON.stringify(c.before)} -> ${JSON.stringify(c.after)}`).join(', ')}`;

async function emptyCollection(target: Target, type: string): Promise<void> {
  for (;;) {
    const listed = await api(target, 'GET', `/admin/${type}?page%5Bsize%5D=100`);
    const data = (listed.body?.data ?? []) as Array<{ id: string }>;
    if (data.length === 0) return;
    for (const { id } of data) {
      // official versions cannot be deleted: make them unofficial first
      await api(target, 'PATCH', `/admin/${type}/${id}`, { data: { type, id, attributes: { official: false } } });
      const deleted = await api(target, 'DELETE', `/admin/${type}/${id}`);
      expect(deleted.status).toBe(204);
    }
  }
}

/** SSH role fields that apply to both key types; every other one belongs to one key type only. */
const SSH_ROLE_SHARED = ['key_type', 'default_user', 'allowed_users'];

/** The fields of an SSH role's spec that do not apply to its key type: each must get a plan note. */
function inapplicableSshFields(spec: DesiredObject['spec']): string[] {
  const otpOnly: readonly string[] = SSH_OTP_ONLY_FIELDS;
  return Object.keys(spec).filter((field) =>
    spec.key_type === 'ca' ? otpOnly.includes(field) : !otpOnly.includes(field) && !SSH_ROLE_SHARED.includes(field),
  );
}

describe('the property table', () => {
  it('has valid manifests for every kind converge knows', () => {
    expect(KIND_ARBITRARIES.map((k) => k.kind).sort()).toEqual(providers.map((p) => p.kind).sort());
  });
});

describe.each(KIND_ARBITRARIES.map((k) => [k.kind, k] as const))('%s', (kind, table) => {
  let server: Emulator;
  let target: Target;
  let store: FingerprintStore;
  let n = 0;

  beforeAll(async () => {
    server = await emulator(table.mounts ? { seed: sshSeed(table.mounts) } : {});
    target = targetOf(server);
    // one namespace per API, as the CLI keys them (src/cli/session.ts)
    const namespaces = {
      platform: { name: serverNamespace('platform', server.url), token: server.tokens.admin },
      secrets: { name: serverNamespace('secrets', server.url), token: server.tokens.secrets },
    };
    store = await FingerprintStore.open(
      join(scratch.dir, `${kind}.fingerprints.json`),
      Object.values(namespaces),
      (objectKey) => namespaces[providerMap.get(objectKey.split('/')[0] ?? '')?.api ?? 'platform'].name,
    );
  });
  afterAll(() => server?.close());

  const provider = providerMap.get(kind);
  const collectionType = table.collection;

  const kinds = new Set([kind, ...(table.companions ?? [])]);

  async function load(generated: Generated): Promise<DesiredObject[]> {
    for (const [path, content] of Object.entries(generated.files ?? {})) {
      await mkdir(dirname(join(scratch.dir, path)), { recursive: true });
      await writeFile(join(scratch.dir, path), content);
    }
    const file = await writeManifest(join(scratch.dir, `${kind}-${n++}.yaml`), generated.docs);
    return desiredFrom([file], generated.env);
  }

  it(
    `apply then plan shows 0 changes, and export then plan shows 0 changes (${CASES_PER_KIND} cases)`,
    async () => {
      expect(provider).toBeDefined();
      await fc.assert(
        fc.asyncProperty(table.generate, async (generated) => {
          if (collectionType) await emptyCollection(target, collectionType);
          if (table.mounts) await emptySshMounts(target, table.mounts);
          const desired = await load(generated);
          expect(desired.some((d) => d.kind === kind)).toBe(true);
          expect(desired.map((d) => d.kind).filter((k) => !kinds.has(k))).toEqual([]);

          const applied = await apply(target, desired, { fingerprints: store, client: CLIENT });
          expect(applied.summary.failed.map((f) => `${f.key}: ${f.error.message}`)).toEqual([]);
          const again = await plan(target, desired, { fingerprints: store, client: CLIENT });
          expect(again.problems).toEqual([]);
          expect(changes(again.plan.actions).map(show)).toEqual([]);
          // an SSH role's fields of the other key type are plan notes, never changes
          for (const action of again.plan.actions.filter((a) => a.kind === 'SSHRole')) {
            const spec = again.desiredByKey.get(action.key)?.spec ?? {};
            for (const field of inapplicableSshFields(spec)) {
              expect(action.notes ?? [], `${action.key} ${field}`).toContainEqual(expect.stringMatching(`^${field} `));
            }
          }

          // export what is live now, and plan the exported manifests against the same server
          const live = [...(again.live.get(kind)?.values() ?? [])];
          const exported = buildExport([{ provider: provider!, objects: live }], {
            split: n % 2 === 0,
            schemaRef: () => 'schemas/',
          });
          const dir = join(scratch.dir, `export-${kind}-${n}`);
          for (const file of exported.files) {
            await mkdir(join(dir, file.path, '..'), { recursive: true });
            await writeFile(join(dir, file.path), file.content);
          }
          const env = Object.fromEntries(exported.placeholders.map((p) => [p.name, `exported-${p.name}`]));
          const fromExport = await desiredFrom([dir], env);
          // by whole address: a name may be in two mounts
          expect(fromExport.map((d) => addressKey(d.address)).sort()).toEqual(
            live.map((l) => addressKey(l.address)).sort(),
          );
          if (kind === 'SSHCertificateAuthority') {
            // a CA exports its public key, and its private key as a placeholder (write-only, never read)
            expect(exported.placeholders.map((p) => `${p.object} ${p.field}`).sort()).toEqual(
              live.map((l) => `${kind}/${l.address.scope} private_key`).sort(),
            );
            for (const d of fromExport) {
              const liveKey = live.find((l) => l.address.scope === d.address.scope)?.fields?.public_key;
              expect(d.spec.public_key, d.address.scope).toBe(liveKey);
              expect(d.secretFields).toEqual(['private_key']);
            }
          }
          const exportPlan = await plan(target, fromExport, { client: CLIENT });
          expect(exportPlan.problems).toEqual([]);
          expect(changes(exportPlan.plan.actions).map(show)).toEqual([]);
        }),
        { numRuns: CASES_PER_KIND, endOnFailure: true },
      );
    },
    CASES_PER_KIND * 1_000,
  );
});
