/**
 * The registry protocol (`modules.v1`) of the registry emulator
 * (docs/emulator.md, "Registry"): discovery, list and search with their
 * `meta` and limits, versions, latest and specific versions, downloads, and
 * its plain-JSON errors. Modules are made through the management API.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SeedData } from '../../src/emulator/seed.ts';
import { packModule } from '../../src/registry/pack.ts';
import { type Answer, type Client, doc, start } from './helpers.ts';
import { FIXTURES } from './registry-ingest/tarballs.ts';

const ORG = 'example-org';
const MODULES = `/api/v2/organizations/${ORG}/registry-modules`;
const REGISTRY = '/api/registry/v1/modules';

const OUTSIDER = 'outsider-token-00000000000000000000000000';
const outsiders: SeedData = {
  organizations: [{ name: 'other-org' }],
  users: [{ username: 'outsider', token: OUTSIDER, organizations: [{ name: 'other-org', role: 'owner' }] }],
};

type ModuleObject = Record<string, unknown> & { id: string; version: string };
const modules = (answer: Answer) => answer.body.modules as ModuleObject[];
const ids = (answer: Answer) => modules(answer).map((m) => m.id);

/** A private module with these versions, each the packed fixture `fixture`. */
async function publish(client: Client, name: string, provider: string, fixture: string, versions: string[]) {
  const created = await client.call('POST', MODULES, {
    body: doc('registry-modules', { name, provider, 'registry-name': 'private' }),
  });
  expect(created.status).toBe(201);
  const packed = await packModule(join(FIXTURES, fixture));
  for (const version of versions) {
    const answer = await client.call('POST', `${MODULES}/private/${ORG}/${name}/${provider}/versions`, {
      body: doc('registry-module-versions', { version }),
    });
    expect(answer.status).toBe(201);
    const upload = (answer.body.data as { links: { upload: string } }).links.upload;
    const put = await fetch(upload, { method: 'PUT', body: new Uint8Array(packed.bytes) });
    expect(put.status).toBe(200);
  }
  return packed;
}

/** network (aws: 1.0.0, 1.1.0, 2.0.0-beta.1; google: 1.0.0), storage/aws 0.3.0, dns/azurerm 3.2.1. */
async function registry(seed?: SeedData) {
  const client = await start(seed ? { seed } : {});
  const network = await publish(client, 'network', 'aws', 'network', ['1.0.0', '1.1.0', '2.0.0-beta.1']);
  await publish(client, 'network', 'google', 'network', ['1.0.0']);
  await publish(client, 'storage', 'aws', 'storage', ['0.3.0']);
  await publish(client, 'dns', 'azurerm', 'dns', ['3.2.1']);
  // a module with no usable version is not in the registry
  await client.call('POST', MODULES, { body: doc('registry-modules', { name: 'empty', provider: 'aws' }) });
  return { client, network };
}

describe('discovery', () => {
  it('declares modules.v1 (with a trailing slash) and the API, without a token', async () => {
    const client = await start();
    const answer = await client.call('GET', '/.well-known/terraform.json', { token: null });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toContain('application/json');
    expect(answer.body).toEqual({ 'modules.v1': `${REGISTRY}/`, 'tfe.v2': '/api/v2/' });
  });
});

