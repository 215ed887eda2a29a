/**
 * The registry kinds as pure functions and request shapes: names in an
 * organization, one module list serving modules and versions, a version
 * created by POST, upload to its capability URL and a wait for the registry
 * to read it, and test variables whose sensitive value is write-only.
 */
import { cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NetworkError } from '../../../src/api/errors.ts';
import { moduleTestVariable } from '../../../src/providers/module-test-variable/index.ts';
import { registryModule } from '../../../src/providers/registry-module/index.ts';
import { moduleAddress, moduleParts } from '../../../src/providers/registry-module/names.ts';
import { isPublished, registryModuleVersion, VERSION_KIND } from '../../../src/providers/registry-module/versions.ts';
import type { ProviderContext } from '../../../src/reconcile/provider.ts';
import type { Fields } from '../../../src/reconcile/types.ts';
import { tempDirSync } from '../../helpers/temp-dir.ts';
import { desired } from '../reconcile/builders.ts';
import { contextFor, FakeClient } from './fake-client.ts';

const ctxOf = (client: FakeClient) => contextFor(client);
const MODULES = '/api/v2/organizations/acme/registry-modules';

const moduleResource = (name: string, versions: Array<{ version: string; status: string }>) => ({
  id: `mod-${name}`,
  type: 'registry-modules',
  attributes: { name, provider: 'aws', namespace: 'acme', 'registry-name': 'private', 'version-statuses': versions },
});

/** A declared version of network/aws in acme, its content the example module. */
const versionOf = (version: string) =>
  desired(
    'RegistryModuleVersion',
    `network/aws/${version}`,
    { version, source: 'modules/network' },
    {
      address: { kind: 'RegistryModuleVersion', scope: 'acme', name: `network/aws/${version}` },
      dir: new URL('../../../examples/', import.meta.url).pathname,
    },
  );

describe('registry names', () => {
  it('names private modules name/provider and public records public/namespace/name/provider, both ways', () => {
    const module = { organization: 'acme', name: 'network', provider: 'aws' };
    expect(moduleAddress({ ...module, registry: 'private', namespace: 'acme' }).name).toBe('network/aws');
    expect(moduleAddress({ ...module, registry: 'public', namespace: 'hashi', name: 'vpc' }).name).toBe(
      'public/hashi/vpc/aws',
    );
    expect(moduleParts({ kind: 'RegistryModule', scope: 'acme', name: 'public/hashi/vpc/aws' })).toEqual({
      organization: 'acme',
      registry: 'public',
      namespace: 'hashi',
      name: 'vpc',
      provider: 'aws',
    });
    expect(moduleParts({ kind: 'RegistryModule', scope: 'acme', name: 'network/aws' })).toMatchObject({
      registry: 'private',
      namespace: 'acme',
    });
    expect(registryModule.address({ organization: 'acme', name: 'network', provider: 'aws' })).toEqual({
      kind: 'RegistryModule',
      scope: 'acme',
      name: 'network/aws',
    });
  });
});

