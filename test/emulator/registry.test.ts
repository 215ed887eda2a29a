/**
 * The registry emulator's management API (docs/emulator.md, "Registry"):
 * modules, versions and uploads, the delete cascade, rights, VCS publishing
 * from a throw-away git repository, and module tests (configuration
 * versions, runs, variables). The registry protocol is in
 * registry-protocol.test.ts.
 */
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SeedData } from '../../src/emulator/seed.ts';
import { packModule } from '../../src/registry/pack.ts';
import { type Answer, type Client, details, doc, pointers, start } from './helpers.ts';
import { gitRepository } from './registry-git.ts';
import { FIXTURES, fixtureTarball, moduleTarball } from './registry-ingest/tarballs.ts';

const ORG = 'example-org';
const MODULES = `/api/v2/organizations/${ORG}/registry-modules`;
const PRIVATE = `${MODULES}/private/${ORG}`;
const testsPath = (name: string, provider: string) =>
  `/api/v2/organizations/${ORG}/tests/registry-modules/private/${ORG}/${name}/${provider}`;

/** A publisher (Manage modules, not owners) and a member of another organization, with known tokens. */
const PUBLISHER = 'publisher-token-0000000000000000000000000';
const OUTSIDER = 'outsider-token-00000000000000000000000000';
const people: SeedData = {
  organizations: [{ name: 'other-org' }],
  users: [
    { username: 'publisher', token: PUBLISHER, organizations: [{ name: ORG, role: 'member' }] },
    { username: 'outsider', token: OUTSIDER, organizations: [{ name: 'other-org', role: 'owner' }] },
  ],
  teams: [{ organization: ORG, name: 'publishers', members: ['publisher'], manageModules: true }],
};

