/**
 * `maxBodyBytes`: an answer's body read only up to a bound (a test run's log
 * may be hundreds of megabytes), from a real server on loopback that streams
 * far more than that; the rest is never read.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpClient } from '../../../src/api/client.ts';
import { type ScriptedServer, scriptedServer } from './scripted-server.ts';

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('a bounded body', () => {
  it('keeps the first bytes of a 64 MiB answer, says it was cut, and stops reading', async () => {
    let written = 0;
    server = await scriptedServer((_hit, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const line = Buffer.from(`${'x'.repeat(1023)}\n`);
      const more = () => {
        while (written < 64 * 1024 * 1024) {
          written += line.length;
          if (!res.write(line)) return void res.once('drain', more);
        }
        res.end();
      };
      res.on('close', () => res.destroy());
      more();
    });
    const client = createHttpClient({ baseUrl: server.url, auth: { api: 'platform', token: 't0ken-value' } });
    const answer = await client.request<string>({ method: 'GET', path: '/log', maxBodyBytes: 1024 * 1024 + 10 });
    expect(answer.truncated).toBe(true);
    expect(answer.body).toHaveLength(1024 * 1024 + 10);
    // the server was not read to its end
    expect(written).toBeLessThan(32 * 1024 * 1024);
    await client.close();
  });

  it('gives a body within the bound whole, decoded as usual', async () => {
    server = await scriptedServer((_hit, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"a":1}');
    });
    const client = createHttpClient({ baseUrl: server.url, auth: { api: 'platform', token: 't0ken-value' } });
    const answer = await client.request({ method: 'GET', path: '/small', maxBodyBytes: 1024 });
    expect(answer).toMatchObject({ status: 200, body: { a: 1 } });
    expect(answer.truncated).toBeUndefined();
    await client.close();
  });
});
