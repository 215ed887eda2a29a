/**
 * The floor a plan is compared with: the same requests as the plan sends,
 * over undici alone, in a process of its own, so that its wall clock (from
 * spawn to exit, measured by the parent) is comparable with a whole
 * `converge plan` process. No retries, pacing, window, diffing or output:
 * the first requests one after another (a LIST, the first page), then the
 * rest with `concurrency` in flight over as many keep-alive connections,
 * every body read and parsed as JSON.
 *
 * `node bench/raw-loop.ts SPEC.json`; prints `{"requests":N,"ms":M}`.
 */
import { readFileSync } from 'node:fs';
import { Pool } from 'undici';

export interface RawLoopSpec {
  origin: string;
  /** Sent with every request (the token). */
  headers: Record<string, string>;
  /** Paths sent one at a time, in order, before the rest (what the plan must read first). */
  first: string[];
  /** Paths sent with `concurrency` in flight. */
  rest: string[];
  concurrency: number;
}

async function get(pool: Pool, spec: RawLoopSpec, path: string): Promise<void> {
  const response = await pool.request({ method: 'GET', path, headers: spec.headers });
  const text = await response.body.text();
  if (response.statusCode >= 300) throw new Error(`GET ${path}: ${response.statusCode} ${text.slice(0, 200)}`);
  JSON.parse(text);
}

async function main(): Promise<void> {
  const file = process.argv[2];
  if (!file) throw new Error('usage: node bench/raw-loop.ts SPEC.json');
  const spec = JSON.parse(readFileSync(file, 'utf8')) as RawLoopSpec;
  const pool = new Pool(spec.origin, { connections: spec.concurrency });
  const started = performance.now();
  for (const path of spec.first) await get(pool, spec, path);
  let next = 0;
  const worker = async () => {
    while (next < spec.rest.length) await get(pool, spec, spec.rest[next++] ?? '');
  };
  await Promise.all(Array.from({ length: Math.min(spec.concurrency, spec.rest.length) }, worker));
  const ms = performance.now() - started;
  await pool.close();
  process.stdout.write(`${JSON.stringify({ requests: spec.first.length + spec.rest.length, ms })}\n`);
}

await main();
