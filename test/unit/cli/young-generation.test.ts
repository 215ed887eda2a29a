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
function youngGenerationAfterLoad(cap: boolean, nodeFlags: string[] = []): number {
  const script = `
    import v8 from 'node:v8';
    import { capYoungGeneration } from ${JSON.stringify(MODULE)};
    const kept = [];
    for (let round = 0; round < 20; round++) {
      for (let i = 0; i < 40000; i++) kept.push({ round, i, name: 'object-' + i });
      if (${cap}) capYoungGeneration();
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

  it('leaves a young generation the user sized alone', () => {
    expect(youngGenerationAfterLoad(true, ['--max-semi-space-size=64'])).toBeGreaterThan(YOUNG_GENERATION_CAP);
  });
});