describe('RegistryModule and its versions', () => {
  it('read the organization list once per run for modules and versions alike', async () => {
    const client = new FakeClient().on('GET', MODULES, () => ({
      body: {
        data: [
          moduleResource('network', [
            { version: '1.0.0', status: 'ok' },
            { version: '1.1.0', status: 'reg_ingress_failed', error: 'no .tf file' } as never,
          ]),
        ],
        links: {},
        meta: {},
      },
    }));
    const ctx = ctxOf(client);
    const modules = await registryModule.list(ctx, { scope: 'acme' });
    const versions = await registryModuleVersion.list(ctx, { scope: 'acme' });
    expect(modules.map((m) => m.address.name)).toEqual(['network/aws']);
    expect(versions.map((v) => [v.address.name, v.fields?.status])).toEqual([
      ['network/aws/1.0.0', 'ok'],
      ['network/aws/1.1.0', 'reg_ingress_failed'],
    ]);
    // with the registry's reason, and how many versions the module has (whether one is its last)
    expect(versions[1]?.fields).toEqual({
      version: '1.1.0',
      status: 'reg_ingress_failed',
      published: false,
      error: 'no .tf file',
      'module-versions': 2,
    });
    expect(client.requests).toHaveLength(1);
  });

  it('creates a version with POST, uploads the packed module to links.upload, and waits until it is ok', async () => {
    let status = 'pending';
    const client = new FakeClient()
      .on('POST', `${MODULES}/private/acme/network/aws/versions`, () => ({
        status: 201,
        body: {
          data: {
            id: 'modver-1',
            type: 'registry-module-versions',
            attributes: { version: '1.0.0' },
            links: { upload: 'http://files.test/_archivist/v1/object/abc' },
          },
        },
      }))
      .on('PUT', 'http://files.test/_archivist/v1/object/abc', (request) => {
        expect(Buffer.isBuffer(request.body) || request.body instanceof Uint8Array).toBe(true);
        status = 'ok';
        return { status: 200 };
      })
      .on('GET', `${MODULES}/private/acme/network/aws`, () => ({
        body: { data: moduleResource('network', [{ version: '1.0.0', status }]) },
      }));
    await registryModuleVersion.create!(ctxOf(client), versionOf('1.0.0'), {});
    expect(client.lines).toEqual([
      `POST ${MODULES}/private/acme/network/aws/versions`,
      'PUT http://files.test/_archivist/v1/object/abc',
      `GET ${MODULES}/private/acme/network/aws`,
    ]);
  });

  it('fails a version the registry could not read, with its reason', async () => {
    const client = new FakeClient()
      .on('POST', `${MODULES}/private/acme/network/aws/versions`, () => ({
        status: 201,
        body: {
          data: {
            id: 'modver-1',
            type: 'registry-module-versions',
            attributes: {},
            links: { upload: 'http://files.test/o/1' },
          },
        },
      }))
      .on('PUT', 'http://files.test/o/1', () => ({ status: 200 }))
      .on('GET', `${MODULES}/private/acme/network/aws`, () => ({
        body: {
          data: moduleResource('network', [
            { version: '2.0.0', status: 'reg_ingress_failed', error: 'main.tf:3,1-2: Unclosed brace' } as never,
          ]),
        },
      }));
    await expect(registryModuleVersion.create!(ctxOf(client), versionOf('2.0.0'), {})).rejects.toThrow(
      /main\.tf:3,1-2: Unclosed brace/,
    );
  });
});

describe('a version whose create is cut short', () => {
  const version = versionOf('1.0.0');
  const created = () => ({
    status: 201,
    body: { data: { id: 'modver-1', type: 'registry-module-versions', links: { upload: 'http://files.test/o/1' } } },
  });

  it('waits for an upload that arrived though its answer was lost (its retry finds the link spent): never made again', async () => {
    const client = new FakeClient()
      .on('POST', `${MODULES}/private/acme/network/aws/versions`, created)
      .on('PUT', 'http://files.test/o/1', () => ({ status: 404 }))
      .on('GET', `${MODULES}/private/acme/network/aws`, () => ({
        body: { data: moduleResource('network', [{ version: '1.0.0', status: 'ok' }]) },
      }));
    await registryModuleVersion.create!(ctxOf(client), version, {});
    expect(client.lines).toEqual([
      `POST ${MODULES}/private/acme/network/aws/versions`,
      'PUT http://files.test/o/1',
      `GET ${MODULES}/private/acme/network/aws`,
      `GET ${MODULES}/private/acme/network/aws`,
    ]);
  });

  it('leaves a lost POST whose version was not made to the engine (read afresh, not from the run’s list)', async () => {
    const lost = new NetworkError({
      method: 'POST',
      path: `${MODULES}/private/acme/network/aws/versions`,
      reason: 'the connection closed before the answer',
      errno: 'UND_ERR_SOCKET',
      outcome: 'unknown',
    });
    const client = new FakeClient()
      .on('POST', `${MODULES}/private/acme/network/aws/versions`, () => {
        throw lost;
      })
      .on('GET', `${MODULES}/private/acme/network/aws`, () => ({
        body: { data: moduleResource('network', []) },
      }));
    await expect(registryModuleVersion.create!(ctxOf(client), version, {})).rejects.toBe(lost);
    expect(client.lines).toEqual([
      `POST ${MODULES}/private/acme/network/aws/versions`,
      `GET ${MODULES}/private/acme/network/aws`,
    ]);
  });
});

