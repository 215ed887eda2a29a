/**
 * The registry kinds as pure functions and request shapes: names in an
 * organization, one module list serving modules and versions, a version
 * created by POST, upload to its capability URL and a wait for the registry
 * to read it, and test variables whose sensitive value is write-only.
 */
import { cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { moduleTestVariable } from '../../../src/providers/module-test-variable/index.ts';
import { registryModule } from '../../../src/providers/registry-module/index.ts';
import { moduleName, parseModuleName } from '../../../src/providers/registry-module/names.ts';
import { registryModuleVersion } from '../../../src/providers/registry-module/versions.ts';
import { desired } from '../reconcile/builders.ts';
import { FakeClient } from './fake-client.ts';

const ctxOf = (client: FakeClient) => ({ api: { platform: client }, signal: new AbortController().signal });
const MODULES = '/api/v2/organizations/acme/registry-modules';

const moduleResource = (name: string, versions: Array<{ version: string; status: string }>) => ({
  id: `mod-${name}`,
  type: 'registry-modules',
  attributes: { name, provider: 'aws', namespace: 'acme', 'registry-name': 'private', 'version-statuses': versions },
});

describe('registry names', () => {
  it('names private modules name/provider and public records public/namespace/name/provider, both ways', () => {
    expect(moduleName({ registry: 'private', namespace: 'acme', name: 'network', provider: 'aws' })).toBe(
      'network/aws',
    );
    expect(moduleName({ registry: 'public', namespace: 'hashi', name: 'vpc', provider: 'aws' })).toBe(
      'public/hashi/vpc/aws',
    );
    expect(parseModuleName('acme', 'public/hashi/vpc/aws')).toEqual({
      organization: 'acme',
      registry: 'public',
      namespace: 'hashi',
      name: 'vpc',
      provider: 'aws',
    });
    expect(parseModuleName('acme', 'network/aws')).toMatchObject({ registry: 'private', namespace: 'acme' });
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
            { version: '1.1.0', status: 'reg_ingress_failed' },
          ]),
        ],
        links: {},
        meta: {},
      },
    }));
    const ctx = ctxOf(client);
    const modules = await registryModule.list(ctx, 'acme');
    const versions = await registryModuleVersion.list(ctx, 'acme');
    expect(modules.map((m) => m.address.name)).toEqual(['network/aws']);
    expect(versions.map((v) => [v.address.name, v.fields?.status])).toEqual([
      ['network/aws/1.0.0', 'ok'],
      ['network/aws/1.1.0', 'reg_ingress_failed'],
    ]);
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
    const version = desired(
      'RegistryModuleVersion',
      'network/aws/1.0.0',
      { version: '1.0.0', source: 'modules/network' },
      {
        address: { kind: 'RegistryModuleVersion', scope: 'acme', name: 'network/aws/1.0.0' },
        dir: new URL('../../../examples/', import.meta.url).pathname,
      },
    );
    await registryModuleVersion.create(ctxOf(client), version, {});
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
    const version = desired(
      'RegistryModuleVersion',
      'x',
      { version: '2.0.0', source: 'modules/network' },
      {
        address: { kind: 'RegistryModuleVersion', scope: 'acme', name: 'network/aws/2.0.0' },
        dir: new URL('../../../examples/', import.meta.url).pathname,
      },
    );
    await expect(registryModuleVersion.create(ctxOf(client), version, {})).rejects.toThrow(
      /main\.tf:3,1-2: Unclosed brace/,
    );
  });
});

describe('packing versions', () => {
  it('packs a directory once for the versions a plan prepares together, and afresh for the next plan', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'converge-pack-shared-'));
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
    const prepare = (v: string) => registryModuleVersion.prepare?.(version(v)) as Promise<ReturnType<typeof version>>;
    const planned = await Promise.all(['1.0.0', '1.1.0', '1.2.0'].map(prepare));
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
    for (const object of planned) await registryModuleVersion.create(ctxOf(client), object, {});
    expect(uploaded).toHaveLength(3);
    expect(uploaded[1]).toBe(uploaded[0]);
    expect(uploaded[2]).toBe(uploaded[0]);
    // nothing is kept once the plan's packs are done: changed files give the next plan another digest
    writeFileSync(join(dir, 'network', 'extra.tf'), 'variable "extra" {}\n');
    expect((await prepare('1.3.0')).spec.digest).not.toBe(planned[0]?.spec.digest);
  });
});

describe('ModuleTestVariable', () => {
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
    expect(moduleTestVariable.listUnit?.(variable.address)).toBe('acme/network/aws');
    expect(moduleTestVariable.references?.(variable)).toEqual([
      { kind: 'RegistryModule', scope: 'acme', name: 'network/aws' },
    ]);
  });
});
