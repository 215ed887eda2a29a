import { describe, expect, it } from 'vitest';
import { attributesOf, getResource, listResources, resourceBody } from '../../../src/api/jsonapi.ts';
import { ConvergeError } from '../../../src/errors.ts';
import { FakeClient, pagedCollection, resource } from './fake-client.ts';

const versions = (n: number) =>
  Array.from({ length: n }, (_, i) => resource('tool-versions', `tool-${i}`, { version: `1.0.${i}` }));

describe('listResources', () => {
  it('reads 250 objects in exactly 3 requests of 100', async () => {
    const client = new FakeClient().on(
      'GET',
      '/api/v2/admin/tool-versions',
      pagedCollection(() => versions(250)),
    );
    const all = await listResources(client, '/api/v2/admin/tool-versions');
    expect(all.map((r) => r.id)).toEqual(versions(250).map((r) => r.id));
    expect(client.lines).toEqual([
      'GET /api/v2/admin/tool-versions?page[number]=1&page[size]=100',
      'GET /api/v2/admin/tool-versions?page[number]=2&page[size]=100',
      'GET /api/v2/admin/tool-versions?page[number]=3&page[size]=100',
    ]);
  });

  it('asks for every page after the first at once, and keeps the order of the pages', async () => {
    let inFlight = 0;
    let most = 0;
    const paged = pagedCollection(() => versions(450));
    const client = new FakeClient().on('GET', '/c', paged);
    const request = client.request.bind(client);
    // answers arrive in reverse order: the result must still be in page order
    client.request = async (options) => {
      const page = Number(options.query?.['page[number]']);
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 50 - page * 5));
      try {
        return await request(options);
      } finally {
        inFlight--;
      }
    };
    const all = await listResources(client, '/c');
    expect(all.map((r) => r.id)).toEqual(versions(450).map((r) => r.id));
    expect(client.requests).toHaveLength(5);
    // pages 2 to 5 were all in flight together
    expect(most).toBe(4);
  });

  it('follows pages that appear while the collection is read', async () => {
    let size = 150;
    const paged = pagedCollection(() => versions(size));
    const client = new FakeClient().on('GET', '/c', (request, params) => {
      const reply = paged(request, params);
      size = 250; // someone creates 100 more after the first page
      return reply;
    });
    const all = await listResources(client, '/c');
    expect(all).toHaveLength(250);
    expect(client.requests).toHaveLength(3);
  });

  it('reads an empty collection, and one of exactly 100, in one request', async () => {
    for (const n of [0, 100]) {
      const client = new FakeClient().on(
        'GET',
        '/c',
        pagedCollection(() => versions(n)),
      );
      expect(await listResources(client, '/c')).toHaveLength(n);
      expect(client.requests).toHaveLength(1);
    }
  });

  it('keeps the caller query next to the page parameters', async () => {
    const client = new FakeClient().on(
      'GET',
      '/c',
      pagedCollection(() => versions(1)),
    );
    await listResources(client, '/c', { 'filter[admin]': true });
    expect(client.requests[0]?.query).toEqual({ 'filter[admin]': true, 'page[number]': 1, 'page[size]': 100 });
  });

  it('stops when the server sends no pagination, or a next page that does not move forward', async () => {
    const bare = new FakeClient().on('GET', '/c', () => ({ body: { data: versions(3) } }));
    expect(await listResources(bare, '/c')).toHaveLength(3);
    expect(bare.requests).toHaveLength(1);

    const stuck = new FakeClient().on('GET', '/c', () => ({
      body: { data: versions(1), meta: { pagination: { 'next-page': 1 } } },
    }));
    expect(await listResources(stuck, '/c')).toHaveLength(1);
    expect(stuck.requests).toHaveLength(1);
  });

  it('rejects a body that is not a JSON:API list with an actionable error', async () => {
    const client = new FakeClient().on('GET', '/c', () => ({ body: '<html>proxy</html>' }));
    const error = await listResources(client, '/c').catch((e: unknown) => e);
    expect(ConvergeError.is(error) && error.code).toBe('API_ERROR');
    expect((error as Error).message).toContain('GET /c: unexpected response');
  });
});

describe('getResource', () => {
  it('returns the data resource of a document', async () => {
    const client = new FakeClient().on('GET', '/s', () => ({
      body: { data: { id: 'general', type: 'general-settings', attributes: { 'api-rate-limit': 30 } } },
    }));
    expect(await getResource(client, '/s')).toEqual({
      id: 'general',
      type: 'general-settings',
      attributes: { 'api-rate-limit': 30 },
    });
  });

  it('refuses a resource without an id', async () => {
    const client = new FakeClient().on('GET', '/s', () => ({ body: { data: { type: 'x', attributes: {} } } }));
    await expect(getResource(client, '/s')).rejects.toThrow(/no id or type/);
  });
});

describe('resourceBody and attributesOf', () => {
  it('builds a request document, with the id only when given', () => {
    expect(resourceBody('smtp-settings', { enabled: true })).toEqual({
      data: { type: 'smtp-settings', attributes: { enabled: true } },
    });
    expect(resourceBody('tool-versions', { beta: false }, 'tool-1')).toEqual({
      data: { type: 'tool-versions', id: 'tool-1', attributes: { beta: false } },
    });
  });

  it('copies attributes so the resource read is never changed', () => {
    const r = resource('users', 'user-1', { username: 'ann' });
    const copy = attributesOf(r);
    copy.username = 'bob';
    expect(r.attributes.username).toBe('ann');
  });
});
