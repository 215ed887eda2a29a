/**
 * Tests for the `LIST` method rewriter: over raw keep-alive sockets (the only way
 * to control exactly which bytes arrive, and when), through fetch, and directly on
 * the byte-stream rewriter for framing edge cases.
 */

import { createServer } from 'node:http';
import { connect, Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { acceptListMethod, ListRewriter, MAX_HEAD_BYTES, withListTrue } from '../../src/emulator/list-method.ts';

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** A keep-alive client on a plain socket that reads responses off the stream in order. */
class RawClient {
  readonly socket: Socket;
  readonly closed: Promise<void>;
  #buffer = Buffer.alloc(0);
  #ended = false;
  #wake: (() => void) | undefined;

  constructor(port: number) {
    this.socket = connect(port, '127.0.0.1');
    this.socket.setNoDelay(true);
    this.socket.on('data', (data: Buffer) => {
      this.#buffer = Buffer.concat([this.#buffer, data]);
      this.#wake?.();
    });
    this.closed = new Promise((resolve) => this.socket.on('close', () => resolve()));
    this.socket.on('error', () => {});
    this.socket.on('end', () => {
      this.#ended = true;
      this.#wake?.();
    });
  }

  write(data: string | Buffer): void {
    this.socket.write(data);
  }

  async response(): Promise<RawResponse> {
    for (;;) {
      const parsed = this.#parse();
      if (parsed) return parsed;
      if (this.#ended) throw new Error(`connection ended; unparsed: ${JSON.stringify(this.#buffer.toString())}`);
      await new Promise<void>((resolve) => {
        this.#wake = resolve;
      });
    }
  }

  /** Everything received so far and not yet parsed into a response. */
  get unread(): string {
    return this.#buffer.toString('latin1');
  }

  #parse(): RawResponse | undefined {
    const headEnd = this.#buffer.indexOf('\r\n\r\n');
    if (headEnd === -1) return undefined;
    const [statusLine, ...lines] = this.#buffer.subarray(0, headEnd).toString('latin1').split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
    }
    const length = Number(headers['content-length'] ?? 0);
    const bodyStart = headEnd + 4;
    if (this.#buffer.length < bodyStart + length) return undefined;
    const body = this.#buffer.subarray(bodyStart, bodyStart + length).toString();
    this.#buffer = this.#buffer.subarray(bodyStart + length);
    return { status: Number(statusLine!.split(' ')[1]), headers, body };
  }
}

const apps: FastifyInstance[] = [];
const clients: RawClient[] = [];

afterEach(async () => {
  for (const client of clients.splice(0)) client.socket.destroy();
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

async function startApp(): Promise<{ app: FastifyInstance; port: number }> {
  const app = Fastify({
    serverFactory: (handler) => {
      const server = createServer(handler);
      acceptListMethod(server);
      return server;
    },
  });
  app.get('/v1/things', async (request) => {
    const query = request.query as { list?: string };
    return { list: query.list ?? null, method: request.method };
  });
  app.get('/v1/query', async (request) => ({ url: request.url, query: request.query }));
  app.get('/v1/socket', async (request) => ({
    remoteAddress: request.raw.socket.remoteAddress,
    isSocket: request.raw.socket instanceof Socket,
  }));
  app.get('/v1/drop', async (request) => {
    request.raw.socket.destroy();
  });
  app.addContentTypeParser(
    'application/octet-stream',
    { parseAs: 'buffer', bodyLimit: 64 * 1024 * 1024 },
    (_request, body, done) => done(null, body),
  );
  app.post('/v1/count', async (request) => {
    const body = request.body as Buffer;
    return { bytes: body.length, head: body.subarray(0, 16).toString('latin1') };
  });
  app.post('/v1/echo', async (request, reply) => {
    reply.type(request.headers['content-type'] ?? 'text/plain');
    return request.body;
  });
  apps.push(app);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return { app, port: address.port };
}

async function client(): Promise<RawClient> {
  const { port } = await startApp();
  const raw = new RawClient(port);
  clients.push(raw);
  return raw;
}

function request(method: string, target: string, body?: { type: string; text: string }): string {
  if (!body) return `${method} ${target} HTTP/1.1\r\nHost: test\r\n\r\n`;
  const length = Buffer.byteLength(body.text);
  return `${method} ${target} HTTP/1.1\r\nHost: test\r\nContent-Type: ${body.type}\r\nContent-Length: ${length}\r\n\r\n${body.text}`;
}

function json(response: RawResponse): unknown {
  return JSON.parse(response.body);
}

const LISTED = { list: 'true', method: 'GET' };

describe('LIST over keep-alive connections', () => {
  it('answers LIST like GET with list=true, several times on one connection', async () => {
    const raw = await client();
    for (let i = 0; i < 3; i++) {
      raw.write(request('LIST', '/v1/things'));
      const answer = await raw.response();
      expect(answer.status).toBe(200);
      expect(json(answer)).toEqual(LISTED);
    }
  });

  it('keeps an existing query string and replaces an existing list parameter', async () => {
    const raw = await client();
    raw.write(request('LIST', '/v1/query?a=1&b=two'));
    expect(json(await raw.response())).toEqual({
      url: '/v1/query?a=1&b=two&list=true',
      query: { a: '1', b: 'two', list: 'true' },
    });
    raw.write(request('LIST', '/v1/query?list=false&c=3'));
    expect(json(await raw.response())).toEqual({ url: '/v1/query?c=3&list=true', query: { c: '3', list: 'true' } });
  });

  it('leaves GET untouched', async () => {
    const raw = await client();
    raw.write(request('GET', '/v1/things'));
    expect(json(await raw.response())).toEqual({ list: null, method: 'GET' });
    raw.write(request('GET', '/v1/things?list=true'));
    expect(json(await raw.response())).toEqual(LISTED);
  });

  it('echoes bodies that contain or start with a LIST request line unchanged', async () => {
    const raw = await client();
    const payload = JSON.stringify({ text: 'LIST /v1/things HTTP/1.1\r\nHost: test\r\n\r\n' });
    raw.write(request('POST', '/v1/echo', { type: 'application/json', text: payload }));
    const echoed = await raw.response();
    expect(echoed.status).toBe(200);
    expect(echoed.body).toBe(payload);

    const plain = 'LIST /v1/things HTTP/1.1\r\nHost: test\r\n\r\n';
    raw.write(request('POST', '/v1/echo', { type: 'text/plain', text: plain }));
    expect((await raw.response()).body).toBe(plain);

    raw.write(request('LIST', '/v1/things'));
    expect(json(await raw.response())).toEqual(LISTED);
  });

  it('frames chunked bodies, with extensions and trailers, and keeps the connection in step', async () => {
    const raw = await client();
    const first = 'LIST /v1/things HTTP/1.1\r\n';
    const second = '\r\n0\r\n\r\nLIST /';
    raw.write(
      'POST /v1/echo HTTP/1.1\r\nHost: test\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n' +
        `${first.length.toString(16)};note=x\r\n${first}\r\n` +
        `${second.length.toString(16)}\r\n${second}\r\n` +
        '0\r\nX-Trailer: yes\r\n\r\n' +
        request('LIST', '/v1/things'),
    );
    const echoed = await raw.response();
    expect(echoed.status).toBe(200);
    expect(echoed.body).toBe(first + second);
    expect(json(await raw.response())).toEqual(LISTED);
  });

  it('answers a pipelined LIST, POST, LIST written at once, in order', async () => {
    const raw = await client();
    raw.write(
      request('LIST', '/v1/things') +
        request('POST', '/v1/echo', { type: 'application/json', text: '{"a":"LIST /v1/things HTTP/1.1"}' }) +
        request('LIST', '/v1/query?x=1'),
    );
    expect(json(await raw.response())).toEqual(LISTED);
    expect(json(await raw.response())).toEqual({ a: 'LIST /v1/things HTTP/1.1' });
    expect(json(await raw.response())).toEqual({ url: '/v1/query?x=1&list=true', query: { x: '1', list: 'true' } });
  });

  it('handles requests split byte by byte across many writes', async () => {
    const raw = await client();
    const bytes = Buffer.from(
      request('LIST', '/v1/things') +
        request('POST', '/v1/echo', { type: 'text/plain', text: 'LIST / HTTP/1.1\r\n\r\n' }) +
        request('LIST', '/v1/things?list=1'),
    );
    for (const byte of bytes) {
      raw.write(Buffer.of(byte));
      await sleep(1);
    }
    expect(json(await raw.response())).toEqual(LISTED);
    expect((await raw.response()).body).toBe('LIST / HTTP/1.1\r\n\r\n');
    expect(json(await raw.response())).toEqual(LISTED);
  });

  it('streams a large body through and stays in step afterwards', async () => {
    const raw = await client();
    const body = Buffer.alloc(8 * 1024 * 1024, 'LIST / HTTP/1.1\r\n');
    raw.write(
      `POST /v1/count HTTP/1.1\r\nHost: test\r\nContent-Type: application/octet-stream\r\nContent-Length: ${body.length}\r\n\r\n`,
    );
    raw.write(body);
    raw.write(request('LIST', '/v1/things'));
    expect(json(await raw.response())).toEqual({ bytes: body.length, head: 'LIST / HTTP/1.1\r' });
    expect(json(await raw.response())).toEqual(LISTED);
  });

  it('answers hundreds of pipelined requests written at once, while Node pauses and resumes the socket', async () => {
    const raw = await client();
    const count = 500;
    raw.write(request('LIST', '/v1/things').repeat(count));
    const answers = [];
    for (let i = 0; i < count; i++) answers.push(json(await raw.response()));
    expect(answers).toEqual(Array.from({ length: count }, () => LISTED));
  });

  it('lets Expect: 100-continue work', async () => {
    const raw = await client();
    raw.write(
      'POST /v1/echo HTTP/1.1\r\nHost: test\r\nContent-Type: text/plain\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n',
    );
    const interim = await raw.response();
    expect(interim.status).toBe(100);
    raw.write('hello');
    expect((await raw.response()).body).toBe('hello');
    raw.write(request('LIST', '/v1/things'));
    expect(json(await raw.response())).toEqual(LISTED);
  });

  it('still lets Node answer 400 to unknown methods', async () => {
    const raw = await client();
    raw.write(request('FROB', '/v1/things'));
    expect((await raw.response()).status).toBe(400);
    await raw.closed;
    expect(raw.socket.destroyed).toBe(true);
  });

  it('hands handlers the real socket', async () => {
    const raw = await client();
    raw.write(request('LIST', '/v1/socket'));
    expect(json(await raw.response())).toEqual({ remoteAddress: '127.0.0.1', isSocket: true });
  });
});

describe('connection lifecycle', () => {
  it('closes the client connection when a handler destroys the socket', async () => {
    const raw = await client();
    raw.write(request('LIST', '/v1/drop'));
    await raw.closed;
    expect(raw.unread).toBe('');
  });

  it('ends open keep-alive connections on app.close()', async () => {
    const { app, port } = await startApp();
    const raw = new RawClient(port);
    clients.push(raw);
    raw.write(request('LIST', '/v1/things'));
    expect(json(await raw.response())).toEqual(LISTED);
    await app.close();
    await raw.closed;
    expect(raw.socket.destroyed).toBe(true);
  });

  it('ends connections with a request in flight on app.close() when forced', async () => {
    const app = Fastify({
      forceCloseConnections: true,
      serverFactory: (handler) => acceptListMethod(createServer(handler)),
    });
    app.get('/v1/slow', () => new Promise(() => {}));
    apps.push(app);
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    const raw = new RawClient(address.port);
    clients.push(raw);
    raw.write(request('LIST', '/v1/slow'));
    await sleep(50);
    await app.close();
    await raw.closed;
    expect(raw.unread).toBe('');
  });

  it('works with fetch', async () => {
    const { port } = await startApp();
    const listed = await fetch(`http://127.0.0.1:${port}/v1/things?list=true`);
    expect(await listed.json()).toEqual(LISTED);
    const echoed = await fetch(`http://127.0.0.1:${port}/v1/echo`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'LIST /v1/things HTTP/1.1\r\n\r\n',
    });
    expect(await echoed.text()).toBe('LIST /v1/things HTTP/1.1\r\n\r\n');
  });

  it('can be installed on app.server before listen', async () => {
    const app = Fastify();
    app.get('/v1/things', async (request) => ({ list: (request.query as { list?: string }).list ?? null }));
    acceptListMethod(app.server);
    apps.push(app);
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    const raw = new RawClient(address.port);
    clients.push(raw);
    raw.write(request('LIST', '/v1/things'));
    expect(json(await raw.response())).toEqual({ list: 'true' });
  });
});

/** Feeds `input` to a fresh rewriter in pieces of `size` bytes and returns the joined output. */
function rewrite(input: string | Buffer, size = Number.POSITIVE_INFINITY): string {
  const rewriter = new ListRewriter();
  const bytes = Buffer.from(input);
  const out: Buffer[] = [];
  const step = Math.min(size, bytes.length) || 1;
  for (let offset = 0; offset < bytes.length; offset += step) {
    out.push(...rewriter.write(bytes.subarray(offset, offset + step)));
  }
  out.push(...rewriter.end());
  return Buffer.concat(out).toString('latin1');
}

describe('ListRewriter', () => {
  const stream =
    'LIST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 16\r\n\r\nLIST /b HTTP/1.1' +
    'POST /c HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n10\r\nLIST /d HTTP/1.1\r\n0\r\nT: 1\r\n\r\n' +
    '\r\nLIST /e?x=1 HTTP/1.0\r\n\r\n';
  const expected =
    'GET /a?list=true HTTP/1.1\r\nHost: x\r\nContent-Length: 16\r\n\r\nLIST /b HTTP/1.1' +
    'POST /c HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n10\r\nLIST /d HTTP/1.1\r\n0\r\nT: 1\r\n\r\n' +
    '\r\nGET /e?x=1&list=true HTTP/1.0\r\n\r\n';

  it.each([1, 2, 3, 7, 64, Number.POSITIVE_INFINITY])('rewrites only request lines, fed %d bytes at a time', (size) => {
    expect(rewrite(stream, size)).toBe(expected);
  });

  it('passes an over-long request line through unchanged and stops rewriting', () => {
    const long = `LIST /${'a'.repeat(MAX_HEAD_BYTES)} HTTP/1.1\r\n\r\nLIST /x HTTP/1.1\r\n\r\n`;
    expect(rewrite(long, 4096)).toBe(long);
  });

  it('stops rewriting after malformed framing', () => {
    const badChunk = 'POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nLIST /x HTTP/1.1\r\n\r\n';
    expect(rewrite(badChunk)).toBe(badChunk);
    const both =
      'POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n0\r\n\r\nLIST /x HTTP/1.1\r\n\r\n';
    expect(rewrite(both)).toBe(both);
    const folded = 'GET / HTTP/1.1\r\nA: 1\r\n  2\r\n\r\nLIST /x HTTP/1.1\r\n\r\n';
    expect(rewrite(folded)).toBe(folded);
  });

  it('returns a withheld partial request line at end of stream', () => {
    expect(rewrite('GET / HTTP/1.1\r\n\r\nLIST /v1/thi')).toBe('GET / HTTP/1.1\r\n\r\nLIST /v1/thi');
  });

  it('adds list=true to targets', () => {
    expect(withListTrue('/v1/ssh/roles')).toBe('/v1/ssh/roles?list=true');
    expect(withListTrue('/v1/ssh/roles?')).toBe('/v1/ssh/roles?list=true');
    expect(withListTrue('/v1/x?a=1&list=true&b')).toBe('/v1/x?a=1&b&list=true');
  });
});
