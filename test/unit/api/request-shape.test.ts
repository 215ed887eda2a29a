/**
 * What goes on the wire. nock 15 intercepts undici's pool (through its
 * socket-level interceptor), so these tests see the raw request line,
 * headers and body exactly as a server would.
 */
import nock from 'nock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createHttpClient } from '../../../src/api/client.ts';
import type { HttpClient } from '../../../src/api/types.ts';
import { ConvergeError } from '../../../src/errors.ts';

const ORIGIN = 'http://platform.test:8080';
const TOKEN = 'tok-shape-test-77c1';

interface Seen {
  method: string;
  uri: string;
  headers: Headers;
  body: Buffer;
}

let clients: HttpClient[] = [];

beforeAll(() => nock.disableNetConnect());
afterEach(async () => {
  await Promise.all(clients.map((c) => c.close()));
  clients = [];
  nock.cleanAll();
});
afterAll(() => {
  nock.enableNetConnect();
  nock.restore();
});

function client(api: 'platform' | 'secrets' = 'platform', baseUrl = ORIGIN): HttpClient {
  const c = createHttpClient({ baseUrl, auth: { api, token: TOKEN } });
  clients.push(c);
  return c;
}

/** Answers one request of `method`, and records how it looked (nock 15 hands over a fetch Request). */
function capture(
  method: string,
  status: number,
  body?: string,
  headers: Record<string, string> = {},
  origin = ORIGIN,
): Seen[] {
  const seen: Seen[] = [];
  nock(origin)
    .intercept(/.*/, method)
    .reply(async (request: Request) => {
      const url = new URL(request.url);
      const bytes = Buffer.from(await request.arrayBuffer());
      seen.push({ method: request.method, uri: url.pathname + url.search, headers: request.headers, body: bytes });
      return [status, body ?? '', headers];
    });
  return seen;
}

const json = (seen: Seen | undefined): unknown => JSON.parse(seen?.body.toString() ?? '');

