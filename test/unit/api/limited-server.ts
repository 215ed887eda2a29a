/**
 * A real loopback server that enforces N requests per second (a sliding
 * one-second window by performance.now, 429 + Retry-After beyond it), and a
 * client that sends it GETs as the engine's queue would: for the client's
 * pacing tests (client-rate-limit in virtual time, client-rate-realtime in
 * real time).
 */
import type { ServerResponse } from 'node:http';
import { createHttpClient, type HttpClientOptions } from '../../../src/api/client.ts';
import type { HttpClient } from '../../../src/api/types.ts';
import { json, type ScriptedServer, scriptedServer } from './scripted-server.ts';

export interface LimitedServer {
  server: ScriptedServer;
  /** How many requests it turned away. */
  rejected(): number;
}

export async function limitedServer(advertise: boolean, limit: number): Promise<LimitedServer> {
  const accepted: number[] = [];
  let rejected = 0;
  const server = await scriptedServer((_hit, res: ServerResponse) => {
    const now = performance.now();
    while ((accepted[0] ?? now) <= now - 1000) accepted.shift();
    const resetSeconds = accepted.length > 0 ? (accepted[0]! + 1000 - now) / 1000 : 0;
    const headers: Record<string, string> = advertise
      ? {
          'x-ratelimit-limit': String(limit),
          'x-ratelimit-remaining': String(Math.max(0, limit - accepted.length - 1)),
          'x-ratelimit-reset': resetSeconds.toFixed(3),
        }
      : {};
    if (accepted.length >= limit) {
      rejected++;
      json(
        res,
        429,
        { errors: [{ status: '429', title: 'too many requests' }] },
        {
          ...headers,
          'retry-after': String(Math.ceil(resetSeconds)),
        },
      );
      return;
    }
    accepted.push(now);
    json(res, 200, { ok: true }, headers);
  });
  return { server, rejected: () => rejected };
}

export function rateClient(server: ScriptedServer, options: Partial<HttpClientOptions>): HttpClient {
  return createHttpClient({ baseUrl: server.url, auth: { api: 'platform', token: 'tok-rate-test-1' }, ...options });
}

/** Runs `total` GETs with `parallel` workers; the statuses in the order they came. */
export async function sendAll(client: HttpClient, total: number, parallel: number): Promise<number[]> {
  let next = 0;
  const statuses: number[] = [];
  const worker = async () => {
    while (next < total) {
      next++;
      statuses.push((await client.request({ method: 'GET', path: '/api/v2/ping' })).status);
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return statuses;
}
