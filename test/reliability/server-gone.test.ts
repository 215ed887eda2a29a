/**
 * The server goes away between plan and apply (issue: no fail-fast): the
 * apply stops starting work once its client's circuit breaker opens, sends a
 * bounded number of requests, and reports every action it did not start as
 * such, instead of retrying each of them for minutes.
 */
import { describe, expect, it } from 'vitest';
import { createHttpClient } from '../../src/api/client.ts';
import { providerMap } from '../../src/providers/index.ts';
import { applyPlan } from '../../src/reconcile/apply.ts';
import { planRun } from '../../src/reconcile/engine.ts';
import { EventStream, type ReconcileEvent } from '../../src/reconcile/events.ts';
import type { DesiredObject } from '../../src/reconcile/types.ts';
import { emulator } from './support.ts';

const COUNT = 300;
const SHA = 'ef'.repeat(32);

const desired: DesiredObject[] = Array.from({ length: COUNT }, (_, i) => {
  const name = `5.0.${i}`;
  return {
    kind: 'ToolVersion',
    address: { kind: 'ToolVersion', name },
    metadata: { name },
    ensure: 'present',
    spec: { url: `https://releases.example.com/${name}.zip`, sha: SHA },
    secretFields: [],
    source: { file: 'm.yaml', line: 1, col: 1 },
    positions: {},
  };
});

describe('a server that is gone when apply starts', () => {
  it('stops after a few connection failures and reports the rest as not started', async () => {
    const server = await emulator();
    const client = (breakerThreshold?: number) =>
      createHttpClient({
        baseUrl: server.url,
        auth: { api: 'platform', token: server.tokens.admin },
        assumedRateLimit: 0,
        retryBaseMs: 1,
        retryMaxMs: 5,
        concurrency: { initial: 10, max: 10 },
        ...(breakerThreshold !== undefined && { breakerThreshold }),
      });
    const planning = client();
    const run = await planRun({
      desired,
      providers: providerMap,
      clients: { platform: planning },
      signal: new AbortController().signal,
      parallelism: 10,
      events: new EventStream(),
      prune: false,
      ownership: [],
      secrets: { lookup: undefined, resend: false },
      selection: { targets: [], selectors: {} },
    });
    await planning.close();
    expect(run.plan.counts).toEqual({ create: COUNT });
    await server.close();

    const applying = client(8);
    const events: ReconcileEvent[] = [];
    const stream = new EventStream();
    stream.on((e) => events.push(e));
    const summary = await applyPlan(run.plan, {
      providers: providerMap,
      desired: run.desiredByKey,
      live: run.liveByKey,
      clients: { platform: applying },
      signal: new AbortController().signal,
      parallelism: 10,
      events: stream,
      interrupt: new AbortController().signal,
    });
    await applying.close();

    expect(summary.done).toEqual({});
    const unreachable = summary.skipped.filter((s) => s.reason === 'unreachable');
    expect(summary.failed.length + unreachable.length).toBe(COUNT);
    // only what was in flight when the breaker opened failed; the rest never started
    expect(summary.failed.length).toBeLessThanOrEqual(10);
    expect(unreachable.length).toBeGreaterThanOrEqual(COUNT - 10);
    expect(unreachable[0]?.cause).toMatch(/failed \d+ connections in a row/);
    // a bounded number of attempts reached the network: the breaker's threshold plus the window
    expect(applying.stats.requests).toBeLessThanOrEqual(8 + 10);
    expect(events.filter((e) => e.type === 'retry').length).toBeLessThanOrEqual(8 + 10);
  });
});
