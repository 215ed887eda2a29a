/**
 * `sink`: a 2xx answer's body streamed chunk by chunk (a module archive),
 * byte for byte, from a real server on loopback; a body cut short is
 * retried from its start, and the sink's own failure ends the request as
 * it is, never retried as a network failure.
 */
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpClient } from '../../../src/api/client.ts';
import type { BodySink } from '../../../src/api/types.ts';
import { json, type ScriptedServer, scriptedServer } from './scripted-server.ts';

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Collects what the sink is given, starting over on `begin`. */
function collecting(): BodySink & { bytes(): Buffer; begun: number } {
  let chunks: Buffer[] = [];
  const sink = {
    begun: 0,
    async begin() {
      sink.begun++;
      chunks = [];
    },
    async write(chunk: Uint8Array) {
      chunks.push(Buffer.from(chunk));
    },
    bytes: () => Buffer.concat(chunks),
  };
  return sink;
}

const client = (url: string) =>
  createHttpClient({ baseUrl: url, auth: { api: 'platform', token: 't0ken-value' }, retryBaseMs: 1, retryMaxMs: 5 });

describe('a streamed body', () => {
  it('hands over binary bytes unchanged (no text decoding) and leaves body undefined', async () => {
    const archive = randomBytes(300_000);
    server = await scriptedServer((_hit, res) => {
      res.writeHead(200, { 'content-type': 'application/x-gzip' });
      res.end(archive);
    });
    const sink = collecting();
    const http = client(server.url);
    const answer = await http.request({ method: 'GET', path: '/archive', sink });
    expect(answer.status).toBe(200);
    expect(answer.body).toBeUndefined();
    expect(sink.bytes().equals(archive)).toBe(true);
    await http.close();
  });

  it('starts over when a body is cut short, and keeps only the complete one', async () => {
    const archive = randomBytes(100_000);
    server = await scriptedServer((_hit, res, _req, index) => {
      res.writeHead(200, { 'content-type': 'application/x-gzip', 'content-length': String(archive.length) });
      if (index === 0) {
        res.write(archive.subarray(0, 1000));
        setTimeout(() => res.socket?.destroy(), 20);
      } else res.end(archive);
    });
    const sink = collecting();
    const http = client(server.url);
    await http.request({ method: 'GET', path: '/archive', sink });
    expect(sink.begun).toBe(2);
    expect(sink.bytes().equals(archive)).toBe(true);
    await http.close();
  });

  it('ends the request with the sink’s own error, once, even one with a system code', async () => {
    server = await scriptedServer((_hit, res) => {
      res.writeHead(200, { 'content-type': 'application/x-gzip' });
      res.end(randomBytes(10_000));
    });
    const full = Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
    const http = client(server.url);
    const refused = http.request({
      method: 'GET',
      path: '/archive',
      sink: { begin: async () => {}, write: () => Promise.reject(full) },
    });
    await expect(refused).rejects.toBe(full);
    expect(server.hits).toHaveLength(1);
    await http.close();
  });

  it('reads an error answer as usual: the sink gets nothing', async () => {
    server = await scriptedServer((_hit, res) => json(res, 404, { errors: ['Not Found'] }));
    const sink = collecting();
    const http = client(server.url);
    const answer = await http.request({ method: 'GET', path: '/archive', sink, accept: [404] });
    expect(answer).toMatchObject({ status: 404, body: { errors: ['Not Found'] } });
    expect(sink.begun).toBe(0);
    await expect(http.request({ method: 'GET', path: '/archive', sink })).rejects.toMatchObject({ status: 404 });
    await http.close();
  });
});
