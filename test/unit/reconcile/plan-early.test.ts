/**
 * Objects planned as their answers arrive (src/reconcile/plan-early.ts) give
 * the plan the whole planner would, and a result made against another live
 * object than the one the planner pairs is never used.
 */
import { describe, expect, it } from 'vitest';
import { addressKey } from '../../../src/reconcile/address.ts';
import { buildPlan, type KindSnapshot, type PlanOptions } from '../../../src/reconcile/plan.ts';
import { planEarly } from '../../../src/reconcile/plan-early.ts';
import { desired, live, memoryProvider } from './builders.ts';

const options: PlanOptions = { prune: false, ownership: [], secrets: { lookup: undefined, resend: false } };

/** Lets the deferred work run: it waits two turns of the event loop. */
const turns = () => new Promise<void>((resolve) => setImmediate(() => setImmediate(() => setImmediate(resolve))));

describe('planning early', () => {
  const provider = memoryProvider('ToolVersion');
  const wanted = [desired('ToolVersion', 'a', { url: 'u1' }), desired('ToolVersion', 'b', { url: 'u2' })];
  const answers = [
    live('ToolVersion', 'a', { url: 'old', enabled: true }),
    live('ToolVersion', 'b', { url: 'u2', enabled: true }),
  ];
  const snapshot: KindSnapshot = {
    provider,
    desired: wanted,
    live: new Map(answers.map((l) => [addressKey(l.address), l])),
  };
  const providers = new Map([['ToolVersion', provider]]);

  it('plans each answer after it arrives, and the plan is the one the planner makes alone', async () => {
    const early = planEarly(new Map([['ToolVersion', wanted]]), providers, options);
    for (const answer of answers) early.onRead('ToolVersion', addressKey(answer.address), answer);
    expect(early.planned.size).toBe(0);
    await turns();
    expect([...early.planned.keys()]).toEqual(['ToolVersion/a', 'ToolVersion/b']);
    const reused = buildPlan([snapshot], { ...options, planned: early.planned });
    expect(reused).toEqual(buildPlan([snapshot], options));
    expect(reused.plan.actions.map((a) => [a.key, a.action])).toEqual([
      ['ToolVersion/a', 'update'],
      ['ToolVersion/b', 'noop'],
    ]);
  });

  it('plans again an object whose live answer is not the one planned early', async () => {
    const early = planEarly(new Map([['ToolVersion', wanted]]), providers, options);
    // an earlier answer for b, since replaced (a read back): its early result must not count
    early.onRead('ToolVersion', 'ToolVersion/b', live('ToolVersion', 'b', { url: 'stale', enabled: true }));
    await turns();
    const { plan } = buildPlan([snapshot], { ...options, planned: early.planned });
    expect(plan.actions.find((a) => a.key === 'ToolVersion/b')?.action).toBe('noop');
  });

  it('does nothing once stopped', async () => {
    const early = planEarly(new Map([['ToolVersion', wanted]]), providers, options);
    early.onRead('ToolVersion', 'ToolVersion/a', answers[0]!);
    early.stop();
    await turns();
    expect(early.planned.size).toBe(0);
  });
});
