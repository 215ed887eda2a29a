import { describe, expect, it } from 'vitest';
import { type Client, doc, start } from './helpers.ts';

const SHA = 'cd'.repeat(32);
const createVersion = (call: Client['call'], version: string) =>
  call('POST', '/api/v2/admin/tool-versions', {
    body: doc('tool-versions', { version, url: 'https://x.example/t.zip', sha: SHA }),
  });
const listVersions = async (call: Client['call']) =>
  ((await call('GET', '/api/v2/admin/tool-versions')).body.data as Array<{ attributes: { version: string } }>).map(
    (v) => v.attributes.version,
  );

describe('injected faults', () => {
  it.each([
    ['500', 'internal server error'],
    ['503', 'service unavailable'],
  ] as const)('%s: an error answer, and the request is not applied', async (kind, title) => {
    const client = await start();
    client.emulator.setFaults({ rate: 1, kinds: [kind] });
    const answer = await createVersion(client.call, '1.0.0');
    expect(answer.status).toBe(Number(kind));
    expect(answer.body.errors?.[0]).toMatchObject({ status: kind, title });
    client.emulator.setFaults(undefined);
    expect(await listVersions(client.call)).toEqual([]);
    expect(client.emulator.stats().faults).toBe(1);
  });

  it('429: a short server-requested wait (Retry-After 0, X-RateLimit-Reset 0.05)', async () => {
    const { call, emulator } = await start();
    emulator.setFaults({ rate: 1, kinds: ['429'] });
    const answer = await call('GET', '/api/v2/admin/users');
    expect(answer.status).toBe(429);
    expect(answer.headers.get('retry-after')).toBe('0');
    expect(answer.headers.get('x-ratelimit-reset')).toBe('0.05');
    expect(answer.body.errors?.[0]?.status).toBe('429');
    // injected 429s are faults, not the rate limit
    expect(emulator.stats()).toMatchObject({ faults: 1, rateLimited: 0 });
  });

  it('drop: the connection closes without an answer, and the request is not applied', async () => {
    const { call, emulator } = await start();
    emulator.setFaults({ rate: 1, kinds: ['drop'] });
    await expect(createVersion(call, '1.0.0')).rejects.toThrow();
    emulator.setFaults(undefined);
    expect(await listVersions(call)).toEqual([]);
  });

  it('timeout: holds the connection without answering, then closes it; not applied', async () => {
    const { call, emulator } = await start();
    emulator.setFaults({ rate: 1, kinds: ['timeout'], holdMs: 300 });
    const started = Date.now();
    await expect(createVersion(call, '1.0.0')).rejects.toThrow();
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    emulator.setFaults(undefined);
    expect(await listVersions(call)).toEqual([]);
  });

  it('timeout: a held connection does not keep close() waiting', async () => {
    const { call, emulator } = await start();
    emulator.setFaults({ rate: 1, kinds: ['timeout'] });
    const pending = createVersion(call, '1.0.0').catch((error: Error) => error);
    await new Promise((r) => setTimeout(r, 100));
    const started = Date.now();
    await emulator.close();
    expect(Date.now() - started).toBeLessThan(2000);
    expect(await pending).toBeInstanceOf(Error);
  });

  it('lost: the request IS applied, but the answer never arrives', async () => {
    const { call, emulator } = await start();
    emulator.setFaults({ rate: 1, kinds: ['lost'] });
    await expect(createVersion(call, '1.0.0')).rejects.toThrow();
    emulator.setFaults(undefined);
    expect(await listVersions(call)).toEqual(['1.0.0']);
    expect(emulator.stats().faults).toBe(1);
  });

  it('fails about `rate` of the requests, with kinds picked from the list, reproducibly with a seed', async () => {
    const statuses = async () => {
      const { call, emulator } = await start();
      emulator.setFaults({ rate: 0.5, kinds: ['500', '503'], seed: 42 });
      const out: number[] = [];
      for (let i = 0; i < 200; i++) out.push((await call('GET', '/api/v2/admin/general-settings')).status);
      return out;
    };
    const first = await statuses();
    expect(await statuses()).toEqual(first);
    const failed = first.filter((s) => s !== 200);
    expect(failed.length).toBeGreaterThan(60);
    expect(failed.length).toBeLessThan(140);
    expect(new Set(failed)).toEqual(new Set([500, 503]));
  });

  it('can be set at start, and through PUT /_emulator/faults (which validates)', async () => {
    const { call, emulator } = await start({ faults: { rate: 1, kinds: ['503'] } });
    expect((await call('GET', '/api/v2/admin/users')).status).toBe(503);
    const put = (body: unknown) =>
      fetch(`${emulator.url}/_emulator/faults`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect((await put({ rate: 0 })).status).toBe(204);
    expect((await call('GET', '/api/v2/admin/users')).status).toBe(200);
    expect((await put({ rate: 1, kinds: ['500'] })).status).toBe(204);
    expect((await call('GET', '/api/v2/admin/users')).status).toBe(500);
    const current = await (await fetch(`${emulator.url}/_emulator/faults`)).json();
    expect(current).toEqual({ rate: 1, kinds: ['500'], latencyMs: 0 });
    for (const bad of [{ rate: 2, kinds: ['500'] }, { rate: 0.5, kinds: ['teapot'] }, { rate: 0.5 }, 'x']) {
      const response = await put(bad);
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: string }).error).toBeTruthy();
    }
    // control endpoints are never faulted
    expect((await fetch(`${emulator.url}/_emulator/health`)).status).toBe(200);
  });
});