describe("a module's last version", () => {
  it('is never deleted, in words true whether or not a manifest declares the module', async () => {
    const client = new FakeClient().on('GET', `${MODULES}/private/acme/network/aws`, () => ({
      body: { data: moduleResource('network', [{ version: '1.0.0', status: 'ok' }]) },
    }));
    const live = {
      kind: 'RegistryModuleVersion',
      address: { kind: 'RegistryModuleVersion', scope: 'acme', name: 'network/aws/1.0.0' },
      ref: '1.0.0',
    };
    const refused = registryModuleVersion.delete!(ctxOf(client), live);
    await expect(refused).rejects.toMatchObject({
      code: 'GUARD_REFUSED',
      message:
        "not deleted: 1.0.0 is the only version of network/aws, and deleting a module's last version deletes the module too, which deleting a version never does; " +
        'keep the module by declaring another version of it, or delete the module itself: `ensure: absent`, or --prune with an ownership rule for RegistryModule and no manifest declaring it',
    });
    // a delete sees no manifest: it must not say one declares the module
    await expect(refused).rejects.not.toMatchObject({ message: expect.stringContaining('manifest declares') });
    expect(client.lines).toEqual([`GET ${MODULES}/private/acme/network/aws`]);
  });
});

describe('a declared version that exists without content', () => {
  const notes = (fields: Fields) => registryModuleVersion.liveNotes?.({ version: '1.0.0' }, fields);

  it('is noted not published, with what to do, and the delete cascade when it is the module’s only version', () => {
    expect(notes({ version: '1.0.0', status: 'pending', 'module-versions': 2 })).toEqual([
      'not published: this version exists without content (its upload never arrived), and cannot be uploaded any more; it is replaced, deleted and published anew.',
    ]);
    expect(notes({ version: '1.0.0', status: 'pending', 'module-versions': 1 })?.[0]).toMatch(
      /only version, and deleting a module’s last version deletes the module: publish another version first\.$/,
    );
    expect(
      notes({ version: '1.0.0', status: 'reg_ingress_failed', error: 'main.tf:3: bad', 'module-versions': 3 }),
    ).toEqual([
      'not published: the registry could not read this version (main.tf:3: bad); it is replaced, deleted and published anew from its content (fix the content first, or it fails the same way).',
    ]);
    expect(notes({ version: '1.0.0', status: 'ok', 'module-versions': 1 })).toEqual([]);
    expect(notes({ version: '1.0.0', status: 'reg_ingressing', 'module-versions': 1 })).toEqual([]);
  });

  it('is not published, an immutable difference (a replacement); one still being read is', () => {
    const published = (status: string) =>
      registryModuleVersion.canonicalLive({ version: '1.0.0', status, published: isPublished(status) }).published;
    for (const status of ['pending', 'reg_ingress_failed', 'reg_ingress_req_failed', 'clone_failed']) {
      expect(published(status), status).toBe(false);
    }
    for (const status of ['ok', 'reg_ingressing', 'cloning']) expect(published(status), status).toBe(true);
    // never in a manifest: a declared version is always meant to be published
    expect(registryModuleVersion.canonicalDesired({ version: '1.0.0', source: 'mods/a' }).published).toBe(true);
    expect(registryModuleVersion.immutable).toContain('published');
  });
});

