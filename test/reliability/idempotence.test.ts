/**
 * Idempotence, by property: for every kind, generated valid manifests are
 * applied, and then a plan shows no change; what export writes from the live
 * state plans no change either. One emulator per kind; each case is applied
 * on top of what the previous one left (collections are emptied between cases,
 * and so are the mounts of the secrets API's kinds: SSH roles, CA and
 * zero-address list; LDAP roles, static roles, library sets and config; the
 * registry's modules, with their versions and test variables). The registry
 * kinds' cases are also checked against the registry itself: every declared
 * version uploaded and parsed (`ok`), test settings and variables as declared.
 *
 * CONVERGE_FULL_RUN=1 (set by .ci/run) runs 200 cases per kind.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildExport, type ExportProvider, type PlaceholderEntry } from '../../src/export/build.ts';
import { providers } from '../../src/providers/index.ts';
import { addressKey } from '../../src/reconcile/address.ts';
import { FingerprintStore, serverNamespace } from '../../src/reconcile/fingerprint-store.ts';
import type { DesiredObject, PlannedAction } from '../../src/reconcile/types.ts';
import { api, apply, changes, desiredFrom, plan, providerMap, secrets, type Target } from '../helpers/engine.ts';
import {
  type Generated,
  KIND_ARBITRARIES,
  LDAP_MOUNTS,
  LDAP_WORKING_CONFIGS,
  OWN_CONTENT_MODULES,
  REGISTRY_ORG,
  SSH_OTP_ONLY_FIELDS,
} from './arbitraries.ts';
import {
  CASES_PER_KIND,
  type Emulator,
  emptyLdapMounts,
  emptyRegistry,
  emptySshMounts,
  emulator,
  FULL_RUN,
  type ListedModule,
  ldapDirectory,
  materialize,
  modulePathOf,
  type Recorded,
  recording,
  registryModules,
  scratchDir,
  secretsSeed,
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

/** The converge name of a listed module: `<name>/<provider>`, or `public/<namespace>/<name>/<provider>`. */
const listedName = (m: ListedModule) =>
  m.attributes['registry-name'] === 'public'
    ? `public/${m.attributes.namespace}/${m.attributes.name}/${m.attributes.provider}`
    : `${m.attributes.name}/${m.attributes.provider}`;

/**
 * The registry holds exactly what the case declares: its modules, each
 * declared version once and `ok` (uploaded and parsed), test configuration
 * and no-code as declared, and each module's test variables with their key,
 * value (none shown when sensitive), description and sensitivity.
 */