describe('list and search', () => {
  it('lists the latest version of each module, 15 by default, with meta offsets and next_url', async () => {
    const client = await start();
    const names = Array.from({ length: 20 }, (_, i) => `m${String(i).padStart(2, '0')}`);
    for (const name of names) await publish(client, name, 'aws', 'storage', ['1.0.0']);

    const first = await client.call('GET', REGISTRY);
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toContain('application/json');
    expect(first.body.meta).toEqual({
      limit: 15,
      current_offset: 0,
      next_offset: 15,
      next_url: `${REGISTRY}?offset=15&limit=15`,
    });
    expect(ids(first)).toEqual(names.slice(0, 15).map((n) => `${ORG}/${n}/aws/1.0.0`));
    // list results carry no detail fields
    const [one] = modules(first);
    expect(Object.keys(one ?? {}).sort()).toEqual(
      [
        'description',
        'downloads',
        'id',
        'name',
        'namespace',
        'owner',
        'provider',
        'published_at',
        'source',
        'verified',
        'version',
      ].sort(),
    );
    expect(one).toMatchObject({ namespace: ORG, name: 'm00', provider: 'aws', version: '1.0.0', verified: false });
    expect(one?.published_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    expect(one?.description).toMatch(/\S/);

    const next = await client.call('GET', String((first.body.meta as { next_url: string }).next_url));
    expect(next.body.meta).toEqual({ limit: 15, current_offset: 15, prev_offset: 0 });
    expect(ids(next)).toEqual(names.slice(15).map((n) => `${ORG}/${n}/aws/1.0.0`));

    const small = await client.call('GET', `${REGISTRY}?limit=4&offset=6`);
    expect(small.body.meta).toEqual({
      limit: 4,
      current_offset: 6,
      next_offset: 10,
      next_url: `${REGISTRY}?limit=4&offset=10`,
      prev_offset: 2,
    });
    expect(modules(small)).toHaveLength(4);
    // a limit above the maximum is served with the maximum, and says so
    const clamped = await client.call('GET', `${REGISTRY}?limit=500`);
    expect(clamped.status).toBe(200);
    expect(clamped.body.meta).toEqual({ limit: 100, current_offset: 0 });
    expect(modules(clamped)).toHaveLength(20);
    // past the end: an empty page
    const beyond = await client.call('GET', `${REGISTRY}?offset=40`);
    expect(beyond.body).toEqual({ meta: { limit: 15, current_offset: 40, prev_offset: 25 }, modules: [] });
  });

  it('restricts by namespace, provider and verified', async () => {
    const { client } = await registry(outsiders);
    const all = await client.call('GET', `${REGISTRY}/`);
    // the latest release per provider: 1.1.0, not the 2.0.0-beta.1 pre-release
    expect(ids(all)).toEqual([
      `${ORG}/network/aws/1.1.0`,
      `${ORG}/network/google/1.0.0`,
      `${ORG}/storage/aws/0.3.0`,
      `${ORG}/dns/azurerm/3.2.1`,
    ]);
    expect(ids(await client.call('GET', `${REGISTRY}/${ORG}`))).toEqual(ids(all));
    expect(ids(await client.call('GET', `${REGISTRY}/other-org`))).toEqual([]);
    expect(ids(await client.call('GET', `${REGISTRY}?provider=aws`))).toEqual([
      `${ORG}/network/aws/1.1.0`,
      `${ORG}/storage/aws/0.3.0`,
    ]);
    expect(ids(await client.call('GET', `${REGISTRY}/${ORG}?provider=azurerm`))).toEqual([`${ORG}/dns/azurerm/3.2.1`]);
    // private modules are never partner modules
    const verified = await client.call('GET', `${REGISTRY}?verified=true`);
    expect(verified.status).toBe(200);
    expect(verified.body).toEqual({ meta: { limit: 15, current_offset: 0 }, modules: [] });
    expect(ids(await client.call('GET', `${REGISTRY}?verified=false`))).toEqual(ids(all));
    expect(ids(await client.call('GET', `${REGISTRY}?verified=yes`))).toEqual(ids(all));
  });

  it('searches by keywords, with the namespace and provider filters; q is required', async () => {
    const { client } = await registry();
    expect(ids(await client.call('GET', `${REGISTRY}/search?q=network`))).toEqual([
      `${ORG}/network/aws/1.1.0`,
      `${ORG}/network/google/1.0.0`,
    ]);
    expect(ids(await client.call('GET', `${REGISTRY}/search?q=network%20google`))).toEqual([
      `${ORG}/network/google/1.0.0`,
    ]);
    expect(ids(await client.call('GET', `${REGISTRY}/search?q=AWS&provider=aws`))).toEqual([
      `${ORG}/network/aws/1.1.0`,
      `${ORG}/storage/aws/0.3.0`,
    ]);
    expect(ids(await client.call('GET', `${REGISTRY}/search?q=dns&namespace=${ORG}`))).toEqual([
      `${ORG}/dns/azurerm/3.2.1`,
    ]);
    expect(ids(await client.call('GET', `${REGISTRY}/search?q=dns&namespace=other-org`))).toEqual([]);
    const paged = await client.call('GET', `${REGISTRY}/search?q=a&limit=2`);
    expect(paged.body.meta).toEqual({
      limit: 2,
      current_offset: 0,
      next_offset: 2,
      next_url: `${REGISTRY}/search?q=a&limit=2&offset=2`,
    });
    for (const query of ['', '?q=', '?q=%20%20']) {
      const missing = await client.call('GET', `${REGISTRY}/search${query}`);
      expect(missing.status).toBe(400);
      expect(missing.headers.get('content-type')).toContain('application/json');
      expect(missing.body).toEqual({ errors: ['q is required'] });
    }
  });
});

describe('one module', () => {
  it('lists the versions of a module, the requested module first, with providers and dependencies', async () => {
    const { client } = await registry();
    const answer = await client.call('GET', `${REGISTRY}/${ORG}/network/aws/versions`);
    expect(answer.status).toBe(200);
    const body = answer.body as unknown as {
      modules: Array<{
        source: string;
        versions: Array<{ version: string; root: unknown; submodules: Array<Record<string, unknown>> }>;
      }>;
    };
    expect(body.modules[0]?.source).toBe(`${ORG}/network/aws`);
    const versions = body.modules[0]?.versions ?? [];
    expect(versions.map((v) => v.version)).toEqual(['1.0.0', '1.1.0', '2.0.0-beta.1']);
    expect(versions[0]?.root).toEqual({
      dependencies: [{ name: 'subnet', source: './modules/subnet', version: '' }],
      providers: [{ name: 'aws', version: '~> 5.0' }],
    });
    expect(versions[0]?.submodules).toEqual([
      { path: 'modules/subnet', providers: [{ name: 'aws', version: '>= 5.0' }], dependencies: [] },
    ]);
    expect(Object.keys(versions[0] ?? {}).sort()).toEqual(['root', 'submodules', 'version']);
  });

  it('shows the latest version per provider and per module, with root, submodules, providers and versions', async () => {
    const { client } = await registry();
    const latest = await client.call('GET', `${REGISTRY}/${ORG}/network/aws`);
    expect(latest.status).toBe(200);
    const module = latest.body as unknown as ModuleObject & {
      root: Record<string, unknown>;
      submodules: Array<Record<string, unknown>>;
    };
    expect(module).toMatchObject({
      id: `${ORG}/network/aws/1.1.0`,
      namespace: ORG,
      name: 'network',
      provider: 'aws',
      version: '1.1.0',
      verified: false,
      downloads: 0,
      providers: ['aws'],
      versions: ['1.0.0', '1.1.0', '2.0.0-beta.1'],
    });
    expect(module.root).toMatchObject({ path: '', empty: false });
    expect(String(module.root.readme)).toContain('# network');
    expect(Object.keys(module.root).sort()).toEqual(
      ['dependencies', 'empty', 'inputs', 'outputs', 'path', 'readme', 'resources'].sort(),
    );
    expect(module.root.inputs).toContainEqual(
      expect.objectContaining({
        name: 'cidr_block',
        description: 'IPv4 CIDR block of the VPC.',
        default: '10.0.0.0/16',
      }),
    );
    expect(module.root.outputs).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: expect.any(String) })]),
    );
    expect(module.root.resources).toContainEqual({ name: 'this', type: 'aws_vpc' });
    expect(module.submodules.map((s) => s.path)).toEqual(['modules/subnet']);
    expect(module.submodules[0]?.resources).toContainEqual({ name: 'this', type: 'aws_subnet' });

    const perModule = await client.call('GET', `${REGISTRY}/${ORG}/network`);
    expect(perModule.status).toBe(200);
    expect(perModule.body.meta).toEqual({ limit: 15, current_offset: 0 });
    expect(ids(perModule)).toEqual([`${ORG}/network/aws/1.1.0`, `${ORG}/network/google/1.0.0`]);
    for (const m of modules(perModule)) {
      expect(m).toHaveProperty('root');
      expect(m).toHaveProperty('submodules');
      expect(m).toHaveProperty('providers');
      expect(m).toHaveProperty('versions');
    }
    expect(modules(perModule)[1]?.versions).toEqual(['1.0.0']);
    expect(ids(await client.call('GET', `${REGISTRY}/${ORG}/network?limit=1&offset=1`))).toEqual([
      `${ORG}/network/google/1.0.0`,
    ]);
  });

  it('shows one specific version, pre-releases included', async () => {
    const { client } = await registry();
    const answer = await client.call('GET', `${REGISTRY}/${ORG}/network/aws/2.0.0-beta.1`);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ id: `${ORG}/network/aws/2.0.0-beta.1`, version: '2.0.0-beta.1' });
    expect(answer.body).toHaveProperty('root');
    expect((await client.call('GET', `${REGISTRY}/${ORG}/network/aws/1.0.0`)).body).toMatchObject({ version: '1.0.0' });
  });
});