describe("a version's content said in notes and refusals", () => {
  const digest = `sha256:${'0'.repeat(64)}`;
  // as `prepare` leaves it: the content's digest, and the one the manifest acknowledges
  const spec = (acknowledged?: string): Fields => ({
    version: '1.0.0',
    source: 'nw7',
    digest: 'a'.repeat(64),
    ...(acknowledged && { acknowledged }),
  });

  it('names a source that is a secret by its field, never by its value (too short for the redactor)', () => {
    const secret = ['version', 'source'];
    const said = [
      ...(registryModuleVersion.notes?.(spec(digest), secret) ?? []),
      ...(registryModuleVersion.changedSinceSent?.(spec(), ['digest'], secret) ?? []),
    ];
    expect(said).toHaveLength(2);
    for (const note of said) expect(note).toMatch(/^the content of the source \(a secret value\) \(sha256:a{64}\)/);
    const version = desired(VERSION_KIND, '1.0.0', spec(digest), { secretFields: secret });
    const create = registryModuleVersion.create!(ctxOf(new FakeClient()), version, version.spec);
    return expect(create).rejects.toThrow(/^1\.0\.0: the content of the source \(a secret value\) \(sha256:/);
  });

  it('names a source written in the manifest as written', () => {
    expect(registryModuleVersion.changedSinceSent?.(spec(), ['digest'], [])).toEqual([
      expect.stringMatching(/^the content of nw7 \(sha256:a{64}\) is not what converge published/),
    ]);
  });
});

describe('packing versions', () => {
  it('packs a directory once for the versions a plan prepares together, and afresh for the next plan', async () => {
    const dir = tempDirSync('pack-shared');
    cpSync(new URL('../../../examples/modules/network', import.meta.url).pathname, join(dir, 'network'), {
      recursive: true,
    });
    const version = (v: string) =>
      desired(
        'RegistryModuleVersion',
        `network/aws/${v}`,
        { version: v, source: 'network' },
        { address: { kind: 'RegistryModuleVersion', scope: 'acme', name: `network/aws/${v}` }, dir },
      );
    const prepare = (v: string, plan: ProviderContext) =>
      registryModuleVersion.prepare!(plan, version(v)) as Promise<ReturnType<typeof version>>;
    const plan = contextFor(undefined);
    const planned = await Promise.all(['1.0.0', '1.1.0', '1.2.0'].map((v) => prepare(v, plan)));
    expect(new Set(planned.map((p) => p.spec.digest)).size).toBe(1);
    // the apply uploads what the plan packed: one archive, read once, for the three
    const uploaded: unknown[] = [];
    let n = 0;
    const client = new FakeClient()
      .on('POST', `${MODULES}/private/acme/network/aws/versions`, () => ({
        status: 201,
        body: {
          data: { id: `modver-${n}`, type: 'registry-module-versions', links: { upload: `http://f.test/${n++}` } },
        },
      }))
      .on('PUT', 'http://f.test/:n', (request) => {
        uploaded.push(request.body);
        return { status: 200 };
      })
      .on('GET', `${MODULES}/private/acme/network/aws`, () => ({
        body: {
          data: moduleResource(
            'network',
            planned.map((p) => ({ version: String(p.spec.version), status: 'ok' })),
          ),
        },
      }));
    for (const object of planned) await registryModuleVersion.create!(ctxOf(client), object, {});
    expect(uploaded).toHaveLength(3);
    expect(uploaded[1]).toBe(uploaded[0]);
    expect(uploaded[2]).toBe(uploaded[0]);
    // nothing is kept once the plan's packs are done: changed files give the next plan another digest
    writeFileSync(join(dir, 'network', 'extra.tf'), 'variable "extra" {}\n');
    expect((await prepare('1.3.0', contextFor(undefined))).spec.digest).not.toBe(planned[0]?.spec.digest);
  });
});

describe('ModuleTestVariable', () => {
  it('defaults an absent value to "" only when it is not sensitive: a sensitive one left out is not managed', () => {
    expect(moduleTestVariable.canonicalDesired({})).toMatchObject({ value: '', sensitive: false });
    const sensitive = moduleTestVariable.canonicalDesired({ sensitive: true });
    expect(sensitive).toMatchObject({ sensitive: true });
    expect(sensitive).not.toHaveProperty('value');
  });

  it('is write-only when sensitive, listed per module, and waits for its module', () => {
    expect(moduleTestVariable.writeOnly({ value: 'x', sensitive: true })).toEqual(['value']);
    expect(moduleTestVariable.writeOnly({ value: 'x' })).toEqual([]);
    expect(moduleTestVariable.immutable).toEqual(['sensitive']);
    const variable = desired(
      'ModuleTestVariable',
      'x',
      { value: 'v' },
      {
        address: { kind: 'ModuleTestVariable', scope: 'acme', name: 'network/aws/TF_VAR_region' },
      },
    );
    expect(moduleTestVariable.listUnit?.(variable.address)).toEqual({
      scope: 'acme',
      parent: { kind: 'RegistryModule', scope: 'acme', name: 'network/aws' },
    });
    expect(moduleTestVariable.references?.(variable)).toEqual([
      { kind: 'RegistryModule', scope: 'acme', name: 'network/aws' },
    ]);
  });

  it('is a collection under its module: addressed from it, one list without pages, 404 for none', async () => {
    const VARS = '/api/v2/organizations/acme/tests/registry-modules/private/acme/:name/aws/vars';
    const client = new FakeClient()
      .on('GET', VARS, (_request, [name]) =>
        name === 'network'
          ? {
              body: {
                data: [
                  { id: 'var-1', type: 'vars', attributes: { key: 'TF_VAR_region', value: 'eu', category: 'env' } },
                ],
              },
            }
          : { status: 404 },
      )
      .on('POST', VARS, (request) => ({
        status: 201,
        body: {
          data: {
            id: 'var-2',
            type: 'vars',
            attributes: (request.body as { data: { attributes: Fields } }).data.attributes,
          },
        },
      }));
    const ctx = ctxOf(client);
    const address = moduleTestVariable.address({ organization: 'acme', module: 'network/aws', name: 'TF_VAR_region' });
    expect(address).toEqual({ kind: 'ModuleTestVariable', scope: 'acme', name: 'network/aws/TF_VAR_region' });
    const unit = moduleTestVariable.listUnit!(address);
    const [live] = await moduleTestVariable.list(ctx, unit);
    expect(live).toMatchObject({ address, ref: 'var-1', fields: { key: 'TF_VAR_region', value: 'eu' } });
    // a module without variables (or not created yet) answers 404: none, one request
    const none = { kind: 'RegistryModule', scope: 'acme', name: 'db/aws' };
    expect(await moduleTestVariable.list(ctx, { scope: 'acme', parent: none })).toEqual([]);
    expect(client.lines).toEqual([
      'GET /api/v2/organizations/acme/tests/registry-modules/private/acme/network/aws/vars',
      'GET /api/v2/organizations/acme/tests/registry-modules/private/acme/db/aws/vars',
    ]);
    const created = await moduleTestVariable.create!(
      ctx,
      desired('ModuleTestVariable', 'TF_VAR_zone', {}, { address: { ...address, name: 'db/aws/TF_VAR_zone' } }),
      { value: 'a' },
    );
    expect(created?.address).toEqual({ kind: 'ModuleTestVariable', scope: 'acme', name: 'db/aws/TF_VAR_zone' });
    expect(client.requests.at(-1)?.body).toMatchObject({
      data: { type: 'vars', attributes: { key: 'TF_VAR_zone', value: 'a' } },
    });
    expect(moduleTestVariable.toManifest!(live!).metadata).toEqual({
      organization: 'acme',
      module: 'network/aws',
      name: 'TF_VAR_region',
    });
  });
});

describe('RegistryModuleVersion in an export', () => {
  const item = registryModuleVersion.exportItem!;
  const module = moduleAddress({
    organization: 'acme',
    registry: 'private',
    namespace: 'acme',
    name: 'network',
    provider: 'aws',
  });
  const version = (status: string) => ({
    kind: 'RegistryModuleVersion',
    address: { kind: 'RegistryModuleVersion', scope: 'acme', name: 'network/aws/1.2.0' },
    ref: '1.2.0',
    fields: { version: '1.2.0', status },
  });
  const parent = (fields: Fields) => ({ kind: 'RegistryModule', address: module, ref: 'mod-1', fields });

  it('is written as its version and its archive, under modules/<organization>/<name>-<provider>/', () => {
    expect(item.skip(version('ok'), parent({}))).toBeUndefined();
    expect(item.file(version('ok'))).toBe('modules/acme/network-aws/1.2.0.tar.gz');
    expect(item.item(version('ok'), '../modules/acme/network-aws/1.2.0.tar.gz')).toEqual({
      version: '1.2.0',
      archive: '../modules/acme/network-aws/1.2.0.tar.gz',
    });
  });

  it('is left out without content, or when its module publishes from VCS', () => {
    expect(item.skip(version('pending'), parent({}))).toBe('it has no content to download (status pending)');
    expect(item.skip(version('ok'), parent({ 'vcs-repo': { identifier: 'acme/network' } }))).toBe(
      'its module publishes its versions from VCS',
    );
  });
});