type Resource = { id: string; type: string; attributes: Record<string, unknown>; links?: Record<string, string> };
const data = (answer: Answer) => answer.body.data as Resource;
const list = (answer: Answer) => answer.body.data as Resource[];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `read` until `done` holds (or fails after `ms`). */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting: ${JSON.stringify(value)}`);
    await sleep(25);
  }
}

function createModule(client: Client, name: string, provider = 'aws', token?: string): Promise<Answer> {
  return client.call('POST', MODULES, {
    ...(token !== undefined && { token }),
    body: doc('registry-modules', { name, provider, 'registry-name': 'private' }),
  });
}

/** PUT to a capability URL, with no header at all. */
async function put(url: string, bytes: Buffer): Promise<number> {
  const response = await fetch(url, { method: 'PUT', body: new Uint8Array(bytes) });
  await response.arrayBuffer();
  return response.status;
}

/** Creates a version and uploads `bytes` to its `links.upload`. */
async function publish(client: Client, name: string, provider: string, version: string, bytes: Buffer) {
  const created = await client.call('POST', `${PRIVATE}/${name}/${provider}/versions`, {
    body: doc('registry-module-versions', { version }),
  });
  expect(created.status).toBe(201);
  expect(await put(data(created).links?.upload ?? '', bytes)).toBe(200);
  return created;
}

const showModule = (client: Client, name: string, provider = 'aws') =>
  client.call('GET', `${PRIVATE}/${name}/${provider}`);

describe('module list', () => {
  it('filters by q, registry name and provider, and paginates with links and meta.pagination', async () => {
    const client = await start();
    for (const [name, provider] of [
      ['network', 'aws'],
      ['network', 'google'],
      ['storage', 'aws'],
      ['dns', 'azurerm'],
    ] as const) {
      expect((await createModule(client, name, provider)).status).toBe(201);
    }
    const pub = await client.call('POST', MODULES, {
      body: doc('registry-modules', {
        name: 'vpc',
        provider: 'aws',
        namespace: 'terraform-aws-modules',
        'registry-name': 'public',
      }),
    });
    expect(pub.status).toBe(201);

    const all = await client.call('GET', MODULES);
    expect(all.status).toBe(200);
    expect(list(all)).toHaveLength(5);
    expect(all.body.meta).toEqual({
      pagination: {
        'current-page': 1,
        'page-size': 20,
        'prev-page': null,
        'next-page': null,
        'total-pages': 1,
        'total-count': 5,
      },
    });

    const names = (answer: Answer) => list(answer).map((m) => `${m.attributes.name}/${m.attributes.provider}`);
    expect(names(await client.call('GET', `${MODULES}?q=NET`))).toEqual(['network/aws', 'network/google']);
    // q also searches the namespace and the provider
    expect(names(await client.call('GET', `${MODULES}?q=azure`))).toEqual(['dns/azurerm']);
    expect(names(await client.call('GET', `${MODULES}?q=terraform-aws`))).toEqual(['vpc/aws']);
    expect(names(await client.call('GET', `${MODULES}?filter%5Bregistry_name%5D=public`))).toEqual(['vpc/aws']);
    expect(names(await client.call('GET', `${MODULES}?filter[registry_name]=private&filter[provider]=aws`))).toEqual([
      'network/aws',
      'storage/aws',
    ]);
    expect(names(await client.call('GET', `${MODULES}?filter[organization_name]=${ORG}`))).toHaveLength(5);
    expect(names(await client.call('GET', `${MODULES}?filter[organization_name]=other-org`))).toEqual([]);

    const second = await client.call('GET', `${MODULES}?page%5Bsize%5D=2&page%5Bnumber%5D=2&q=a`);
    expect(second.body.meta).toMatchObject({
      pagination: {
        'current-page': 2,
        'page-size': 2,
        'prev-page': 1,
        'next-page': 3,
        'total-pages': 3,
        'total-count': 5,
      },
    });
    const base = `${client.emulator.url}${MODULES}`;
    expect(second.body.links).toEqual({
      self: `${base}?page%5Bnumber%5D=2&page%5Bsize%5D=2&q=a`,
      first: `${base}?page%5Bnumber%5D=1&page%5Bsize%5D=2&q=a`,
      prev: `${base}?page%5Bnumber%5D=1&page%5Bsize%5D=2&q=a`,
      next: `${base}?page%5Bnumber%5D=3&page%5Bsize%5D=2&q=a`,
      last: `${base}?page%5Bnumber%5D=3&page%5Bsize%5D=2&q=a`,
    });
    const tooBig = await client.call('GET', `${MODULES}?page%5Bsize%5D=101`);
    expect(tooBig.status).toBe(422);
    expect(details(tooBig)).toEqual(['page[size] must be between 1 and 100']);
  });
});

describe('creating a module', () => {
  it('creates a private module: 201, pending, no version statuses, a mod- id, links.self', async () => {
    const client = await start();
    const answer = await createModule(client, 'network');
    expect(answer.status).toBe(201);
    expect(answer.headers.get('content-type')).toContain('application/vnd.api+json');
    const module = data(answer);
    expect(module.id).toMatch(/^mod-[0-9A-Za-z]{16}$/);
    expect(module.type).toBe('registry-modules');
    expect(module.attributes).toMatchObject({
      name: 'network',
      namespace: ORG,
      provider: 'aws',
      'registry-name': 'private',
      status: 'pending',
      'version-statuses': [],
      permissions: { 'can-delete': true, 'can-resync': false, 'can-retry': false },
    });
    expect(module.attributes['created-at']).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(module.attributes).not.toHaveProperty('vcs-repo');
    expect(module.links).toEqual({ self: `${PRIVATE}/network/aws` });
    expect((answer.body.data as { relationships: unknown }).relationships).toEqual({
      organization: { data: { id: ORG, type: 'organizations' } },
    });
    const shown = await showModule(client, 'network');
    expect(shown.status).toBe(200);
    expect(data(shown).id).toBe(module.id);
  });

  it('refuses each name, provider and namespace rule with a pointer and a Rails-style detail', async () => {
    const client = await start();
    const refused = async (attributes: Record<string, unknown>) => {
      const answer = await client.call('POST', MODULES, { body: doc('registry-modules', attributes) });
      expect(answer.status).toBe(422);
      expect(answer.body.errors?.every((e) => e.status === '422' && e.title === 'invalid attribute')).toBe(true);
      return { pointers: pointers(answer), details: details(answer) };
    };
    const ok = { name: 'network', provider: 'aws', 'registry-name': 'private' };
    expect(await refused({ ...ok, name: '-network' })).toEqual({
      pointers: ['/data/attributes/name'],
      details: [
        'Name can contain only letters, numbers, dashes and underscores, and must start and end with a letter or number',
      ],
    });
    for (const name of ['network_', 'net work', 'net.work', '_x']) {
      expect((await refused({ ...ok, name })).pointers).toEqual(['/data/attributes/name']);
    }
    expect(await refused({ ...ok, name: 'n'.repeat(65) })).toEqual({
      pointers: ['/data/attributes/name'],
      details: ['Name is too long (maximum is 64 characters)'],
    });
    expect((await createModule(client, `n${'-'.repeat(62)}n`)).status).toBe(201);
    expect(await refused({ ...ok, provider: 'AWS' })).toEqual({
      pointers: ['/data/attributes/provider'],
      details: ['Provider can contain only lowercase letters and numbers'],
    });
    expect((await refused({ ...ok, provider: 'aws-x' })).pointers).toEqual(['/data/attributes/provider']);
    expect((await refused({ ...ok, provider: 'a'.repeat(65) })).details).toEqual([
      'Provider is too long (maximum is 64 characters)',
    ]);
    expect(await refused({ ...ok, 'registry-name': 'secret' })).toEqual({
      pointers: ['/data/attributes/registry-name'],
      details: ['Registry name is not included in the list'],
    });
    // a private module's namespace is the organization: giving one is an error
    expect(await refused({ ...ok, namespace: ORG })).toEqual({
      pointers: ['/data/attributes/namespace'],
      details: ['Namespace must not be set for private modules'],
    });
    // a public record needs its namespace, by the same rules as the name
    expect(await refused({ ...ok, 'registry-name': 'public' })).toEqual({
      pointers: ['/data/attributes/namespace'],
      details: ["Namespace can't be blank"],
    });
    expect((await refused({ ...ok, 'registry-name': 'public', namespace: 'x'.repeat(65) })).details).toEqual([
      'Namespace is too long (maximum is 64 characters)',
    ]);
    // several failures at once: one error object each
    expect(await refused({ name: 'bad name', provider: '', 'registry-name': 'private', namespace: 'x' })).toEqual({
      pointers: ['/data/attributes/name', '/data/attributes/provider', '/data/attributes/namespace'],
      details: [
        'Name can contain only letters, numbers, dashes and underscores, and must start and end with a letter or number',
        "Provider can't be blank",
        'Namespace must not be set for private modules',
      ],
    });
  });

  it('refuses a duplicate with 422 "has already been taken"', async () => {
    const client = await start();
    expect((await createModule(client, 'network')).status).toBe(201);
    const again = await createModule(client, 'network');
    expect(again.status).toBe(422);
    expect(pointers(again)).toEqual(['/data/attributes/name']);
    expect(details(again)).toEqual(['Name has already been taken']);
    // another provider is another module
    expect((await createModule(client, 'network', 'google')).status).toBe(201);
  });

  it('refuses a body that is not a registry-modules document', async () => {
    const client = await start();
    const answer = await client.call('POST', MODULES, { body: doc('workspaces', { name: 'x', provider: 'aws' }) });
    expect(answer.status).toBe(422);
    expect(answer.body.errors?.[0]).toMatchObject({ status: '422', title: 'unprocessable entity' });
  });

  it('keeps public records, with their namespace, where public curation is on (the default)', async () => {
    const client = await start();
    const answer = await client.call('POST', MODULES, {
      body: doc('registry-modules', {
        name: 'vpc',
        provider: 'aws',
        namespace: 'terraform-aws-modules',
        'registry-name': 'public',
      }),
    });
    expect(answer.status).toBe(201);
    expect(data(answer).attributes).toMatchObject({ namespace: 'terraform-aws-modules', 'registry-name': 'public' });
    expect(data(answer).links).toEqual({ self: `${MODULES}/public/terraform-aws-modules/vpc/aws` });
    const shown = await client.call('GET', `${MODULES}/public/terraform-aws-modules/vpc/aws`);
    expect(shown.status).toBe(200);
  });

  it('answers 403 for public records when public curation is off', async () => {
    const client = await start({ seed: { registry: { publicCuration: false } } });
    const answer = await client.call('POST', MODULES, {
      body: doc('registry-modules', {
        name: 'vpc',
        provider: 'aws',
        namespace: 'hashicorp',
        'registry-name': 'public',
      }),
    });
    expect(answer.status).toBe(403);
    expect(answer.body.errors?.[0]).toMatchObject({ status: '403', title: 'forbidden' });
    expect((await client.call('GET', `${MODULES}/public/hashicorp/vpc/aws`)).status).toBe(403);
    expect((await client.call('DELETE', `${MODULES}/public/hashicorp/vpc`)).status).toBe(403);
    expect((await createModule(client, 'network')).status).toBe(201);
  });

  it('requires registry-name private on a self-managed installation', async () => {
    const client = await start({ seed: { registry: { selfManaged: true } } });
    const answer = await client.call('POST', MODULES, {
      body: doc('registry-modules', {
        name: 'vpc',
        provider: 'aws',
        namespace: 'hashicorp',
        'registry-name': 'public',
      }),
    });
    expect(answer.status).toBe(422);
    expect(pointers(answer)).toEqual(['/data/attributes/registry-name']);
    expect(details(answer)).toEqual(['Registry name must be private on a self-managed installation']);
    expect((await createModule(client, 'network')).status).toBe(201);
  });
});

describe('rights', () => {
  it('answers 401 without a token and 404 for an unknown organization', async () => {
    const client = await start();
    const anonymous = await client.call('GET', MODULES, { token: null });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.errors?.[0]).toMatchObject({ status: '401', title: 'unauthorized' });
    expect((await client.call('POST', MODULES, { token: null, body: doc('registry-modules', {}) })).status).toBe(401);
    const unknown = await client.call('GET', '/api/v2/organizations/no-such-org/registry-modules');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ errors: [{ status: '404', title: 'not found' }] });
  });

  it('lets a member read but not create (404), and hides the organization from outsiders', async () => {
    const client = await start({ seed: people });
    const { member } = client.emulator.tokens;
    expect((await createModule(client, 'network')).status).toBe(201);
    expect((await client.call('GET', MODULES, { token: member })).status).toBe(200);
    expect((await showModule(client, 'network')).status).toBe(200);
    expect((await createModule(client, 'storage', 'aws', member)).status).toBe(404);
    expect((await client.call('GET', MODULES, { token: OUTSIDER })).status).toBe(404);
    expect((await client.call('GET', `${PRIVATE}/network/aws`, { token: OUTSIDER })).status).toBe(404);
  });

  it('lets the publishers team create modules and versions, but not patch, delete or test (404)', async () => {
    const client = await start({ seed: people });
    expect((await createModule(client, 'network', 'aws', PUBLISHER)).status).toBe(201);
    const version = await client.call('POST', `${PRIVATE}/network/aws/versions`, {
      token: PUBLISHER,
      body: doc('registry-module-versions', { version: '1.0.0' }),
    });
    expect(version.status).toBe(201);
    const patch = await client.call('PATCH', `${PRIVATE}/network/aws`, {
      token: PUBLISHER,
      body: doc('registry-modules', { 'test-config': { 'tests-enabled': true } }),
    });
    expect(patch.status).toBe(404);
    expect((await client.call('DELETE', `${PRIVATE}/network/aws/1.0.0`, { token: PUBLISHER })).status).toBe(404);
    expect((await client.call('DELETE', `${PRIVATE}/network`, { token: PUBLISHER })).status).toBe(404);
    expect((await client.call('GET', `${testsPath('network', 'aws')}/test-runs`, { token: PUBLISHER })).status).toBe(
      404,
    );
    expect((await client.call('GET', `${testsPath('network', 'aws')}/vars`, { token: PUBLISHER })).status).toBe(404);
    // the module is still there
    expect((await showModule(client, 'network')).status).toBe(200);
  });

  it('lets the owners team (admin) and an organization owner do everything', async () => {
    const client = await start();
    const { owner } = client.emulator.tokens;
    for (const [name, token] of [
      ['network', client.emulator.tokens.admin],
      ['storage', owner],
    ] as const) {
      expect((await createModule(client, name, 'aws', token)).status).toBe(201);
      const patch = await client.call('PATCH', `${PRIVATE}/${name}/aws/`, {
        token,
        body: doc('registry-modules', { 'test-config': { 'tests-enabled': true } }),
      });
      expect(patch.status).toBe(200);
      expect((await client.call('GET', `${testsPath(name, 'aws')}/vars`, { token })).status).toBe(200);
      expect((await client.call('DELETE', `${PRIVATE}/${name}`, { token })).status).toBe(204);
    }
  });
});

describe('module versions', () => {
  it('creates a pending version with links.upload and a modver- id', async () => {
    const client = await start();
    const module = data(await createModule(client, 'network'));
    const answer = await client.call('POST', `${PRIVATE}/network/aws/versions`, {
      body: doc('registry-module-versions', { version: '1.2.0', 'commit-sha': 'abc123' }),
    });
    expect(answer.status).toBe(201);
    const version = data(answer);
    expect(version.id).toMatch(/^modver-[0-9A-Za-z]{16}$/);
    expect(version.type).toBe('registry-module-versions');
    expect(version.attributes).toMatchObject({ status: 'pending', version: '1.2.0', source: 'platform-api' });
    expect((answer.body.data as { relationships: unknown }).relationships).toEqual({
      'registry-module': { data: { id: module.id, type: 'registry-modules' } },
    });
    expect(version.links?.upload).toMatch(new RegExp(`^${client.emulator.url}/_archivist/v1/object/[0-9A-Za-z]{40}$`));
    expect(data(await showModule(client, 'network')).attributes['version-statuses']).toEqual([
      { version: '1.2.0', status: 'pending' },
    ]);
  });

  it('refuses an invalid semantic version, a duplicate, an unknown module, and public modules', async () => {
    const client = await start();
    await createModule(client, 'network');
    const create = (version: unknown, path = `${PRIVATE}/network/aws/versions`) =>
      client.call('POST', path, { body: doc('registry-module-versions', { version }) });
    for (const version of ['1.0', 'v1.0.0', '=1.0.0', ' 1.0.0', '1.0.0 ', '01.0.0', 'latest', '', 1]) {
      const answer = await create(version);
      expect(answer.status, String(version)).toBe(422);
      expect(pointers(answer)).toEqual(['/data/attributes/version']);
      expect(details(answer)).toEqual(['Version is not a valid semantic version']);
    }
    expect((await create('1.0.0-beta.1+build.5')).status).toBe(201);
    expect((await create('1.0.0')).status).toBe(201);
    const duplicate = await create('1.0.0');
    expect(duplicate.status).toBe(422);
    expect(details(duplicate)).toEqual(['Version has already been taken']);
    expect((await create('1.0.0', `${PRIVATE}/nothing/aws/versions`)).status).toBe(404);
    await client.call('POST', MODULES, {
      body: doc('registry-modules', {
        name: 'vpc',
        provider: 'aws',
        namespace: 'hashicorp',
        'registry-name': 'public',
      }),
    });
    const onPublic = await create('1.0.0', `${MODULES}/public/hashicorp/vpc/aws/versions`);
    expect(onPublic.status).toBe(403);
    expect(onPublic.body.errors?.[0]).toMatchObject({ status: '403', title: 'forbidden' });
  });

  it('ingests an upload sent with no header: version ok, module setup_complete', async () => {
    const client = await start();
    await createModule(client, 'network');
    const packed = await packModule(join(FIXTURES, 'network'));
    await publish(client, 'network', 'aws', '1.0.0', packed.bytes);
    const module = data(await showModule(client, 'network'));
    expect(module.attributes.status).toBe('setup_complete');
    expect(module.attributes['version-statuses']).toEqual([{ version: '1.0.0', status: 'ok' }]);
    // newest first
    await publish(client, 'network', 'aws', '1.10.0', packed.bytes);
    await publish(client, 'network', 'aws', '1.9.0', packed.bytes);
    expect(data(await showModule(client, 'network')).attributes['version-statuses']).toEqual([
      { version: '1.10.0', status: 'ok' },
      { version: '1.9.0', status: 'ok' },
      { version: '1.0.0', status: 'ok' },
    ]);
  });

  it('fails a bad archive with reg_ingress_failed and the reason in version-statuses[].error', async () => {
    const client = await start();
    await createModule(client, 'network');
    await publish(client, 'network', 'aws', '0.1.0', Buffer.from('this is not a gzip file'));
    await publish(client, 'network', 'aws', '0.2.0', moduleTarball({ 'main.tf': 'resource "aws_vpc" "this" {\n' }));
    await publish(client, 'network', 'aws', '0.3.0', await fixtureTarball('network', 'network/'));
    const module = data(await showModule(client, 'network'));
    expect(module.attributes.status).toBe('pending');
    const statuses = module.attributes['version-statuses'] as Array<{ version: string; status: string; error: string }>;
    expect(statuses.map((s) => [s.version, s.status])).toEqual([
      ['0.3.0', 'reg_ingress_failed'],
      ['0.2.0', 'reg_ingress_failed'],
      ['0.1.0', 'reg_ingress_failed'],
    ]);
    const [subdirectory, hcl, notGzip] = statuses.map((s) => s.error);
    expect(notGzip).toMatch(/gzip/i);
    expect(hcl).toContain('main.tf');
    expect(subdirectory).toBe(
      "the module must be at the archive's root: there is no .tf file at the root (found some under network/)",
    );
    // a good upload of another version makes the module usable
    await publish(client, 'network', 'aws', '1.0.0', await fixtureTarball('network'));
    expect(data(await showModule(client, 'network')).attributes.status).toBe('setup_complete');
  });

  it('spends an upload URL once: a second PUT is a 404', async () => {
    const client = await start();
    await createModule(client, 'network');
    const created = await publish(client, 'network', 'aws', '1.0.0', await fixtureTarball('network'));
    const url = data(created).links?.upload ?? '';
    expect(await put(url, await fixtureTarball('storage'))).toBe(404);
    expect(await put(`${client.emulator.url}/_archivist/v1/object/guessed`, Buffer.from('x'))).toBe(404);
  });

  it('refuses versions of a tag-based VCS module through the API', async () => {
    const repo = gitRepository();
    const client = await start({ seed: { registry: { repositories: { 'acme/terraform-aws-network': repo.path } } } });
    await publishVcs(client, { identifier: 'acme/terraform-aws-network', 'oauth-token-id': 'ot-abc' });
    const answer = await client.call('POST', `${PRIVATE}/network/aws/versions`, {
      body: doc('registry-module-versions', { version: '9.0.0' }),
    });
    expect(answer.status).toBe(422);
  });
});

describe('deleting', () => {
  async function seeded() {
    const client = await start();
    const bytes = await fixtureTarball('network');
    for (const provider of ['aws', 'google']) {
      await createModule(client, 'network', provider);
      await publish(client, 'network', provider, '1.0.0', bytes);
      await publish(client, 'network', provider, '1.1.0', bytes);
    }
    return client;
  }
  const providers = async (client: Client) =>
    list(await client.call('GET', `${MODULES}?q=network`)).map((m) => m.attributes.provider);

  it('deletes one version; the last version of a provider takes the provider with it', async () => {
    const client = await seeded();
    expect((await client.call('DELETE', `${PRIVATE}/network/aws/1.1.0`)).status).toBe(204);
    expect(data(await showModule(client, 'network')).attributes['version-statuses']).toEqual([
      { version: '1.0.0', status: 'ok' },
    ]);
    expect((await client.call('DELETE', `${PRIVATE}/network/aws/1.1.0`)).status).toBe(404);
    expect((await client.call('DELETE', `${PRIVATE}/network/aws/1.0.0`)).status).toBe(204);
    expect((await showModule(client, 'network')).status).toBe(404);
    expect(await providers(client)).toEqual(['google']);
  });

  it('deletes a provider with its versions, and the whole module by namespace and name', async () => {
    const client = await seeded();
    expect((await client.call('DELETE', `${PRIVATE}/network/google`)).status).toBe(204);
    expect(await providers(client)).toEqual(['aws']);
    expect((await client.call('DELETE', `${PRIVATE}/network/google`)).status).toBe(404);
    await createModule(client, 'network', 'azurerm');
    expect((await client.call('DELETE', `${PRIVATE}/network`)).status).toBe(204);
    expect(await providers(client)).toEqual([]);
    expect((await client.call('DELETE', `${PRIVATE}/network`)).status).toBe(404);
  });

  it('removes a public record only by namespace and name; the other forms are 404', async () => {
    const client = await start();
    await client.call('POST', MODULES, {
      body: doc('registry-modules', {
        name: 'vpc',
        provider: 'aws',
        namespace: 'hashicorp',
        'registry-name': 'public',
      }),
    });
    expect((await client.call('DELETE', `${MODULES}/public/hashicorp/vpc/aws`)).status).toBe(404);
    expect((await client.call('DELETE', `${MODULES}/public/hashicorp/vpc/aws/1.0.0`)).status).toBe(404);
    expect((await client.call('DELETE', `${MODULES}/public/hashicorp/vpc`)).status).toBe(204);
    expect(list(await client.call('GET', MODULES))).toEqual([]);
  });
});

describe('updating a module', () => {
  it('turns tests on and off, keeping the test-config id', async () => {
    const client = await start();
    await createModule(client, 'network');
    expect(data(await showModule(client, 'network')).attributes['test-config']).toBeNull();
    const on = await client.call('PATCH', `${PRIVATE}/network/aws`, {
      body: doc('registry-modules', { 'test-config': { 'tests-enabled': true } }),
    });
    expect(on.status).toBe(200);
    const config = data(on).attributes['test-config'] as { id: string; 'tests-enabled': boolean };
    expect(config).toEqual({ id: expect.stringMatching(/^tc-[0-9A-Za-z]{16}$/), 'tests-enabled': true });
    const off = await client.call('PATCH', `${PRIVATE}/network/aws/`, {
      body: doc('registry-modules', { 'test-config': { 'tests-enabled': false } }),
    });
    expect(data(off).attributes['test-config']).toEqual({ id: config.id, 'tests-enabled': false });
    // omitted keys keep their values
    const nothing = await client.call('PATCH', `${PRIVATE}/network/aws`, { body: doc('registry-modules', {}) });
    expect(data(nothing).attributes['test-config']).toEqual({ id: config.id, 'tests-enabled': false });
    const bad = await client.call('PATCH', `${PRIVATE}/network/aws`, {
      body: doc('registry-modules', { 'test-config': { 'tests-enabled': 'yes' } }),
    });
    expect(bad.status).toBe(422);
    expect((await client.call('PATCH', `${PRIVATE}/nothing/aws`, { body: doc('registry-modules', {}) })).status).toBe(
      404,
    );
  });

  it('switches a VCS module between branch- and tag-based publishing, never both at once', async () => {
    const repo = gitRepository();
    const client = await start({ seed: { registry: { repositories: { 'acme/terraform-aws-network': repo.path } } } });
    await publishVcs(client, { identifier: 'acme/terraform-aws-network', 'oauth-token-id': 'ot-abc' });
    const patch = (vcs: Record<string, unknown>) =>
      client.call('PATCH', `${PRIVATE}/network/aws`, { body: doc('registry-modules', { 'vcs-repo': vcs }) });
    const branch = await patch({ branch: 'main' });
    expect(branch.status).toBe(200);
    expect(data(branch).attributes).toMatchObject({ 'publishing-mechanism': 'branch', 'vcs-repo': { branch: 'main' } });
    const tags = await patch({ tags: true });
    expect(data(tags).attributes).toMatchObject({ 'publishing-mechanism': 'git_tag', 'vcs-repo': { branch: '' } });
    const both = await patch({ branch: 'main', tags: true });
    expect(both.status).toBe(422);
    expect(both.body.errors?.[0]).toMatchObject({ status: '422' });
    expect(data(await showModule(client, 'network')).attributes['vcs-repo']).toMatchObject({ branch: '' });
  });
});

async function publishVcs(client: Client, vcs: Record<string, unknown>): Promise<Answer> {
  const answer = await client.call('POST', `${MODULES}/vcs`, { body: doc('registry-modules', { 'vcs-repo': vcs }) });
  expect(answer.status).toBe(201);
  return answer;
}

describe('publishing from VCS', () => {
  it('makes a version of every semantic-version tag, with or without v', async () => {
    const repo = gitRepository();
    repo.git('tag', 'v1.0.0');
    repo.git('tag', 'release-candidate');
    cpSync(join(FIXTURES, 'network', 'README.md'), join(repo.path, 'NOTES.md'));
    repo.git('add', '.');
    repo.git('commit', '--quiet', '-m', 'notes');
    repo.git('tag', '1.1.0');
    const client = await start({ seed: { registry: { repositories: { 'acme/terraform-aws-network': repo.path } } } });
    const answer = await publishVcs(client, {
      identifier: 'acme/terraform-aws-network',
      'oauth-token-id': 'ot-abc',
      display_identifier: 'acme/terraform-aws-network',
    });
    expect(data(answer).attributes).toMatchObject({
      name: 'network',
      provider: 'aws',
      namespace: ORG,
      'registry-name': 'private',
      status: 'pending',
      'version-statuses': [],
      'publishing-mechanism': 'git_tag',
      permissions: { 'can-delete': true, 'can-resync': true, 'can-retry': true },
      'vcs-repo': {
        identifier: 'acme/terraform-aws-network',
        'display-identifier': 'acme/terraform-aws-network',
        branch: '',
        'ingress-submodules': false,
        'oauth-token-id': 'ot-abc',
        'webhook-url': expect.stringMatching(
          /^http:\/\/127\.0\.0\.1:\d+\/_archivist\/v1\/webhooks\/vcs\/[0-9a-f-]{36}$/,
        ),
      },
    });
    const ready = await until(
      () => showModule(client, 'network'),
      (a) =>
        (data(a).attributes['version-statuses'] as unknown[]).length === 2 &&
        data(a).attributes.status === 'setup_complete' &&
        (data(a).attributes['version-statuses'] as Array<{ status: string }>).every((s) => s.status === 'ok'),
    );
    expect(data(ready).attributes['version-statuses']).toEqual([
      { version: '1.1.0', status: 'ok' },
      { version: '1.0.0', status: 'ok' },
    ]);
    // the same repository cannot be published twice
    const again = await client.call('POST', `${MODULES}/vcs`, {
      body: doc('registry-modules', {
        'vcs-repo': { identifier: 'acme/terraform-aws-network', 'oauth-token-id': 'ot-abc' },
      }),
    });
    expect(again.status).toBe(422);
  });

  it('publishes a branch-based module without reading tags', async () => {
    const repo = gitRepository();
    repo.git('tag', 'v1.0.0');
    const client = await start({ seed: { registry: { repositories: { 'acme/terraform-aws-network': repo.path } } } });
    const answer = await publishVcs(client, {
      identifier: 'acme/terraform-aws-network',
      'oauth-token-id': 'ot-abc',
      branch: 'main',
    });
    expect(data(answer).attributes).toMatchObject({ 'publishing-mechanism': 'branch', 'vcs-repo': { branch: 'main' } });
    await sleep(300);
    expect(data(await showModule(client, 'network')).attributes['version-statuses']).toEqual([]);
    // versions of a branch-based module are created through the API, built from the commit (no upload)
    const first = repo.git('rev-parse', 'HEAD');
    repo.git('rm', '--quiet', 'main.tf');
    repo.git('commit', '--quiet', '-m', 'no main.tf');
    const version = await client.call('POST', `${PRIVATE}/network/aws/versions`, {
      body: doc('registry-module-versions', { version: '2.0.0', 'commit-sha': first }),
    });
    expect(version.status).toBe(201);
    expect(data(version).attributes).toMatchObject({ version: '2.0.0', status: 'pending', source: 'platform-api' });
    expect(data(version).links).toEqual({});
    // without a commit, the branch's head: here one whose files are still a module
    const head = await client.call('POST', `${PRIVATE}/network/aws/versions`, {
      body: doc('registry-module-versions', { version: '2.1.0' }),
    });
    expect(head.status).toBe(201);
    const bad = await client.call('POST', `${PRIVATE}/network/aws/versions`, {
      body: doc('registry-module-versions', { version: '2.2.0', 'commit-sha': 'f'.repeat(40) }),
    });
    expect(bad.status).toBe(201);
    type Status = { version: string; status: string; error?: string };
    const statuses = (a: Answer) => data(a).attributes['version-statuses'] as Status[];
    const settled = await until(
      () => showModule(client, 'network'),
      (a) => statuses(a).every((s) => !['pending', 'cloning', 'reg_ingressing'].includes(s.status)),
    );
    expect(statuses(settled).map((s) => [s.version, s.status])).toEqual([
      ['2.2.0', 'clone_failed'],
      ['2.1.0', 'ok'],
      ['2.0.0', 'ok'],
    ]);
    expect(statuses(settled)[0]?.error).toContain(`cannot read revision ${'f'.repeat(40)}`);
    expect(data(settled).attributes.status).toBe('setup_complete');
  });

  it('refuses a malformed identifier, both connection kinds, an unknown repository and a badly named one', async () => {
    const repo = gitRepository();
    const client = await start({
      seed: {
        registry: { repositories: { 'acme/terraform-aws-network': repo.path, 'acme/network-module': repo.path } },
      },
    });
    const vcs = (body: Record<string, unknown>) =>
      client.call('POST', `${MODULES}/vcs`, { body: doc('registry-modules', { 'vcs-repo': body }) });
    const malformed = await vcs({ identifier: 'no-slash', 'oauth-token-id': 'ot-abc' });
    expect(malformed.status).toBe(422);
    expect(pointers(malformed)).toEqual(['/data/attributes/vcs-repo.identifier']);
    const both = await vcs({
      identifier: 'acme/terraform-aws-network',
      'oauth-token-id': 'ot-abc',
      'vcs-app-installation-id': 'ghain-abc',
    });
    expect(both.status).toBe(422);
    expect((await vcs({ identifier: 'acme/terraform-aws-unknown', 'oauth-token-id': 'ot-abc' })).status).toBe(404);
    expect((await vcs({ identifier: 'acme/network-module', 'oauth-token-id': 'ot-abc' })).status).toBe(422);
    expect(
      (
        await client.call('POST', `${MODULES}/vcs`, {
          token: client.emulator.tokens.member,
          body: doc('registry-modules', { 'vcs-repo': { identifier: 'acme/terraform-aws-network' } }),
        })
      ).status,
    ).toBe(404);
  });
});

describe('module tests', () => {
  // some tests move the emulator's clock themselves (vi.useFakeTimers before start(), Date only)
  afterEach(() => {
    vi.useRealTimers();
  });
  async function withModule(seed?: SeedData) {
    const client = await start(seed ? { seed } : {});
    await createModule(client, 'network');
    await publish(client, 'network', 'aws', '1.0.0', await fixtureTarball('network'));
    return client;
  }
  const runs = (name = 'network') => `${testsPath(name, 'aws')}/test-runs`;

  /** A configuration version with `bytes` uploaded: returns its id. */
  async function uploadConfiguration(client: Client, bytes: Buffer): Promise<string> {
    const created = await client.call('POST', `${runs()}/configuration-versions`);
    expect(created.status).toBe(201);
    const upload = String(data(created).attributes['upload-url']);
    expect(await put(upload, bytes)).toBe(200);
    return data(created).id;
  }

  const readRun = async (client: Client, id: string) => data(await client.call('GET', `${runs()}/${id}`));
  const finished = (client: Client, id: string) =>
    until(
      () => readRun(client, id),
      (r) => ['finished', 'errored', 'canceled'].includes(String(r.attributes.status)),
    );
  const outcome = (r: Resource) => ({
    'test-status': r.attributes['test-status'],
    'tests-passed': r.attributes['tests-passed'],
    'tests-failed': r.attributes['tests-failed'],
    'tests-errored': r.attributes['tests-errored'],
    'tests-skipped': r.attributes['tests-skipped'],
  });

  it('creates a configuration version whose upload-url is shown only on creation', async () => {
    const client = await withModule();
    const created = await client.call('POST', `${runs()}/configuration-versions`);
    expect(created.status).toBe(201);
    const cv = data(created);
    expect(cv.id).toMatch(/^cv-[0-9A-Za-z]{16}$/);
    expect(cv.type).toBe('configuration-versions');
    expect(cv.attributes).toMatchObject({
      'auto-queue-runs': true,
      error: null,
      'error-message': null,
      speculative: false,
      status: 'pending',
      'status-timestamps': {},
      'changed-files': [],
      provisional: false,
      'upload-url': expect.stringMatching(/\/_archivist\/v1\/object\/[0-9A-Za-z]{40}$/),
    });
    expect(cv.links).toEqual({ self: `/api/v2/configuration-versions/${cv.id}` });
    // a run shows the configuration version, never its upload URL
    expect(await put(String(cv.attributes['upload-url']), await fixtureTarball('network'))).toBe(200);
    const run = (await until(
      () => client.call('GET', runs()),
      (a) => list(a).length === 1,
    ).then((a) => list(a)[0])) as Resource;
    expect(JSON.stringify(run)).not.toContain('_archivist/v1/object');
  });

  it('queues a run on its own when configuration files are uploaded', async () => {
    const client = await withModule();
    const cv = await uploadConfiguration(client, await fixtureTarball('network'));
    const listed = await client.call('GET', runs());
    expect(listed.status).toBe(200);
    const [run] = list(listed);
    expect(run?.id).toMatch(/^trun-[0-9A-Za-z]{16}$/);
    expect(run?.attributes).toMatchObject({
      status: 'queued',
      source: 'platform-configuration-version',
      'test-configurable-type': 'RegistryModule',
      'test-status': null,
      'tests-passed': null,
    });
    expect((listed.body.data as Array<{ relationships: unknown }>)[0]?.relationships).toMatchObject({
      'configuration-version': {
        data: { id: cv, type: 'configuration-versions' },
        links: { related: `/api/v2/configuration-versions/${cv}` },
      },
    });
  });

  it('runs queued, then running, then finished with counts from the tftest asserts', async () => {
    // the emulator's clock is the test's: states change only when the test moves it
    vi.useFakeTimers({ toFake: ['Date'] });
    const client = await withModule();
    const cv = await uploadConfiguration(client, await fixtureTarball('network'));
    const module = data(await showModule(client, 'network'));
    const created = await client.call('POST', runs(), {
      body: {
        data: {
          type: 'test-runs',
          attributes: {
            verbose: true,
            filters: ['tests/network.tftest.hcl'],
            variables: [
              { key: 'cidr_block', value: '"10.0.0.0/16"' },
              { key: 'enable_dns_hostnames', value: 'true' },
            ],
          },
          relationships: { 'configuration-version': { data: { id: cv, type: 'configuration-versions' } } },
        },
      },
    });
    expect(created.status).toBe(201);
    const run = data(created);
    expect(run.attributes).toMatchObject({
      status: 'queued',
      'status-timestamps': { 'queued-at': expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/) },
      source: 'platform-api',
      'test-configurable-type': 'RegistryModule',
      'test-configurable-id': module.id,
      variables: [
        { key: 'cidr_block', value: '"10.0.0.0/16"' },
        { key: 'enable_dns_hostnames', value: 'true' },
      ],
      filters: ['tests/network.tftest.hcl'],
      'test-directory': 'tests',
      verbose: true,
      'test-status': null,
      'tests-passed': null,
      'tests-failed': null,
      'tests-errored': null,
      'tests-skipped': null,
    });
    expect(run.attributes).not.toHaveProperty('log-read-url');
    expect(run.attributes.message).toEqual(expect.any(String));
    vi.advanceTimersByTime(199);
    expect((await readRun(client, run.id)).attributes.status).toBe('queued');
    vi.advanceTimersByTime(1);
    const running = await readRun(client, run.id);
    expect(running.attributes.status).toBe('running');
    expect(running.attributes['status-timestamps']).toHaveProperty('started-at');
    expect(running.attributes['test-status']).toBeNull();
    expect(running.attributes['log-read-url']).toMatch(/\/_archivist\/v1\/logs\/[0-9A-Za-z]{32}$/);
    vi.advanceTimersByTime(599);
    expect((await readRun(client, run.id)).attributes.status).toBe('running');
    vi.advanceTimersByTime(1);
    const done = await readRun(client, run.id);
    expect(done.attributes.status).toBe('finished');
    expect(Object.keys(done.attributes['status-timestamps'] as object)).toEqual([
      'queued-at',
      'started-at',
      'finished-at',
    ]);
    expect(outcome(done)).toEqual({
      'test-status': 'pass',
      'tests-passed': 2,
      'tests-failed': 0,
      'tests-errored': 0,
      'tests-skipped': 0,
    });
    const log = await fetch(String(done.attributes['log-read-url']));
    expect(log.status).toBe(200);
    const text = await log.text();
    expect(text).toContain('tests/network.tftest.hcl');
    expect(text).toMatch(/pass/);
  });

  it('decides outcomes from the module test variables, which the API changes', async () => {
    const client = await withModule();
    await uploadConfiguration(client, await fixtureTarball('network'));
    const run = async () => {
      const created = await client.call('POST', runs(), {
        body: doc('test-runs', { variables: [{ key: 'enable_dns_hostnames', value: 'true' }] }),
      });
      expect(created.status).toBe(201);
      return outcome(await finished(client, data(created).id));
    };
    // the module's own default sets var.cidr_block, as terraform test does: every run passes
    const passing = {
      'test-status': 'pass',
      'tests-passed': 2,
      'tests-failed': 0,
      'tests-errored': 0,
      'tests-skipped': 0,
    };
    expect(await run()).toEqual(passing);
    // a module test variable overrides the default, and a change to it changes the outcome
    const vars = `${testsPath('network', 'aws')}/vars`;
    const variable = await client.call('POST', vars, {
      body: doc('vars', { key: 'TF_VAR_cidr_block', value: '192.168.0.0/16', category: 'env' }),
    });
    expect(variable.status).toBe(201);
    expect(await run()).toEqual({
      'test-status': 'fail',
      'tests-passed': 1,
      'tests-failed': 1,
      'tests-errored': 0,
      'tests-skipped': 0,
    });
    await client.call('PATCH', `${vars}/${data(variable).id}`, { body: doc('vars', { value: '10.0.0.0/16' }) });
    expect(await run()).toEqual(passing);
    await client.call('PATCH', `${vars}/${data(variable).id}`, { body: doc('vars', { value: '192.168.0.0/16' }) });
    // a run variable outranks the module's
    const created = await client.call('POST', runs(), {
      body: doc('test-runs', {
        variables: [
          { key: 'enable_dns_hostnames', value: 'true' },
          { key: 'cidr_block', value: '"10.0.0.0/16"' },
        ],
      }),
    });
    expect(outcome(await finished(client, data(created).id))['test-status']).toBe('pass');
    // a filter that leaves the file out skips its runs
    const filtered = await client.call('POST', runs(), {
      body: doc('test-runs', { filters: ['tests/other.tftest.hcl'] }),
    });
    expect(outcome(await finished(client, data(filtered).id))).toMatchObject({ 'tests-skipped': 2 });
  });

  it('cancels only a running run (202, then canceled), force-cancels only after a cancel', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const client = await withModule();
    await uploadConfiguration(client, await fixtureTarball('network'));
    const create = async () => data(await client.call('POST', runs(), { body: doc('test-runs', {}) })).id;
    const cancel = (id: string, what = 'cancel') => client.call('POST', `${runs()}/${id}/${what}`);
    const status = async (id: string) => (await readRun(client, id)).attributes.status;

    const first = await create();
    const early = await cancel(first);
    expect(early.status).toBe(409);
    expect(early.body.errors?.[0]).toMatchObject({ status: '409', title: 'conflict' });
    expect((await cancel(first, 'force-cancel')).status).toBe(409);

    vi.advanceTimersByTime(300);
    expect(await status(first)).toBe('running');
    // force-cancel needs a cancel first
    expect((await cancel(first, 'force-cancel')).status).toBe(409);
    const accepted = await cancel(first);
    expect(accepted.status).toBe(202);
    expect(accepted.body).toEqual({});
    // still running while it stops; a second cancel is a 409, force-cancel ends it at once
    expect(await status(first)).toBe('running');
    expect((await cancel(first)).status).toBe(409);
    expect((await cancel(first, 'force-cancel')).status).toBe(202);
    const canceled = await readRun(client, first);
    expect(canceled.attributes.status).toBe('canceled');
    expect(canceled.attributes['test-status']).toBeNull();
    expect((await cancel(first, 'force-cancel')).status).toBe(409);
    vi.advanceTimersByTime(5000);
    expect(await status(first)).toBe('canceled');

    // a cancel without force ends the run canceled 300 ms later, and it stays so
    const second = await create();
    vi.advanceTimersByTime(250);
    expect((await cancel(second)).status).toBe(202);
    vi.advanceTimersByTime(299);
    expect(await status(second)).toBe('running');
    vi.advanceTimersByTime(1);
    expect(await status(second)).toBe('canceled');
    vi.advanceTimersByTime(5000);
    expect(await status(second)).toBe('canceled');

    const third = await create();
    vi.advanceTimersByTime(800);
    expect(await status(third)).toBe('finished');
    expect((await cancel(third)).status).toBe(409);
    expect((await cancel(third, 'force-cancel')).status).toBe(409);
    expect((await cancel('trun-doesnotexist0000')).status).toBe(404);
  });

  it('refuses a run of a configuration version that does not exist or holds no upload', async () => {
    const client = await withModule();
    const create = (id?: string) =>
      client.call('POST', runs(), {
        body: {
          data: {
            type: 'test-runs',
            ...(id !== undefined && { relationships: { 'configuration-version': { data: { id } } } }),
          },
        },
      });
    // nothing uploaded yet
    const none = await create();
    expect(none.status).toBe(422);
    expect(pointers(none)).toEqual(['/data/attributes/configuration-version']);
    const pending = data(await client.call('POST', `${runs()}/configuration-versions`)).id;
    expect((await create(pending)).status).toBe(422);
    await uploadConfiguration(client, await fixtureTarball('network'));
    expect((await create('cv-doesnotexist000000')).status).toBe(422);
    // without one named, the latest upload
    expect((await create()).status).toBe(201);
  });

  it('ends the run of an unreadable configuration errored, with the reason in the log', async () => {
    const client = await withModule();
    const created = await client.call('POST', `${runs()}/configuration-versions`);
    expect(await put(String(data(created).attributes['upload-url']), Buffer.from('not a gzip'))).toBe(200);
    const [run] = list(await client.call('GET', runs()));
    const done = await finished(client, run?.id ?? '');
    expect(done.attributes.status).toBe('errored');
    expect(outcome(done)['test-status']).toBeNull();
    const log = await (await fetch(String(done.attributes['log-read-url']))).text();
    expect(log).toMatch(/gzip/i);
  });

  it('lists runs newest first, filtered by source', async () => {
    const client = await withModule();
    await uploadConfiguration(client, await fixtureTarball('network'));
    const apiRun = data(await client.call('POST', runs(), { body: doc('test-runs', {}) })).id;
    const sources = async (query = '') =>
      list(await client.call('GET', `${runs()}/${query}`)).map((r) => r.attributes.source);
    expect(await sources()).toEqual(['platform-api', 'platform-configuration-version']);
    expect(await sources('?filter%5Bsource%5D=platform-api')).toEqual(['platform-api']);
    expect(await sources('?filter[source]=platform-configuration-version')).toEqual(['platform-configuration-version']);
    expect(await sources('?filter[source]=platform,platform-api,platform-configuration-version')).toHaveLength(2);
    expect(await sources('?filter[source]=platform')).toEqual([]);
    const one = await client.call('GET', `${runs()}/${apiRun}`);
    expect(one.status).toBe(200);
    expect(data(one).id).toBe(apiRun);
    expect((await client.call('GET', `${runs()}/trun-doesnotexist0000`)).status).toBe(404);
  });

  describe('with a clock the test moves', () => {
    it('keeps a run canceled when the cancel comes in its last moments', async () => {
      vi.useFakeTimers({ toFake: ['Date'] });
      const client = await withModule();
      await uploadConfiguration(client, await fixtureTarball('network'));
      const id = data(await client.call('POST', runs(), { body: doc('test-runs', {}) })).id;
      const at = async (ms: number) => {
        vi.advanceTimersByTime(ms);
        return (await readRun(client, id)).attributes;
      };
      expect((await at(0)).status).toBe('queued');
      expect((await at(750)).status).toBe('running');
      expect((await client.call('POST', `${runs()}/${id}/cancel`)).status).toBe(202);
      // the run would have finished 50 ms later: it ends canceled then, and stays so
      const ended = await at(60);
      expect(ended.status).toBe('canceled');
      expect(ended['test-status']).toBeNull();
      expect(Object.keys(ended['status-timestamps'] as object)).toEqual(['queued-at', 'started-at', 'canceled-at']);
      expect((await at(1000)).status).toBe('canceled');
    });
  });

  it('needs the owners team and an existing private module', async () => {
    const client = await withModule(people);
    const { member } = client.emulator.tokens;
    expect((await client.call('GET', runs(), { token: member })).status).toBe(404);
    expect((await client.call('POST', `${runs()}/configuration-versions`, { token: PUBLISHER })).status).toBe(404);
    expect((await client.call('GET', runs('nothing'))).status).toBe(404);
    expect((await client.call('GET', runs(), { token: null })).status).toBe(401);
  });

  it('creates, lists, updates and deletes test variables by the key, category and sensitive rules', async () => {
    const client = await withModule();
    const vars = `${testsPath('network', 'aws')}/vars`;
    const create = (attributes: Record<string, unknown>) =>
      client.call('POST', vars, { body: doc('vars', attributes) });

    const plain = await create({ key: 'TF_VAR_region', value: 'eu-west-1', description: 'where', category: 'env' });
    expect(plain.status).toBe(201);
    expect(data(plain).id).toMatch(/^var-[0-9A-Za-z]{16}$/);
    expect(data(plain).attributes).toMatchObject({
      key: 'TF_VAR_region',
      value: 'eu-west-1',
      description: 'where',
      category: 'env',
      sensitive: false,
      hcl: false,
    });
    expect(data(plain).links).toEqual({ self: `/api/v2/vars/${data(plain).id}` });
    // value defaults to the empty string, category to env
    expect(data(await create({ key: '_EMPTY' })).attributes).toMatchObject({ value: '', category: 'env' });

    for (const key of ['1ABC', 'with-dash', 'with space', '']) {
      const refused = await create({ key });
      expect(refused.status, key).toBe(422);
      expect(pointers(refused)).toEqual(['/data/attributes/key']);
    }
    expect(details(await create({}))).toEqual(["Key can't be blank"]);
    expect(details(await create({ key: 'TF_VAR_region' }))).toEqual(['Key has already been taken']);
    const terraform = await create({ key: 'region', category: 'terraform' });
    expect(terraform.status).toBe(422);
    expect(pointers(terraform)).toEqual(['/data/attributes/category']);
    expect(details(terraform)).toEqual(['Category must be env']);

    const secret = await create({ key: 'TF_VAR_token', value: 's3cret', sensitive: true });
    expect(secret.status).toBe(201);
    expect(data(secret).attributes).toMatchObject({ sensitive: true, value: null });
    const listed = await client.call('GET', vars);
    expect(listed.status).toBe(200);
    expect(list(listed).map((v) => [v.attributes.key, v.attributes.value])).toEqual([
      ['TF_VAR_region', 'eu-west-1'],
      ['_EMPTY', ''],
      ['TF_VAR_token', null],
    ]);
    expect(JSON.stringify(listed.body)).not.toContain('s3cret');

    const patch = (id: string, attributes: Record<string, unknown>) =>
      client.call('PATCH', `${vars}/${id}`, { body: doc('vars', attributes) });
    const unhide = await patch(data(secret).id, { sensitive: false });
    expect(unhide.status).toBe(422);
    expect(pointers(unhide)).toEqual(['/data/attributes/sensitive']);
    const rotated = await patch(data(secret).id, { value: 'n3w' });
    expect(rotated.status).toBe(200);
    expect(data(rotated).attributes).toMatchObject({ sensitive: true, value: null });
    const renamed = await patch(data(plain).id, { key: 'TF_VAR_zone', description: 'changed' });
    expect(data(renamed).attributes).toMatchObject({ key: 'TF_VAR_zone', value: 'eu-west-1', description: 'changed' });
    expect((await patch(data(plain).id, { category: 'terraform' })).status).toBe(422);
    expect((await patch(data(plain).id, { key: '_EMPTY' })).status).toBe(422);
    expect((await patch('var-doesnotexist00000', { value: 'x' })).status).toBe(404);

    expect((await client.call('DELETE', `${vars}/${data(plain).id}`)).status).toBe(204);
    expect((await client.call('DELETE', `${vars}/${data(plain).id}`)).status).toBe(404);
    expect(list(await client.call('GET', vars)).map((v) => v.attributes.key)).toEqual(['_EMPTY', 'TF_VAR_token']);
  });
});
