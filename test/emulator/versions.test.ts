import { describe, expect, it } from 'vitest';
import { attributesOf, type Client, details, doc, pointers, start } from './helpers.ts';

const SHA = 'ab'.repeat(32);

describe.each(['tool-versions', 'policy-versions'])('%s', (type) => {
  const path = `/api/v2/admin/${type}`;
  const create = (call: Client['call'], attributes: Record<string, unknown>) =>
    call('POST', path, { body: doc(type, attributes) });
  const valid = (version: string) => ({ version, url: `https://releases.example.com/${version}.zip`, sha: SHA });

  it('creates with defaults (201), shows, and lists in creation order', async () => {
    const { call } = await start();
    const created = await create(call, valid('1.2.3'));
    expect(created.status).toBe(201);
    const data = created.body.data as { id: string; type: string; links: { self: string } };
    expect(data.id).toMatch(/^tool-[0-9A-Za-z]{16}$/);
    expect(data.type).toBe(type);
    expect(data.links.self).toBe(`${path}/${data.id}`);
    const attributes = attributesOf(created);
    expect(attributes).toEqual({
      ...valid('1.2.3'),
      deprecated: false,
      'deprecated-reason': null,
      official: false,
      enabled: true,
      beta: false,
      usage: 0,
      'created-at': expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    expect(Object.keys(attributes).slice(0, 3)).toEqual(['version', 'url', 'sha']);
    const shown = await call('GET', `${path}/${data.id}`);
    expect(shown.status).toBe(200);
    expect(shown.body.data).toEqual(created.body.data);
    await create(call, valid('1.10.0'));
    await create(call, { ...valid('0.9.0-fips'), beta: true });
    const list = await call('GET', path);
    const versions = (list.body.data as Array<{ attributes: { version: string } }>).map((v) => v.attributes.version);
    expect(versions).toEqual(['1.2.3', '1.10.0', '0.9.0-fips']);
    expect(list.body.meta).toEqual({
      pagination: {
        'current-page': 1,
        'page-size': 20,
        'prev-page': null,
        'next-page': null,
        'total-pages': 1,
        'total-count': 3,
      },
    });
  });

  it('validates: required fields, semver, URL, checksum, types, unknown and read-only attributes', async () => {
    const { call } = await start();
    const missing = await create(call, {});
    expect(details(missing)).toEqual(["Version can't be blank", "Url can't be blank", "Sha can't be blank"]);
    const bad = await create(call, {
      version: 'v1.2',
      url: 'ftp://example.com/x.zip',
      sha: 'abc',
      beta: 'yes',
      usage: 3,
      colour: 'red',
    });
    expect(pointers(bad)).toEqual(
      ['version', 'url', 'sha', 'beta', 'usage', 'colour'].map((a) => `/data/attributes/${a}`),
    );
    expect(details(bad).slice(4)).toEqual(['Usage is read-only', 'Colour is not a known attribute']);
    expect((await create(call, { ...valid('1.0.0'), url: 'http://mirror.internal/1.0.0.zip' })).status).toBe(201);
    expect((await call('POST', path, { body: '{"data":' })).status).toBe(422);
    expect(details(await call('POST', path, { body: doc('something-else', valid('2.0.0')) }))).toEqual([
      `data.type must be ${type}`,
    ]);
  });

  it('refuses a duplicate version, on create and on update', async () => {
    const { call } = await start();
    await create(call, valid('1.0.0'));
    const duplicate = await create(call, valid('1.0.0'));
    expect(duplicate.status).toBe(422);
    expect(duplicate.body.errors).toEqual([
      {
        status: '422',
        title: 'invalid attribute',
        detail: 'Version has already been taken',
        source: { pointer: '/data/attributes/version' },
      },
    ]);
    const other = (await create(call, valid('1.1.0'))).body.data as { id: string };
    expect(details(await call('PATCH', `${path}/${other.id}`, { body: doc(type, { version: '1.0.0' }) }))).toEqual([
      'Version has already been taken',
    ]);
  });

  it('keeps deprecated-reason null unless deprecated', async () => {
    const { call } = await start();
    const refused = await create(call, { ...valid('1.0.0'), 'deprecated-reason': 'old' });
    expect(details(refused)).toEqual(['Deprecated reason must be blank unless deprecated is true']);
    const created = await create(call, { ...valid('1.0.0'), deprecated: true, 'deprecated-reason': 'old' });
    const { id } = created.body.data as { id: string };
    expect(attributesOf(created)['deprecated-reason']).toBe('old');
    // un-deprecating without naming the reason clears it
    const undeprecated = await call('PATCH', `${path}/${id}`, { body: doc(type, { deprecated: false }) });
    expect(attributesOf(undeprecated)).toMatchObject({ deprecated: false, 'deprecated-reason': null });
  });

  it('updates only the given attributes, and can change the version itself', async () => {
    const { call } = await start();
    const { id } = (await create(call, valid('1.0.0'))).body.data as { id: string };
    const answer = await call('PATCH', `${path}/${id}`, { body: doc(type, { enabled: false, version: '1.0.1' }) });
    expect(answer.status).toBe(200);
    expect(attributesOf(answer)).toMatchObject({ ...valid('1.0.0'), version: '1.0.1', enabled: false });
    const byVersion = await call('GET', `${path}?filter%5Bversion%5D=1.0.1`);
    expect((byVersion.body.data as unknown[]).length).toBe(1);
    expect((await call('GET', `${path}?filter%5Bversion%5D=1.0.0`)).body.data).toEqual([]);
    expect(pointers(await call('PATCH', `${path}/${id}`, { body: doc(type, { sha: 'nothex' }) }))).toEqual([
      '/data/attributes/sha',
    ]);
    expect((await call('PATCH', `${path}/tool-nope`, { body: doc(type, {}) })).status).toBe(404);
    expect((await call('GET', `${path}/tool-nope`)).status).toBe(404);
  });

  it('filters by exact version (over search) and searches by substring, with pagination', async () => {
    const { call } = await start();
    for (const v of ['1.0.0', '1.1.0', '1.10.0', '2.0.0', '1.1.1']) await create(call, valid(v));
    const search = await call('GET', `${path}?search%5Bversion%5D=1.1&page%5Bsize%5D=2`);
    const versions = (answer: typeof search) =>
      (answer.body.data as Array<{ attributes: { version: string } }>).map((v) => v.attributes.version);
    expect(versions(search)).toEqual(['1.1.0', '1.10.0']);
    expect(search.body.meta).toMatchObject({ pagination: { 'total-count': 3, 'total-pages': 2, 'next-page': 2 } });
    expect((search.body.links as Record<string, string>).next).toContain('search%5Bversion%5D=1.1');
    expect(versions(await call('GET', `${path}?search[version]=1.1&filter[version]=2.0.0`))).toEqual(['2.0.0']);
    expect((await call('GET', `${path}?page%5Bsize%5D=101`)).status).toBe(422);
  });

  it('deletes (204), but not official versions nor versions in use (422)', async () => {
    const seedKey = type === 'tool-versions' ? 'toolVersions' : 'policyVersions';
    const { call } = await start({
      seed: {
        [seedKey]: [
          { ...valid('0.1.0'), official: true },
          { ...valid('0.2.0'), usage: 3 },
        ],
      },
    });
    const listed = (await call('GET', path)).body.data as Array<{ id: string; attributes: Record<string, unknown> }>;
    expect(listed.map((v) => [v.attributes.version, v.attributes.usage])).toEqual([
      ['0.1.0', 0],
      ['0.2.0', 3],
    ]);
    const official = await call('DELETE', `${path}/${listed[0]!.id}`);
    expect(official.status).toBe(422);
    expect(details(official)).toEqual(['official versions cannot be deleted']);
    const inUse = await call('DELETE', `${path}/${listed[1]!.id}`);
    expect(inUse.status).toBe(422);
    expect(details(inUse)[0]).toMatch(/in use by 3 workspaces/);
    const { id } = (await create(call, valid('1.0.0'))).body.data as { id: string };
    expect((await call('DELETE', `${path}/${id}`)).status).toBe(204);
    expect((await call('GET', `${path}/${id}`)).status).toBe(404);
    expect((await call('DELETE', `${path}/${id}`)).status).toBe(404);
    // a deleted version's string can be used again
    expect((await create(call, valid('1.0.0'))).status).toBe(201);
  });
});

it('keeps tool versions and policy versions apart', async () => {
  const { call } = await start();
  await call('POST', '/api/v2/admin/tool-versions', {
    body: doc('tool-versions', { version: '1.0.0', url: 'https://x.example/a.zip', sha: SHA }),
  });
  expect((await call('GET', '/api/v2/admin/policy-versions')).body.data).toEqual([]);
  const policy = await call('POST', '/api/v2/admin/policy-versions', {
    body: doc('policy-versions', { version: '1.0.0', url: 'https://x.example/a.zip', sha: SHA }),
  });
  expect(policy.status).toBe(201);
});
