/**
 * What a lost answer costs: the object is read back by its address, one
 * request where the API can find one object (tool versions: an exact
 * `filter[version]`), never by listing the whole collection again. Before
 * addresses had `get`, 5,000 updates under 10 % faults re-read 17,895 list
 * pages; here every write's answer is lost and the recovery reads are counted.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { delegate } from '../../src/api/delegate.ts';
import { NetworkError } from '../../src/api/errors.ts';
import type { HttpClient, HttpResponse, RequestOptions } from '../../src/api/types.ts';
import type { DesiredObject } from '../../src/reconcile/types.ts';
import { apply } from '../helpers/engine.ts';
import { type Emulator, emulator } from './support.ts';

const SHA = 'ab'.repeat(32);
const url = (v: string) => `https://releases.example.com/tool/${v}/tool.zip`;
const LIVE = 450; // five list pages of 100
const CHANGED = 40;

let server: Emulator | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

interface Sent {
  method: string;
  path: string;
  query: RequestOptions['query'];
}

/** Loses the answer of every first write (applied by the server, the client never hears of it). */
function losingWrites(client: HttpClient, sent: Sent[]): HttpClient {
  const seen = new Set<string>();
  return delegate(client, async <T>(options: RequestOptions): Promise<HttpResponse<T>> => {
    sent.push({ method: options.method, path: options.path, query: options.query });
    const response = await client.request<T>(options);
    const key = `${options.method} ${options.path} ${JSON.stringify(options.body)}`;
    if ((options.method === 'POST' || options.method === 'PATCH') && !seen.has(key)) {
      seen.add(key);
      throw new NetworkError({
        method: options.method,
        path: options.path,
        reason: 'the connection closed before the answer',
        errno: 'UND_ERR_SOCKET',
        outcome: 'unknown',
      });
    }
    return response;
  });
}

const version = (i: number) => `2.${Math.floor(i / 100)}.${i % 100}`;

describe('recovery after a lost answer', () => {
  it('reads each object back with one filtered request, never the whole collection', async () => {
    server = await emulator({
      seed: {
        toolVersions: Array.from({ length: LIVE }, (_, i) => ({ version: version(i), url: url(version(i)), sha: SHA })),
      },
    });
    const desired: DesiredObject[] = Array.from({ length: CHANGED }, (_, i) => ({
      kind: 'ToolVersion',
      address: { kind: 'ToolVersion', name: version(i * 10) },
      metadata: { name: version(i * 10) },
      ensure: 'present',
      spec: { url: url(version(i * 10)), sha: SHA, beta: true },
      secretFields: [],
      source: { file: 'm.yaml', line: 1, col: 1 },
      positions: {},
    }));
    const sent: Sent[] = [];
    const run = await apply({ url: server.url, token: server.tokens.admin }, desired, {
      client: { assumedRateLimit: 0, wrap: (c) => losingWrites(c, sent) },
    });
    expect(run.summary.failed).toEqual([]);
    expect(run.summary.done).toEqual({ update: CHANGED });

    const reads = sent.filter((s) => s.method === 'GET');
    const byFilter = reads.filter((s) => s.query?.['filter[version]'] !== undefined);
    const pages = reads.filter((s) => s.query?.['filter[version]'] === undefined);
    // the collection is listed once, by the plan (five pages); recovery is one filtered GET per lost answer
    expect(byFilter.length).toBe(CHANGED);
    expect(pages.length).toBe(Math.ceil(LIVE / 100));
    expect(new Set(byFilter.map((s) => s.query?.['filter[version]']))).toEqual(
      new Set(desired.map((d) => d.address.name)),
    );
  });
});