async function expectRegistryAsDeclared(target: Target, desired: ReadonlyMap<string, DesiredObject>): Promise<void> {
  const objects = [...desired.values()];
  const modules = await registryModules(target, REGISTRY_ORG);
  const declared = objects.filter((d) => d.kind === 'RegistryModule');
  expect(modules.map(listedName).sort()).toEqual(declared.map((d) => d.address.name).sort());
  const versions = modules.flatMap((m) =>
    m.attributes['version-statuses'].map(
      (v) => `${listedName(m)}/${v.version} ${v.status}${v.error ? ` ${v.error}` : ''}`,
    ),
  );
  expect(versions.sort()).toEqual(
    objects
      .filter((d) => d.kind === 'RegistryModuleVersion')
      .map((d) => `${d.address.name} ok`)
      .sort(),
  );
  for (const d of declared) {
    const m = modules.find((l) => listedName(l) === d.address.name);
    const tests = (d.spec['test-config'] as { 'tests-enabled'?: boolean } | undefined)?.['tests-enabled'];
    if (tests !== undefined) expect(m?.attributes['test-config']?.['tests-enabled'], d.address.name).toBe(tests);
    expect(m?.attributes['no-code'], d.address.name).toBe(d.spec['no-code'] ?? false);
  }
  const variables = objects.filter((d) => d.kind === 'ModuleTestVariable');
  for (const module of new Set(variables.map((d) => d.address.name.split('/').slice(0, 2).join('/')))) {
    const m = modules.find((l) => listedName(l) === module);
    expect(m, module).toBeDefined();
    const listed = await api(
      target,
      'GET',
      `${modulePathOf(REGISTRY_ORG, m!).replace('/registry-modules/', '/tests/registry-modules/')}/vars`,
    );
    expect(listed.status, module).toBe(200);
    const live = ((listed.body?.data ?? []) as Array<{ attributes: Record<string, unknown> }>).map((v) => v.attributes);
    const expected = variables.filter((d) => d.address.name.startsWith(`${module}/`));
    expect(live.map((v) => v.key).sort()).toEqual(expected.map((d) => d.metadata.name).sort());
    for (const d of expected) {
      const v = live.find((l) => l.key === d.metadata.name);
      const sensitive = d.spec.sensitive === true;
      expect(
        { value: v?.value, description: v?.description, sensitive: v?.sensitive, category: v?.category },
        d.address.name,
      ).toEqual({
        value: sensitive ? null : (d.spec.value ?? ''),
        description: d.spec.description ?? '',
        sensitive,
        category: 'env',
      });
    }
  }
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
    server = await emulator({ seed: secretsSeed({ ssh: table.mounts ?? [], ldap: table.ldapMounts ?? [] }) });
    target = targetOf(server);
    // one namespace per API, as the CLI keys them (src/cli/session.ts); only the kind's own API's is
    // opened (its companions speak the same API): each costs a scrypt key derivation, tens of milliseconds
    const namespaces = {
      platform: { name: serverNamespace('platform', server.url), token: server.tokens.admin },
      secrets: { name: serverNamespace('secrets', server.url), token: server.tokens.secrets },
    };
    const apiOf = (k: string) => providerMap.get(k)?.api ?? 'platform';
    expect([...kinds].map(apiOf)).toEqual([...kinds].map(() => apiOf(kind)));
    store = await FingerprintStore.open(
      join(scratch.dir, `${kind}.fingerprints.json`),
      [namespaces[apiOf(kind)]],
      (objectKey) => namespaces[apiOf(objectKey.split('/')[0] ?? '')].name,
    );
  });
  afterAll(() => server?.close());

  const provider = providerMap.get(kind);
  const collectionType = table.collection;

  const kinds = new Set([kind, ...(table.companions ?? [])]);

  /** A case's manifest, and the files and archives it reads, in a directory of its own. */
  async function load(generated: Generated): Promise<DesiredObject[]> {
    const dir = join(scratch.dir, `${kind}-${n++}`);
    await mkdir(dir, { recursive: true });
    await materialize(dir, generated);
    const file = await writeManifest(join(dir, 'manifest.yaml'), generated.docs);
    return desiredFrom([file], generated.env);
  }

  it(
    `apply then plan shows 0 changes, and export then plan shows 0 changes (${CASES_PER_KIND} cases)`,
    async () => {
      expect(provider).toBeDefined();
      await fc.assert(
        fc.asyncProperty(table.generate, async (generated) => {
          if (collectionType) await emptyCollection(target, collectionType);
          if (table.mounts) {
            await emptySshMounts(target, table.mounts);
            // deleted behind converge's back: what it remembered of them (a generated CA's key) is gone too
            for (const mount of table.mounts)
              store.forget(addressKey({ kind: 'SSHCertificateAuthority', scope: mount, name: '' }));
          }
          if (table.ldapMounts) await emptyLdapMounts(target, table.ldapMounts);
          if (table.registryOrganizations) await emptyRegistry(target, table.registryOrganizations);
          const desired = await load(generated);
          expect(desired.some((d) => d.kind === kind)).toBe(true);
          expect(desired.map((d) => d.kind).filter((k) => !kinds.has(k))).toEqual([]);

          // roles and sets wait for their mount's config in the same apply (dependsOn within a scope)
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

          if (table.registryOrganizations) await expectRegistryAsDeclared(target, again.desiredByKey);

          // export what is live now, and plan the exported manifests against the same server
          const live = [...(again.live.get(kind)?.values() ?? [])];
          const exported = buildExport([{ provider: provider as ExportProvider, objects: live }], {
            split: n % 2 === 0,
            schemaRef: () => 'schemas/',
          });
          const dir = join(scratch.dir, `export-${kind}-${n}`);
          for (const file of exported.files) {
            await mkdir(join(dir, file.path, '..'), { recursive: true });
            await writeFile(join(dir, file.path), file.content);
          }
          // each placeholder is set to the live secret: the value the apply sent (a secret the live object has)
          const sentOf = (p: PlaceholderEntry) => again.desiredByKey.get(p.object)?.spec[p.field];
          const unknown = exported.placeholders.filter((p) => sentOf(p) === undefined);
          // the one exception: enabled cost estimation exports every credential, as the API does not say which
          // set is in use; the user removes the sets not used, as here
          expect((kind === 'CostEstimationSettings' ? [] : unknown).map((p) => `${p.object} ${p.field}`)).toEqual([]);
          for (const p of unknown) {
            const file = join(dir, p.file);
            const text = await readFile(file, 'utf8');
            await writeFile(file, text.replace(new RegExp(`^ +${p.field}: .*\\n`, 'm'), ''));
          }
          const env = Object.fromEntries(
            exported.placeholders.filter((p) => !unknown.includes(p)).map((p) => [p.name, String(sentOf(p))]),
          );
          const fromExport = await desiredFrom([dir], env);
          // by whole address: a name may be in two mounts
          expect(fromExport.map((d) => addressKey(d.address)).sort()).toEqual(
            live.map((l) => addressKey(l.address)).sort(),
          );
          if (kind === 'SSHCertificateAuthority') {
            // nobody holds the key of a CA the service generated: a CA exports as generated, of the live key's shape
            expect(exported.placeholders).toEqual([]);
            for (const d of fromExport) {
              expect(d.spec.generate_signing_key, d.address.scope).toBe(true);
              expect(d.spec.public_key, d.address.scope).toBeUndefined();
            }
          }
          if (kind === 'LDAPConfig') {
            // a config exports its bindpass as a placeholder (write-only, never read), and loads it from there
            expect(
              exported.placeholders
                .filter((p) => p.field === 'bindpass')
                .map((p) => p.object)
                .sort(),
            ).toEqual(live.map((l) => addressKey(l.address)).sort());
            for (const d of fromExport) expect(d.secretFields, addressKey(d.address)).toContain('bindpass');
          }
          if (kind === 'RegistryModule') {
            // versions are a child kind, which export does not write (their content is local, not in the API):
            // the exported modules declare none, and so plan none (an undeclared version is never deleted)
            for (const d of fromExport) expect(d.spec.versions, addressKey(d.address)).toBeUndefined();
          }
          // with the fingerprint store: the live secrets are the ones converge sent, so nothing to send
          const exportPlan = await plan(target, fromExport, { fingerprints: store, client: CLIENT });
          expect(exportPlan.problems).toEqual([]);
          expect(changes(exportPlan.plan.actions).map(show)).toEqual([]);
        }),
        { numRuns: CASES_PER_KIND, endOnFailure: true },
      );
    },
    // for a hung case, not a slow one: a kind's 20 cases take 1 to 13 s alone, but beside three other
    // slow test files at a load of 12 on 2 cores they took up to 18 s, and one kind went past 20 s in each such run
    CASES_PER_KIND * 3_000,
  );
});

