/**
 * The young generation stops growing at the cap (src/cli/young-generation.ts),
 * in a process of its own: the V8 flag it sets is the whole process's. Each
 * process keeps 20 rounds of objects alive, as loading a file of documents
 * does, and checks the cap after each round, as the loader does.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { YOUNG_GENERATION_CAP } from '../../../src/cli/young-generation.ts';

const MODULE = new URL('../../../src/cli/young-generation.ts', import.meta.url).href;

/** The young generation's size at the end, in a process that calls the cap (or not) after each round. */
function youngGenerationAfterLoad(cap: boolean | 'watch', nodeFlags: string[] = []): number {
  // 'watch': watched once before the rounds, as before a plan's reads, each round a turn of the event
  // loop (collections are reported between turns); else checked after each round, as the loader does
  const script = `
    import v8 from 'node:v8';
    import { setImmediate } from 'node:timers/promises';
    import { capYoungGeneration, watchYoungGeneration } from ${JSON.stringify(MODULE)};
    const kept = [];
    if (${cap === 'watch'}) watchYoungGeneration();
    for (let round = 0; round < 20; round++) {
      for (let i = 0; i < 40000; i++) kept.push({ round, i, name: 'object-' + i });
      if (${cap === true}) capYoungGeneration();
      if (${cap === 'watch'}) await setImmediate();
    }
    const young = v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size;
    process.stdout.write(String(young) + ' ' + kept.length);
  `;
  const out = execFileSync(process.execPath, [...nodeFlags, '--input-type=module', '-e', script], {
    encoding: 'utf8',
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  return Number(out.split(' ')[0]);
}

describe('the young generation cap', () => {
  it('stops the growth at the cap, where V8 alone grows past it', () => {
    expect(youngGenerationAfterLoad(false)).toBeGreaterThan(YOUNG_GENERATION_CAP);
    expect(youngGenerationAfterLoad(true)).toBeLessThanOrEqual(YOUNG_GENERATION_CAP);
  });

  it('stops it once a collection finds it at the cap, when watched before the reads', () => {
    expect(youngGenerationAfterLoad('watch')).toBeLessThanOrEqual(YOUNG_GENERATION_CAP);
  });

  it('leaves a young generation the user sized alone', () => {
    expect(youngGenerationAfterLoad(true, ['--max-semi-space-size=64'])).toBeGreaterThan(YOUNG_GENERATION_CAP);
  });
});