describe('downloads', () => {
  it('answers 204 with X-Terraform-Get and X-Service-Get; the link serves the uploaded archive byte for byte', async () => {
    const { client, network } = await registry();
    const answer = await client.call('GET', `${REGISTRY}/${ORG}/network/aws/1.0.0/download`);
    expect(answer.status).toBe(204);
    expect(answer.body).toEqual({});
    const location = answer.headers.get('x-terraform-get');
    expect(location).toMatch(new RegExp(`^${client.emulator.url}/_archivist/v1/download/[0-9A-Za-z]{32}$`));
    expect(answer.headers.get('x-service-get')).toBe(location);
    // the link is a capability: no header needed
    const archive = await fetch(location ?? '');
    expect(archive.status).toBe(200);
    const bytes = Buffer.from(await archive.arrayBuffer());
    expect(bytes.equals(network.bytes)).toBe(true);

    const summary = await client.call('GET', `/api/registry/v2/modules/${ORG}/network/aws/downloads/summary`);
    expect(summary.status).toBe(200);
    expect(summary.body).toEqual({
      data: {
        type: 'module-downloads-summary',
        id: `${ORG}/network/aws`,
        attributes: { week: 1, month: 1, year: 1, total: 1 },
      },
    });
    expect((await client.call('GET', `${REGISTRY}/${ORG}/network/aws`)).body).toMatchObject({ downloads: 1 });
    // the other provider is another module
    const google = await client.call('GET', `/api/registry/v2/modules/${ORG}/network/google/downloads/summary`);
    expect(google.body).toMatchObject({ data: { attributes: { total: 0 } } });
  });

  it('redirects the latest download with 302 to the latest version’s download', async () => {
    const { client } = await registry();
    const response = await fetch(`${client.emulator.url}${REGISTRY}/${ORG}/network/aws/download`, {
      headers: { authorization: `Bearer ${client.emulator.tokens.admin}` },
      redirect: 'manual',
    });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe(`${REGISTRY}/${ORG}/network/aws/1.1.0/download`);
  });
});