describe('request shape', () => {
  it('encodes JSON:API queries with brackets and authenticates with a bearer token', async () => {
    const seen = capture('GET', 200, JSON.stringify({ data: [] }), { 'content-type': 'application/vnd.api+json' });
    const response = await client().request({
      method: 'GET',
      path: '/api/v2/organizations/acme/registry-modules',
      query: { 'page[size]': 100, 'page[number]': 2, 'filter[provider]': undefined, q: 'a b&c' },
    });
    expect(response.body).toEqual({ data: [] });
    expect(seen[0]?.method).toBe('GET');
    expect(seen[0]?.uri).toBe(
      '/api/v2/organizations/acme/registry-modules?page%5Bsize%5D=100&page%5Bnumber%5D=2&q=a%20b%26c',
    );
    expect(seen[0]?.headers.get('authorization')).toBe(`Bearer ${TOKEN}`);
    expect(seen[0]?.headers.get('accept')).toBe('application/vnd.api+json');
    expect(seen[0]?.headers.get('x-service-token')).toBeNull();
  });

  it('sends JSON:API bodies as application/vnd.api+json under /api/v2', async () => {
    const seen = capture('PATCH', 200, '{}', { 'content-type': 'application/vnd.api+json' });
    const body = { data: { type: 'general-settings', attributes: { 'api-rate-limit': 40 } } };
    await client().request({ method: 'PATCH', path: '/api/v2/admin/general-settings', body });
    expect(seen[0]?.method).toBe('PATCH');
    expect(seen[0]?.headers.get('content-type')).toBe('application/vnd.api+json');
    expect(json(seen[0])).toEqual(body);
  });

  it('authenticates to the secrets API with X-Service-Token and plain JSON; 204 gives no body', async () => {
    const seen = capture('POST', 204);
    const response = await client('secrets').request({
      method: 'POST',
      path: '/v1/ssh/roles/web-otp',
      body: { key_type: 'otp', default_user: 'ubuntu' },
    });
    expect(response).toMatchObject({ status: 204, body: undefined });
    expect(seen[0]?.headers.get('x-service-token')).toBe(TOKEN);
    expect(seen[0]?.headers.get('authorization')).toBeNull();
    expect(seen[0]?.headers.get('content-type')).toBe('application/json');
    expect(json(seen[0])).toEqual({ key_type: 'otp', default_user: 'ubuntu' });
  });

  it('sends the token in the header a connection names instead, and nowhere else', async () => {
    const seen = capture('GET', 200, '{}', { 'content-type': 'application/json' });
    const c = createHttpClient({ baseUrl: ORIGIN, auth: { api: 'secrets', token: TOKEN, header: 'X-Vault-Token' } });
    clients.push(c);
    await c.request({ method: 'GET', path: '/v1/sys/health' });
    expect(seen[0]?.headers.get('x-vault-token')).toBe(TOKEN);
    expect(seen[0]?.headers.get('x-service-token')).toBeNull();
    expect(seen[0]?.headers.get('authorization')).toBeNull();
  });

  it('refuses a token or a header name HTTP cannot carry, in one line without the token', () => {
    // a line break, any other control character, DEL, and a character beyond Latin-1: undici refuses each
    const tokens = ['abc\ndef', 'Bad\x01Tok-q8', 'Bad\x7fTok-q8', 'Bad\u20acTok-q8'];
    for (const auth of [
      ...tokens.map((token) => ({ api: 'platform' as const, token })),
      { api: 'secrets' as const, token: 'abc', header: 'X Token' },
    ]) {
      let refusal: unknown;
      try {
        createHttpClient({ baseUrl: ORIGIN, auth });
      } catch (error) {
        refusal = error;
      }
      expect(refusal).toBeInstanceOf(ConvergeError);
      expect((refusal as ConvergeError).code).toBe('CONFIG_INVALID');
      expect((refusal as ConvergeError).message).toMatch(/^cannot authenticate to the (platform|secrets) API: /);
      expect((refusal as ConvergeError).message).not.toContain('Tok-q8');
    }
  });

  it('takes a token HTTP can carry: a tab inside, and Latin-1 letters', async () => {
    for (const token of ['tab\tinside', 'caf\u00e9-token']) {
      const seen = capture('GET', 204, '');
      clients.push(createHttpClient({ baseUrl: ORIGIN, auth: { api: 'secrets', token } }));
      await clients.at(-1)!.request({ method: 'GET', path: '/v1/sys/health' });
      expect(seen[0]?.headers.get('x-service-token')).toBe(token);
    }
  });

  it('sends LIST as GET ?list=true, which the secrets API treats as the same request', async () => {
    const seen = capture('GET', 200, JSON.stringify({ data: { keys: ['web'] } }), {
      'content-type': 'application/json',
    });
    const response = await client('secrets').request({ method: 'LIST', path: '/v1/ssh/roles' });
    expect(response.body).toEqual({ data: { keys: ['web'] } });
    expect(seen[0]?.method).toBe('GET');
    expect(seen[0]?.uri).toBe('/v1/ssh/roles?list=true');
  });

  it('sends bytes as they are, as application/octet-stream', async () => {
    const seen = capture('PUT', 200);
    const bytes = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0xff]);
    await client().request({ method: 'PUT', path: '/object/upload-1', body: bytes });
    expect(seen[0]?.headers.get('content-type')).toBe('application/octet-stream');
    expect(seen[0]?.body).toEqual(bytes);
  });

  it('keeps caller headers but never lets them replace the credentials', async () => {
    const seen = capture('GET', 200);
    await client().request({ method: 'GET', path: '/x', headers: { 'X-Trace': 't1', Authorization: 'Bearer other' } });
    expect(seen[0]?.headers.get('x-trace')).toBe('t1');
    expect(seen[0]?.headers.get('authorization')).toBe(`Bearer ${TOKEN}`);
  });

  it('returns text for non-JSON responses and keeps a base URL path prefix', async () => {
    const seen = capture('GET', 200, 'pong', { 'content-type': 'text/plain' });
    const c = client('platform', `${ORIGIN}/prefix/`);
    expect(c.baseUrl).toBe(`${ORIGIN}/prefix`);
    const response = await c.request({ method: 'GET', path: '/ping' });
    expect(response.body).toBe('pong');
    expect(seen[0]?.uri).toBe('/prefix/ping');
    // an error names the path as sent, its prefix included: a doubled /api/v2 would show
    capture('GET', 404, '{"errors":[{"status":"404","title":"not found"}]}');
    await expect(c.request({ method: 'GET', path: '/api/v2/admin/tool-versions' })).rejects.toThrow(
      /^GET \/prefix\/api\/v2\/admin\/tool-versions: 404/,
    );
  });

  it('sends an upload link on another host there, without our token, and hides its object id', async () => {
    const storage = 'http://files.test:9000';
    const seen = capture('PUT', 500, '', {}, storage);
    const link = `${storage}/v1/object/c2VjcmV0LW9iamVjdA?expires=1`;
    const c = createHttpClient({ baseUrl: ORIGIN, auth: { api: 'platform', token: TOKEN }, maxRetries: 0 });
    clients.push(c);
    const error = await c.request({ method: 'PUT', path: link, body: Buffer.from('tgz') }).catch((e) => e);
    expect(seen[0]?.uri).toBe('/v1/object/c2VjcmV0LW9iamVjdA?expires=1');
    expect(seen[0]?.headers.get('authorization')).toBeNull();
    expect(error.message).toBe('PUT /v1/object/***: 500 internal server error');
  });

  it('hides the token of a download link in what errors show', async () => {
    capture('GET', 404, '');
    const error = await client()
      .request({ method: 'GET', path: `${ORIGIN}/_archivist/v1/download/dG9rZW4tb2YtYS1kb3dubG9hZA` })
      .catch((e) => e);
    expect(error.message).toBe('GET /_archivist/v1/download/***: 404 not found');
  });

  it('treats a link on its own server as a path there, with the token', async () => {
    const seen = capture('PUT', 200);
    await client().request({ method: 'PUT', path: `${ORIGIN}/v1/object/abc`, body: Buffer.from('tgz') });
    expect(seen[0]?.uri).toBe('/v1/object/abc');
    expect(seen[0]?.headers.get('authorization')).toBe(`Bearer ${TOKEN}`);
  });
});