/**
 * Once the engine has rotated its root password, the manifest's bindpass is
 * the old one: sending it would lock the engine out of its directory. So a
 * plan never sends it (a note says why): not with the fingerprint store, not
 * without one, not with --resend-secrets, not when the config is written for
 * other fields; only a bindpass the user changed since goes out. Each case
 * has directories of its own, as a rotation changes the administrator's
 * password there for good.
 */
describe('LDAPConfig after POST /v1/<mount>/rotate-root', () => {
  const cases = FULL_RUN ? 60 : 10;
  /** Directories for the cases (fast-check may run one more to report a failure). */
  const directoryUrl = (n: number, mount: string) => `ldap://rotate-${n}-${mount}.emulator.test`;
  let server: Emulator;
  let target: Target;
  let n = 0;

  beforeAll(async () => {
    const directories = Array.from({ length: cases + 2 }, (_, i) =>
      LDAP_MOUNTS.map((mount) => ldapDirectory(directoryUrl(i, mount))),
    ).flat();
    server = await emulator({ seed: secretsSeed({ ldap: LDAP_MOUNTS }, directories) });
    target = targetOf(server);
  });
  afterAll(() => server?.close());

  const bindpassChanges = (actions: readonly PlannedAction[]) =>
    actions.flatMap((a) => a.changes.filter((c) => c.path === 'bindpass').map(() => a.key));
  const heldNote = expect.stringMatching(/^bindpass is not sent: the engine rotated its root password at /);

  it(`never sends the rotated bindpass again, even with --resend-secrets (${cases} cases)`, async () => {
    await fc.assert(
      fc.asyncProperty(LDAP_WORKING_CONFIGS, async (generated) => {
        const at = n++;
        if (at >= cases + 2) throw new Error('more cases than directories');
        await emptyLdapMounts(target, LDAP_MOUNTS);
        const dir = join(scratch.dir, `rotate-${at}`);
        const store = await FingerprintStore.open(
          join(dir, 'fingerprints.json'),
          [{ name: serverNamespace('secrets', server.url), token: server.tokens.secrets }],
          () => serverNamespace('secrets', server.url),
        );
        /** The case's configs, each pointed at its own directory, maybe with another upndomain or bindpass. */
        const load = async (variant: string, change: { upndomain?: string; bindpass?: string } = {}) => {
          const docs = generated.docs.map((d) => {
            const mount = d.metadata?.mount ?? 'ldap';
            const spec: Record<string, unknown> = { ...d.spec, url: directoryUrl(at, mount) };
            if (change.upndomain !== undefined) spec.upndomain = change.upndomain;
            return { ...d, spec };
          });
          const env = { ...generated.env };
          const files = { ...generated.files };
          if (change.bindpass !== undefined) {
            for (const name of Object.keys(env)) if (name.startsWith('LDAP_BINDPASS_')) env[name] = change.bindpass;
            for (const path of Object.keys(files)) if (path.endsWith('-bindpass')) files[path] = change.bindpass;
          }
          const base = join(dir, variant);
          for (const [path, content] of Object.entries(files)) {
            await mkdir(dirname(join(base, path)), { recursive: true });
            await writeFile(join(base, path), content);
          }
          await mkdir(base, { recursive: true });
          return desiredFrom([await writeManifest(join(base, 'configs.yaml'), docs)], env);
        };
        const mounts = generated.docs.map((d) => d.metadata?.mount ?? 'ldap');

        const desired = await load('as-is');
        const applied = await apply(target, desired, { fingerprints: store, client: CLIENT });
        expect(applied.summary.failed.map((f) => `${f.key}: ${f.error.message}`)).toEqual([]);
        for (const mount of mounts) {
          expect((await secrets(target, 'POST', `/${mount}/rotate-root`)).status, mount).toBe(204);
        }

        // nothing else changed: no change at all, and a note on each config says why bindpass is held
        for (const options of [{ fingerprints: store }, { fingerprints: store, resend: true }, { resend: true }, {}]) {
          const again = await plan(target, desired, { ...options, client: CLIENT });
          expect(again.problems).toEqual([]);
          expect(bindpassChanges(again.plan.actions), JSON.stringify(options)).toEqual([]);
          // --resend-secrets sends the other write-only fields (the client certificate and key), and only those
          const other = changes(again.plan.actions).flatMap((a) => a.changes.map((c) => c.path));
          expect(other.filter((path) => !(options.resend && path.startsWith('client_tls_')))).toEqual([]);
          for (const action of again.plan.actions) expect(action.notes ?? [], action.key).toContainEqual(heldNote);
        }

        // another field changed: the config is written, without bindpass
        const changed = await load('upndomain', { upndomain: `rotated-${at}.example.org` });
        for (const options of [{ fingerprints: store, resend: true }, { resend: true }, {}]) {
          const again = await plan(target, changed, { ...options, client: CLIENT });
          expect(
            changes(again.plan.actions).map((a) => a.key),
            JSON.stringify(options),
          ).toEqual(again.plan.actions.map((a) => a.key));
          expect(bindpassChanges(again.plan.actions), JSON.stringify(options)).toEqual([]);
          for (const action of again.plan.actions) expect(action.notes ?? [], action.key).toContainEqual(heldNote);
        }
        const records: Recorded[] = [];
        const written = await apply(target, changed, {
          fingerprints: store,
          resend: true,
          client: { ...CLIENT, wrap: (c) => recording(c, records) },
        });
        expect(written.summary.failed.map((f) => `${f.key}: ${f.error.message}`)).toEqual([]);
        const posts = records.filter((r) => r.method === 'POST');
        expect(posts.map((r) => r.path).sort()).toEqual(mounts.map((m) => `/v1/${m}/config`).sort());
        for (const r of posts) expect(Object.keys(r.body as object), r.path).not.toContain('bindpass');
        // the engine still reaches its directory: a static role's creation binds and rotates a password
        for (const mount of mounts) {
          const created = await secrets(target, 'POST', `/${mount}/static-role/after-rotation`, {
            username: 'svc-p0',
            rotation_period: '1h',
          });
          expect(created.status, `${mount}: ${JSON.stringify(created.body)}`).toBe(204);
        }

        // a bindpass the user changed since is sent: the one way to give the engine a new password
        const newPassword = await load('bindpass', { bindpass: `changed-${at}` });
        const withStore = await plan(target, newPassword, { fingerprints: store, client: CLIENT });
        expect(bindpassChanges(withStore.plan.actions).sort()).toEqual(withStore.plan.actions.map((a) => a.key).sort());
      }),
      { numRuns: cases, endOnFailure: true },
    );
  }, 120_000);
});

