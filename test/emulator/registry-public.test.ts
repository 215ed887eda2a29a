/**
 * Public modules (docs/emulator.md, "Registry"): the public-module proxy at
 * `/api/registry/public/v1/modules/`, which serves the seed's catalog
 * (`registry.publicModules`) through the spec's three reads only, and the
 * management API's public records in each registry mode.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SeedData } from '../../src/emulator/seed.ts';
import { startEmulator } from '../../src/emulator/server.ts';
import { packModule } from '../../src/registry/pack.ts';
import { tempDirSync } from '../helpers/temp-dir.ts';
import { type Answer, doc, start } from './helpers.ts';
import { FIXTURES } from './registry-ingest/tarballs.ts';

const PROXY = '/api/registry/public/v1/modules';
const VPC = `${PROXY}/terraform-aws-modules/vpc/aws`;
const MODULES = '/api/v2/organizations/example-org/registry-modules';

/** The storage example packed into a tarball file, as a seed can name one. */
async function storageTarball(): Promise<string> {
  const file = join(tempDirSync('public'), 'storage-5.1.0.tar.gz');
  writeFileSync(file, (await packModule(join(FIXTURES, 'storage'))).bytes);
  return file;
}

/** A public registry of two modules: vpc with content from a directory, a tarball and none, and a bare one. */
async function catalog(registry: Record<string, unknown> = {}): Promise<SeedData> {
  return {
    registry: {
      ...registry,
      publicModules: [
        {
          namespace: 'terraform-aws-modules',
          name: 'vpc',
          provider: 'aws',
          source: 'https://github.com/terraform-aws-modules/terraform-aws-vpc',
          owner: 'antonbabenko',
          verified: true,
          downloads: 1234,
          versions: [
            { version: '5.0.0', source: join(FIXTURES, 'network'), publishedAt: '2024-05-01T10:00:00Z' },
            { version: '6.0.0-beta.1' },
            { version: '5.1.0', archive: await storageTarball(), publishedAt: '2024-06-01T10:00:00.123Z' },
            { version: '4.0.0' },
          ],
        },
        {
          namespace: 'hashicorp',
          name: 'consul',
          provider: 'aws',
          description: 'A Consul cluster',
          versions: [{ version: '0.1.0' }],
        },
      ],
    },
  } as SeedData;
}

const names = (answer: Answer, part: 'inputs' | 'outputs') =>
  ((answer.body.root as Record<string, Array<{ name: string }>>)[part] ?? []).map((item) => item.name);

describe('the public-module proxy', () => {
  it('lists a module’s versions, oldest first, each with its root’s and submodules’ providers', async () => {
    const client = await start({ seed: await catalog() });
    const answer = await client.call('GET', `${VPC}/versions`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toContain('application/json');
    const [module, ...others] = answer.body.modules as Array<{
      source: string;
      versions: Array<Record<string, unknown>>;
    }>;
    expect(others).toEqual([]);
    expect(module?.source).toBe('terraform-aws-modules/vpc/aws');
    expect(module?.versions.map((v) => v.version)).toEqual(['4.0.0', '5.0.0', '5.1.0', '6.0.0-beta.1']);
    const network = module?.versions[1];
    expect(network).toMatchObject({
      root: { dependencies: expect.any(Array), providers: [{ name: 'aws', version: expect.any(String) }] },
      submodules: [{ path: 'modules/subnet', providers: expect.any(Array), dependencies: [] }],
    });
    expect(module?.versions[0]).toEqual({
      version: '4.0.0',
      root: { dependencies: [], providers: [] },
      submodules: [],
    });
  });

  it('shows the latest release for a provider, with root, submodules, providers and every version', async () => {
    const client = await start({ seed: await catalog() });
    const answer = await client.call('GET', VPC);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      id: 'terraform-aws-modules/vpc/aws/5.1.0',
      owner: 'antonbabenko',
      namespace: 'terraform-aws-modules',
      name: 'vpc',
      provider: 'aws',
      version: '5.1.0',
      source: 'https://github.com/terraform-aws-modules/terraform-aws-vpc',
      published_at: '2024-06-01T10:00:00.123000Z',
      downloads: 1234,
      verified: true,
      root: { path: '', empty: false },
      submodules: [],
      providers: ['aws', 'random'],
      versions: ['4.0.0', '5.0.0', '5.1.0', '6.0.0-beta.1'],
      // the version's content is the storage example's (the tarball), its description the README's first prose line
      description: 'S3 buckets with versioning, encryption, lifecycle rules and a policy that',
    });
    expect(names(answer, 'inputs')).toEqual(['bucket_prefix', 'buckets', 'force_destroy', 'kms_key_arn', 'tags']);
  });

  it('shows one version, content or none, and the seed’s description over the README', async () => {
    const client = await start({ seed: await catalog() });
    const network = await client.call('GET', `${VPC}/5.0.0`);
    expect(network.status).toBe(200);
    expect(network.body).toMatchObject({
      id: 'terraform-aws-modules/vpc/aws/5.0.0',
      published_at: '2024-05-01T10:00:00.000000Z',
      submodules: [{ path: 'modules/subnet', empty: false }],
    });
    expect(names(network, 'inputs')).toContain('cidr_block');
    const bare = await client.call('GET', `${VPC}/4.0.0`);
    expect(bare.body).toMatchObject({
      root: { path: '', readme: '', empty: true, inputs: [], outputs: [], dependencies: [], resources: [] },
      submodules: [],
      providers: [],
      description: '',
    });
    const consul = await client.call('GET', `${PROXY}/hashicorp/consul/aws`);
    expect(consul.body).toMatchObject({
      version: '0.1.0',
      description: 'A Consul cluster',
      owner: '',
      source: '',
      verified: false,
      downloads: 0,
    });
    // a pre-release is still one of the versions
    expect((await client.call('GET', `${VPC}/6.0.0-beta.1`)).body.version).toBe('6.0.0-beta.1');
  });

  it('answers {"errors":["Not Found"]} for what the catalog does not hold, and for the reads it does not support', async () => {
    const client = await start({ seed: await catalog() });
    for (const path of [
      `${PROXY}/terraform-aws-modules/vpc/google`,
      `${PROXY}/terraform-aws-modules/vpc/google/versions`,
      `${PROXY}/someone/vpc/aws/1.0.0`,
      `${VPC}/9.9.9`,
      // the proxy supports only versions, latest for a provider, and one version
      PROXY,
      `${PROXY}/search?q=vpc`,
      `${PROXY}/terraform-aws-modules`,
      `${PROXY}/terraform-aws-modules/vpc`,
      `${VPC}/download`,
      `${VPC}/5.0.0/download`,
    ]) {
      const answer = await client.call('GET', path);
      expect({ path, status: answer.status }).toEqual({ path, status: 404 });
      expect(answer.body.errors).toEqual([expect.any(String)]);
    }
    expect((await client.call('GET', `${VPC}/9.9.9`)).body).toEqual({ errors: ['Not Found'] });
    // an emulator without a catalog has no public modules
    const empty = await start();
    expect((await empty.call('GET', VPC)).body).toEqual({ errors: ['Not Found'] });
  });

  it('needs a token, and is a 403 where public curation is off or the installation is self-managed', async () => {
    const client = await start({ seed: await catalog() });
    expect((await client.call('GET', VPC, { token: null })).body).toEqual({ errors: ['Unauthorized'] });
    // any user reads the public registry
    expect((await client.call('GET', VPC, { token: client.emulator.tokens.member })).status).toBe(200);
    for (const mode of [{ publicCuration: false }, { selfManaged: true }]) {
      const off = await start({ seed: await catalog(mode) });
      const answer = await off.call('GET', `${VPC}/versions`);
      expect(answer.status).toBe(403);
      expect(answer.body).toEqual({ errors: ['public module curation is disabled'] });
    }
  });
});

