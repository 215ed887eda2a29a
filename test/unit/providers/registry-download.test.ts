/**
 * A version's archive read back for export (src/providers/registry-module/download.ts),
 * from a real server on loopback: the registry protocol's base from the discovery
 * document, the download endpoint's `X-Service-Get` (relative to the endpoint, or
 * on another host, reached without the token), the archive streamed, bounded by
 * what one upload takes, and a location that is no archive refused by its scheme only.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpClient } from '../../../src/api/client.ts';
import type { BodySink } from '../../../src/api/types.ts';
import { downloadVersion } from '../../../src/providers/registry-module/download.ts';
import { moduleAddress } from '../../../src/providers/registry-module/names.ts';
import { VERSION_KIND } from '../../../src/providers/registry-module/versions.ts';
import { childAddress } from '../../../src/reconcile/address.ts';
import { runContexts } from '../../../src/reconcile/services.ts';
import { MAX_MODULE_BYTES } from '../../../src/registry/module-size.ts';
import { json, type ScriptedServer, scriptedServer } from '../api/scripted-server.ts';

const servers: ScriptedServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const VERSION = childAddress(
  moduleAddress({ organization: 'acme', registry: 'private', namespace: 'acme', name: 'network', provider: 'aws' }),
  VERSION_KIND,
  '1.2.0',
);

/** A registry whose download endpoint answers `location`, and whose archive route serves `archive`. */
async function registry(location: (url: string) => string, archive: (res: import('node:http').ServerResponse) => void) {
  const server = await scriptedServer((hit, res) => {
    if (hit.url === '/.well-known/terraform.json') return json(res, 200, { 'modules.v1': '/api/registry/v1/modules/' });
    if (hit.url === '/api/registry/v1/modules/acme/network/aws/1.2.0/download') {
      res.writeHead(204, { 'x-service-get': location(server.url) });
      return res.end();
    }
    if (hit.url.startsWith('/files/')) return archive(res);
    json(res, 404, { errors: ['Not Found'] });
  });
  servers.push(server);
  return server;
}

function download(url: string, sink: BodySink) {
  const client = createHttpClient({ baseUrl: url, auth: { api: 'platform', token: 't0ken-value' }, maxRetries: 0 });
  const contextOf = runContexts({ clients: { platform: client }, signal: new AbortController().signal });
  return downloadVersion(contextOf({ api: 'platform' }), VERSION, sink).finally(() => client.close());
}

function collect(): BodySink & { chunks: Buffer[] } {
  const chunks: Buffer[] = [];
  return {
    chunks,
    begin: async () => {
      chunks.length = 0;
    },
    write: async (chunk) => {
      chunks.push(Buffer.from(chunk));
    },
  };
}

describe('downloading a version’s archive', () => {
  it('follows a location relative to the download endpoint, with the token on the same server', async () => {
    const bytes = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0xff, 0x00, 0x80]);
    const server = await registry(
      () => '../../../../../../../../files/abc',
      (res) => {
        res.writeHead(200, { 'content-type': 'application/x-gzip' });
        res.end(bytes);
      },
    );
    const sink = collect();
    await download(server.url, sink);
    expect(Buffer.concat(sink.chunks).equals(bytes)).toBe(true);
    const fetched = server.hits.find((h) => h.url === '/files/abc');
    expect(fetched?.headers.authorization).toBe('Bearer t0ken-value');
  });

  it('sends no token to an archive on another host', async () => {
    const storage = await scriptedServer((_hit, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.end('archive');
    });
    servers.push(storage);
    const server = await registry(
      () => `${storage.url}/files/signed?token=secret-capability`,
      () => undefined,
    );
    const sink = collect();
    await download(server.url, sink);
    expect(Buffer.concat(sink.chunks).toString()).toBe('archive');
    expect(storage.hits[0]?.headers.authorization).toBeUndefined();
  });

  it('refuses a location that is no archive, naming its scheme and never the location', async () => {
    const server = await registry(
      () => 'git::https://user:hunter2@vcs.example/acme/network?ref=v1.2.0',
      () => undefined,
    );
    const refused = download(server.url, collect());
    await expect(refused).rejects.toThrow(
      'RegistryModuleVersion/acme/network/aws/1.2.0: the registry gives its source as git that converge cannot download as an archive',
    );
    await expect(refused).rejects.not.toThrow(/hunter2/);
  });

  it('stops an archive larger than one upload takes, and says so', async () => {
    let sent = 0;
    const server = await registry(
      (url) => `${url}/files/huge`,
      (res) => {
        res.writeHead(200, { 'content-type': 'application/x-gzip' });
        const block = Buffer.alloc(1024 * 1024);
        const more = () => {
          while (sent <= MAX_MODULE_BYTES + 8 * block.length) {
            sent += block.length;
            if (!res.write(block)) return void res.once('drain', more);
          }
          res.end();
        };
        res.on('close', () => res.destroy());
        more();
      },
    );
    let received = 0;
    const refused = download(server.url, {
      begin: async () => {},
      write: async (chunk) => {
        received += chunk.length;
      },
    });
    await expect(refused).rejects.toThrow('its archive is larger than a module version may be (64 MiB');
    expect(received).toBeLessThanOrEqual(MAX_MODULE_BYTES);
  });
});