describe('latency', () => {
  it('delays API answers but not control endpoints; settable at start, by API and over HTTP', async () => {
    const { call, emulator } = await start({ latencyMs: 150 });
    const time = async (run: () => Promise<unknown>) => {
      const started = performance.now();
      await run();
      return performance.now() - started;
    };
    expect(await time(() => call('GET', '/api/v2/admin/users'))).toBeGreaterThanOrEqual(145);
    expect(await time(() => fetch(`${emulator.url}/_emulator/stats`))).toBeLessThan(100);
    emulator.setLatency(0);
    expect(await time(() => call('GET', '/api/v2/admin/users'))).toBeLessThan(100);
    await fetch(`${emulator.url}/_emulator/faults`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ rate: 0, latencyMs: 120 }),
    });
    expect(await time(() => call('GET', '/api/v2/admin/users'))).toBeGreaterThanOrEqual(115);
  });
});

describe('stats', () => {
  it('counts API requests by route pattern and status, not control requests, and resets', async () => {
    const { call, emulator } = await start();
    await fetch(`${emulator.url}/_emulator/health`);
    const { id } = (await createVersion(call, '1.0.0')).body.data as { id: string };
    await call('GET', `/api/v2/admin/tool-versions/${id}`);
    await call('GET', '/api/v2/admin/tool-versions/tool-missing');
    await call('GET', '/api/v2/admin/users', { token: null });
    const stats = await (await fetch(`${emulator.url}/_emulator/stats`)).json();
    expect(stats).toEqual({
      total: 4,
      byRoute: {
        'POST /api/v2/admin/tool-versions': 1,
        'GET /api/v2/admin/tool-versions/:id': 2,
        'GET /api/v2/admin/users': 1,
      },
      byStatus: { '201': 1, '200': 1, '404': 1, '401': 1 },
      faults: 0,
      rateLimited: 0,
    });
    expect(emulator.stats()).toEqual(stats);
    expect((await fetch(`${emulator.url}/_emulator/stats`, { method: 'DELETE' })).status).toBe(204);
    expect(emulator.stats()).toEqual({ total: 0, byRoute: {}, byStatus: {}, faults: 0, rateLimited: 0 });
    await call('GET', '/api/v2/admin/users');
    emulator.resetStats();
    expect(emulator.stats().total).toBe(0);
  });

  it('answers health checks', async () => {
    const { emulator } = await start();
    const response = await fetch(`${emulator.url}/_emulator/health`);
    expect(await response.json()).toEqual({ status: 'ok' });
  });
});