describe('the public catalog in the seed', () => {
  it('is checked before the emulator starts, every problem named', async () => {
    const seed = {
      registry: {
        publicModules: [
          { namespace: 'hashicorp', name: 'consul', provider: 'aws', versions: [] },
          {
            namespace: 'hashicorp',
            name: 'vault',
            provider: 'aws',
            versions: [{ version: '1.0', source: '/no/such/dir' }],
          },
        ],
      },
    } as SeedData;
    await expect(startEmulator({ port: 0, seed })).rejects.toThrow(
      [
        'invalid seed seed:',
        '  registry.publicModules[0].versions: expected a list of at least one version',
        '  registry.publicModules[1].versions[0].version: expected a semantic version',
        '  registry.publicModules[1].versions[0].source: /no/such/dir does not exist',
      ].join('\n'),
    );
  });
});

describe('public records in the management API', () => {
  const publicRecord = doc('registry-modules', {
    name: 'vpc',
    provider: 'aws',
    namespace: 'terraform-aws-modules',
    'registry-name': 'public',
  });

  it('are listed beside private modules, have no versions (403) and no updates (404)', async () => {
    const client = await start();
    expect((await client.call('POST', MODULES, { body: publicRecord })).status).toBe(201);
    expect(
      (await client.call('POST', MODULES, { body: doc('registry-modules', { name: 'network', provider: 'aws' }) }))
        .status,
    ).toBe(201);
    const listed = await client.call('GET', `${MODULES}?filter[registry_name]=public`);
    expect((listed.body.data as Array<{ attributes: Record<string, unknown> }>).map((m) => m.attributes)).toEqual([
      expect.objectContaining({ name: 'vpc', namespace: 'terraform-aws-modules', 'registry-name': 'public' }),
    ]);
    const version = await client.call('POST', `${MODULES}/public/terraform-aws-modules/vpc/aws/versions`, {
      body: doc('registry-module-versions', { version: '1.0.0' }),
    });
    expect(version.status).toBe(403);
    const patched = await client.call('PATCH', `${MODULES}/public/terraform-aws-modules/vpc/aws`, {
      body: doc('registry-modules', { 'test-config': { 'tests-enabled': true } }),
    });
    expect(patched.status).toBe(404);
  });

  it('are a 403 on a self-managed installation, whose registry is private only', async () => {
    const client = await start({ seed: { registry: { selfManaged: true } } });
    expect((await client.call('GET', `${MODULES}/public/terraform-aws-modules/vpc/aws`)).status).toBe(403);
    expect((await client.call('DELETE', `${MODULES}/public/terraform-aws-modules/vpc`)).status).toBe(403);
    expect((await client.call('POST', MODULES, { body: publicRecord })).status).toBe(422);
  });
});