describe('errors and visibility', () => {
  it('answers {"errors":["Not Found"]} for what does not exist', async () => {
    const { client } = await registry();
    for (const path of [
      `${REGISTRY}/${ORG}/nothing/aws`,
      `${REGISTRY}/${ORG}/nothing`,
      `${REGISTRY}/${ORG}/network/azurerm/versions`,
      `${REGISTRY}/${ORG}/network/aws/9.9.9`,
      `${REGISTRY}/${ORG}/network/aws/9.9.9/download`,
      `${REGISTRY}/${ORG}/empty/aws`,
      `${REGISTRY}/${ORG}/empty/aws/download`,
      `${REGISTRY}/${ORG}/empty/aws/0.0.1/download`,
      `/api/registry/v2/modules/${ORG}/nothing/aws/downloads/summary`,
    ]) {
      const answer = await client.call('GET', path);
      expect(answer.status, path).toBe(404);
      expect(answer.headers.get('content-type'), path).toContain('application/json');
      expect(answer.body, path).toEqual({ errors: ['Not Found'] });
    }
    // a module without versions still lists an empty version list
    const empty = await client.call('GET', `${REGISTRY}/${ORG}/empty/aws/versions`);
    expect(empty.body).toEqual({ modules: [{ source: `${ORG}/empty/aws`, versions: [] }] });
    // a spent or made-up download link
    expect((await fetch(`${client.emulator.url}/_archivist/v1/download/made-up`)).status).toBe(404);
  });

  it('needs a token, and shows a member of another organization none of the modules', async () => {
    const { client } = await registry(outsiders);
    const anonymous = await client.call('GET', REGISTRY, { token: null });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ errors: ['Unauthorized'] });
    expect((await client.call('GET', `${REGISTRY}/${ORG}/network/aws`, { token: 'not-a-token' })).status).toBe(401);

    const theirs = await client.call('GET', REGISTRY, { token: OUTSIDER });
    expect(theirs.status).toBe(200);
    expect(modules(theirs)).toEqual([]);
    expect(modules(await client.call('GET', `${REGISTRY}/${ORG}`, { token: OUTSIDER }))).toEqual([]);
    expect(modules(await client.call('GET', `${REGISTRY}/search?q=network`, { token: OUTSIDER }))).toEqual([]);
    for (const path of [
      `${REGISTRY}/${ORG}/network/aws`,
      `${REGISTRY}/${ORG}/network/aws/versions`,
      `${REGISTRY}/${ORG}/network/aws/1.0.0/download`,
    ]) {
      const answer = await client.call('GET', path, { token: OUTSIDER });
      expect(answer.status, path).toBe(404);
      expect(answer.body).toEqual({ errors: ['Not Found'] });
    }
    // a member of the organization sees them
    expect(ids(await client.call('GET', REGISTRY, { token: client.emulator.tokens.member }))).toHaveLength(4);
  });
});