/**
 * An uploaded version is never uploaded again. When its local content
 * changes after the apply (a file of its directory edited, its archive
 * rebuilt from an edited directory), a plan with the fingerprint store, which
 * keeps the digest of what was uploaded, says so in a note on that version
 * (`the content of … is not what converge published`, with the remedy) and plans nothing; an apply sends
 * nothing; without the store the plan is silent; content back as it was
 * uploaded (packing is reproducible), the note goes.
 */
describe('RegistryModule versions whose local content changed after the apply', () => {
  const cases = FULL_RUN ? 60 : 10;
  const changedNote = /^the content of .* \(sha256:[0-9a-f]{64}\) is not what converge published/;
  let server: Emulator;
  let target: Target;
  let store: FingerprintStore;
  let n = 0;

  beforeAll(async () => {
    server = await emulator();
    target = targetOf(server);
    const namespace = { name: serverNamespace('platform', server.url), token: server.tokens.admin };
    store = await FingerprintStore.open(
      join(scratch.dir, 'content.fingerprints.json'),
      [namespace],
      () => namespace.name,
    );
  });
  afterAll(() => server?.close());

  it(`plan a note and no action, and send nothing (${cases} cases)`, async () => {
    await fc.assert(
      fc.asyncProperty(
        OWN_CONTENT_MODULES,
        fc.array(fc.boolean(), { minLength: 6, maxLength: 6 }),
        async (generated, mask) => {
          await emptyRegistry(target, [REGISTRY_ORG]);
          const dir = join(scratch.dir, `content-${n++}`);
          await mkdir(dir, { recursive: true });
          await materialize(dir, generated);
          const file = await writeManifest(join(dir, 'manifest.yaml'), generated.docs);
          const load = () => desiredFrom([file], generated.env);
          const applied = await apply(target, await load(), { fingerprints: store, client: CLIENT });
          expect(applied.summary.failed.map((f) => `${f.key}: ${f.error.message}`)).toEqual([]);

          // the versions, each with the directory its content is made from and the archive made of it (if any)
          const items = generated.docs.flatMap((d) =>
            ((d.spec?.versions ?? []) as Array<{ version: string; source?: string; archive?: string }>).map((v) => ({
              key: `RegistryModuleVersion/${REGISTRY_ORG}/${d.metadata?.name}/${d.metadata?.provider}/${v.version}`,
              source: v.source ?? generated.archives?.[v.archive ?? ''] ?? '',
              archive: v.archive,
            })),
          );
          const changed = items.filter((_, i) => mask[i % mask.length]);
          if (changed.length === 0 && items[0]) changed.push(items[0]);
          const edit = async (suffix: string) => {
            for (const item of changed) {
              const main = join(dir, item.source, 'main.tf');
              const original = generated.files?.[`${item.source}/main.tf`] ?? '';
              await writeFile(main, `${original}${suffix}`);
              if (item.archive) await materialize(dir, { archives: { [item.archive]: item.source } });
            }
          };
          const notes = (actions: readonly PlannedAction[]) =>
            actions
              .filter((a) => a.kind === 'RegistryModuleVersion')
              .map((a) => `${a.key} ${(a.notes ?? []).some((note) => changedNote.test(note))}`)
              .sort();
          const expected = (withNote: boolean) =>
            items.map((i) => `${i.key} ${withNote && changed.includes(i)}`).sort();

          await edit(`\n# changed after the upload (${n})\n`);
          const edited = await load();
          const withStore = await plan(target, edited, { fingerprints: store, client: CLIENT });
          expect(withStore.problems).toEqual([]);
          expect(changes(withStore.plan.actions).map(show)).toEqual([]);
          expect(notes(withStore.plan.actions)).toEqual(expected(true));
          const withoutStore = await plan(target, edited, { client: CLIENT });
          expect(changes(withoutStore.plan.actions).map(show)).toEqual([]);
          expect(notes(withoutStore.plan.actions)).toEqual(expected(false));

          // an apply sends nothing, and leaves the store with the digest of what was uploaded
          const records: Recorded[] = [];
          const again = await apply(target, edited, {
            fingerprints: store,
            client: { ...CLIENT, wrap: (c) => recording(c, records) },
          });
          expect(again.summary.failed).toEqual([]);
          expect(records.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`)).toEqual([]);
          const after = await plan(target, edited, { fingerprints: store, client: CLIENT });
          expect(notes(after.plan.actions)).toEqual(expected(true));

          // back to the content that was uploaded: no note
          await edit('');
          const restored = await plan(target, await load(), { fingerprints: store, client: CLIENT });
          expect(changes(restored.plan.actions).map(show)).toEqual([]);
          expect(notes(restored.plan.actions)).toEqual(expected(false));
        },
      ),
      { numRuns: cases, endOnFailure: true },
    );
  }, 120_000);
});
