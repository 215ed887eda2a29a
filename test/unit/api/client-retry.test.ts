/**
 * Retries, timeouts and dropped connections against a real loopback server.
 * Waits are kept short through the options; nothing asserts on elapsed time.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpClient, type HttpClientOptions, type RetryInfo } from '../../../src/api/client.ts';
import { ApiError, NetworkError } from '../../../src/api/errors.ts';
import type { HttpClient } from '../../../src/api/types.ts';
import { closedPortUrl, drop, type Handler, json, type ScriptedServer, scriptedServer } from './scripted-server.ts';

const TOKEN = 'tok-retry-test-3f9a';
let server: ScriptedServer | undefined;
let client: HttpClient | undefined;
let retries: RetryInfo[] = [];

afterEach(async () => {
  await client?.close();
  await server?.close();
  client = undefined;
  server = undefined;
  retries = [];
});

async function setup(handler: Handler, options: Partial<HttpClientOptions> = {}) {
  server = await scriptedServer(handler);
  client = createHttpClient({
    baseUrl: server.url,
    auth: { api: 'platform', token: TOKEN },
    retryBaseMs: 5,
    retryMaxMs: 50,
    onRetry: (info) => retries.push(info),
    ...options,
  });
  return { server, client };
}

function ok(res: Parameters<Handler>[1]) {
  json(res, 200, { ok: true });
}

describe('429 rate limiting', () => {
  it('waits for Retry-After, then succeeds; the wait is a retry but not a failure', async () => {
    // GIVEN a server that rate-limits the first request
    const { server, client } = await setup(
      (_hit, res, _req, i) => (i === 0 ? json(res, 429, { errors: [] }, { 'retry-after': '0' }) : ok(res)),
      { maxRetries: 0 },
    );
    // WHEN a POST (not idempotent) is sent, with no failure retries allowed
    const response = await client.request({ method: 'POST', path: '/api/v2/things', body: { a: 1 } });
    // THEN it is repeated after the server's wait and succeeds
    expect(response.status).toBe(200);
    expect(server.hits).toHaveLength(2);
    expect(client.stats).toEqual({ requests: 2, retries: 1, rateLimited: 1 });
    expect(retries).toEqual([
      { method: 'POST', path: '/api/v2/things', attempt: 1, delayMs: 0, reason: 'rate limited (429)' },
    ]);
  });

  it('honours Retry-After in seconds', async () => {
    await setup((_hit, res, _req, i) => (i === 0 ? json(res, 429, {}, { 'retry-after': '1' }) : ok(res)));
    await client!.request({ method: 'GET', path: '/v1/x' });
    expect(retries[0]?.delayMs).toBe(1000);
  });

  it('honours X-RateLimit-Reset when the server gives no Retry-After', async () => {
    await setup((_hit, res, _req, i) => (i === 0 ? json(res, 429, {}, { 'x-ratelimit-reset': '0.02' }) : ok(res)));
    await client!.request({ method: 'GET', path: '/v1/x' });
    expect(retries[0]?.delayMs).toBe(20);
  });
});

describe('server errors', () => {
  it('retries 503 until the server recovers', async () => {
    const { server, client } = await setup((_hit, res, _req, i) => (i < 3 ? json(res, 503, {}) : ok(res)));
    const response = await client.request({ method: 'GET', path: '/api/v2/admin/general-settings' });
    expect(response.body).toEqual({ ok: true });
    expect(server.hits).toHaveLength(4);
    expect(retries.map((r) => r.reason)).toEqual(Array(3).fill('service unavailable (503)'));
    expect(retries.map((r) => r.attempt)).toEqual([1, 2, 3]);
  });

  it('retries 503 on a POST: the server did not process it', async () => {
    const { server } = await setup((_hit, res, _req, i) => (i === 0 ? json(res, 503, {}) : ok(res)));
    await client!.request({ method: 'POST', path: '/api/v2/things', body: {} });
    expect(server.hits).toHaveLength(2);
  });

  it('does not repeat a PATCH answered by 500: the outcome is unknown', async () => {
    const { server, client } = await setup((_hit, res) =>
      json(res, 500, { errors: [{ status: '500', title: 'internal error' }] }),
    );
    const error = await client
      .request({ method: 'PATCH', path: '/api/v2/admin/general-settings', body: {} })
      .catch((e) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 500, outcome: 'unknown', code: 'API_ERROR', method: 'PATCH' });
    expect(error.message).toBe('PATCH /api/v2/admin/general-settings: 500 internal error');
    expect(server.hits).toHaveLength(1);
  });

  it('retries a GET answered by 500, then gives up with outcome failed', async () => {
    const { server, client } = await setup((_hit, res) => json(res, 500, { errors: ['boom'] }), { maxRetries: 2 });
    const error = await client.request({ method: 'GET', path: '/v1/ssh/roles/web' }).catch((e) => e);
    expect(error).toMatchObject({ status: 500, outcome: 'failed', messages: ['boom'] });
    expect(error.message).toBe('GET /v1/ssh/roles/web: 500 boom (gave up after 3 attempts)');
    expect(server.hits).toHaveLength(3);
  });

  it('never retries 501', async () => {
    const { server, client } = await setup((_hit, res) => json(res, 501, {}));
    await expect(client.request({ method: 'GET', path: '/x' })).rejects.toMatchObject({ status: 501 });
    expect(server.hits).toHaveLength(1);
  });

  it('retries 412 for the secrets API (a replica catching up), not for the platform API', async () => {
    const vault = await setup((_hit, res, _req, i) => (i === 0 ? json(res, 412, {}) : ok(res)), {
      auth: { api: 'secrets', token: TOKEN },
    });
    await vault.client.request({ method: 'GET', path: '/v1/ldap/config' });
    expect(vault.server.hits).toHaveLength(2);
    await client?.close();
    await server?.close();

    const platform = await setup((_hit, res) => json(res, 412, {}));
    await expect(platform.client.request({ method: 'GET', path: '/api/v2/x' })).rejects.toMatchObject({ status: 412 });
    expect(platform.server.hits).toHaveLength(1);
  });

  it('returns accepted statuses instead of throwing', async () => {
    await setup((_hit, res) => json(res, 404, { errors: [] }));
    const response = await client!.request({ method: 'GET', path: '/v1/ssh/roles/none', accept: [404] });
    expect(response).toMatchObject({ status: 404, body: { errors: [] } });
  });

  it('formats JSON:API validation errors and hints at rights on 404', async () => {
    await setup((hit, res) =>
      hit.method === 'PATCH'
        ? json(res, 422, {
            errors: [
              {
                status: '422',
                title: 'invalid attribute',
                detail: 'Api rate limit must be greater than or equal to 30',
                source: { pointer: '/data/attributes/api-rate-limit' },
              },
            ],
          })
        : json(res, 404, { errors: [{ status: '404', title: 'not found' }] }),
    );
    const invalid = await client!
      .request({ method: 'PATCH', path: '/api/v2/admin/general-settings', body: {} })
      .catch((e) => e);
    expect(invalid.message).toBe(
      'PATCH /api/v2/admin/general-settings: 422 invalid attribute: Api rate limit must be greater than or equal to 30',
    );
    expect(invalid.outcome).toBe('failed');
    const missing = await client!.request({ method: 'GET', path: '/api/v2/admin/users/x' }).catch((e) => e);
    expect(missing.message).toBe('GET /api/v2/admin/users/x: 404 not found');
    expect(missing.hint).toMatch(/rights/);
  });
});

describe('dropped connections and timeouts', () => {
  it('does not repeat a POST whose connection dropped after it was sent', async () => {
    const { server, client } = await setup((_hit, _res, req) => drop(req));
    const error = await client.request({ method: 'POST', path: '/api/v2/things', body: { a: 1 } }).catch((e) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ outcome: 'unknown', code: 'NETWORK_ERROR', method: 'POST' });
    expect(server.hits).toHaveLength(1);
  });

  it('says unknown when a retried DELETE fails after an earlier attempt lost its answer: it may have been applied', async () => {
    // the first DELETE's connection drops after it was sent (maybe applied), then the server errors until the client gives up
    const { server, client } = await setup((_hit, res, req, i) => (i === 0 ? drop(req) : json(res, 500, {})), {
      maxRetries: 2,
    });
    const error = await client.request({ method: 'DELETE', path: '/v1/ldap/static-role/app1' }).catch((e) => e);
    expect(error).toMatchObject({ status: 500, outcome: 'unknown', code: 'API_ERROR', method: 'DELETE' });
    expect(error.message).toContain("an earlier attempt's answer was lost: it may have been applied");
    expect(server.hits).toHaveLength(3);
  });

  it('keeps a GET failed after a dropped attempt as failed: a read applies nothing', async () => {
    const { client } = await setup((_hit, res, req, i) => (i === 0 ? drop(req) : json(res, 500, {})), {
      maxRetries: 2,
    });
    const error = await client.request({ method: 'GET', path: '/v1/ldap/static-role/app1' }).catch((e) => e);
    expect(error).toMatchObject({ status: 500, outcome: 'failed' });
    expect(error.message).not.toContain('earlier attempt');
  });

  it('repeats a GET whose connection dropped', async () => {
    const { server, client } = await setup((_hit, res, req, i) => (i === 0 ? drop(req) : ok(res)));
    const response = await client.request({ method: 'GET', path: '/v1/ssh/roles/web' });
    expect(response.status).toBe(200);
    expect(server.hits).toHaveLength(2);
    expect(retries).toHaveLength(1);
  });

  it('repeats a POST that the server never accepted (connection refused), then says not-sent', async () => {
    const url = await closedPortUrl();
    client = createHttpClient({
      baseUrl: url,
      auth: { api: 'platform', token: TOKEN },
      maxRetries: 2,
      retryBaseMs: 1,
      onRetry: (info) => retries.push(info),
    });
    const error = await client.request({ method: 'POST', path: '/api/v2/things', body: {} }).catch((e) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.outcome).toBe('not-sent');
    expect(error.errno).toBe('ECONNREFUSED');
    expect(error.message).toBe(`POST /api/v2/things: connection refused to ${url} (gave up after 3 attempts)`);
    expect(retries).toHaveLength(2);
  });

  it('repeats a GET that timed out, but not a POST', async () => {
    const stall: Handler = (hit, res, _req, i) => {
      if (hit.method === 'POST' || i === 0) return; // never answer
      ok(res);
    };
    const { server, client } = await setup(stall, { requestTimeoutMs: 200 });
    await expect(client.request({ method: 'GET', path: '/v1/x' })).resolves.toMatchObject({ status: 200 });
    expect(server.hits).toHaveLength(2);

    const error = await client.request({ method: 'POST', path: '/v1/ssh/verify', body: { otp: 'x' } }).catch((e) => e);
    expect(error).toMatchObject({ outcome: 'unknown', errno: 'TIMEOUT' });
    expect(server.hits.filter((h) => h.method === 'POST')).toHaveLength(1);
  });
});

describe('aborting', () => {
  it('stops at once during a backoff wait, with the signal reason', async () => {
    const controller = new AbortController();
    const reason = new Error('interrupted by the user');
    // the server asks for a 30 s wait; the abort must not sit through it
    await setup((_hit, res) => json(res, 503, {}, { 'retry-after': '30' }), {
      onRetry: () => controller.abort(reason),
    });
    await expect(client!.request({ method: 'GET', path: '/x', signal: controller.signal })).rejects.toBe(reason);
    expect(server!.hits).toHaveLength(1);
  });

  it('stops at once during an exponential backoff sleep', async () => {
    const controller = new AbortController();
    await setup((_hit, res) => json(res, 500, {}), {
      retryBaseMs: 60_000,
      retryMaxMs: 60_000,
      onRetry: () => setImmediate(() => controller.abort(new Error('stop'))),
    });
    await expect(client!.request({ method: 'GET', path: '/x', signal: controller.signal })).rejects.toThrow('stop');
  });

  it('stops every request in flight under the signal, waiting for answers, with its reason', async () => {
    const controller = new AbortController();
    const reason = new Error('interrupted by the user');
    // the server never answers /stall: only the abort can end those requests
    const { server, client } = await setup((hit, res) => {
      if (!hit.url.startsWith('/stall')) ok(res);
    });
    const stalled = [1, 2, 3].map((i) =>
      client.request({ method: 'GET', path: `/stall/${i}`, signal: controller.signal }).catch((e) => e),
    );
    while (server.hits.length < 3) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort(reason);
    expect(await Promise.all(stalled)).toEqual([reason, reason, reason]);
    // a request under another signal is not touched
    await expect(
      client.request({ method: 'GET', path: '/x', signal: new AbortController().signal }),
    ).resolves.toMatchObject({ status: 200 });
  });

  it('sends nothing when already aborted', async () => {
    const { server, client } = await setup((_hit, res) => ok(res));
    await expect(client.request({ method: 'GET', path: '/x', signal: AbortSignal.abort() })).rejects.toThrow();
    expect(server.hits).toHaveLength(0);
  });
});

describe('secrets stay out of errors', () => {
  it('no thrown error carries the token, even when the server echoes it', async () => {
    await setup((hit, res) => {
      if (hit.url.startsWith('/echo')) return json(res, 401, { errors: [`bad token ${TOKEN}`] });
      if (hit.url.startsWith('/text')) {
        res.writeHead(400, { 'content-type': 'text/plain' });
        return res.end(`header was ${hit.headers.authorization}`);
      }
      return json(res, 403, { errors: [{ status: '403', title: 'forbidden' }] });
    });
    const errors = [
      await client!.request({ method: 'GET', path: '/echo' }).catch((e) => e),
      await client!.request({ method: 'GET', path: '/text' }).catch((e) => e),
      await client!.request({ method: 'POST', path: '/forbidden', body: { password: TOKEN } }).catch((e) => e),
    ];
    for (const error of errors) {
      expect(error).toBeInstanceOf(ApiError);
      const everything = [error.message, error.hint, error.stack, JSON.stringify(error), ...error.messages].join('\n');
      expect(everything).not.toContain(TOKEN);
    }
    expect(errors[0].message).toBe('GET /echo: 401 bad token ***');
    expect(errors[0].hint).toMatch(/token/);
  });
});
