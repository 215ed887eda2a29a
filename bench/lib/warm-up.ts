/**
 * One untimed plan and apply of a small mixed set, once per benchmark
 * process: the first run in a process pays for loading and compiling the
 * engine, which would otherwise land on whichever measurement comes first.
 */
import { join } from 'node:path';
import { mixedSet } from '../kinds.ts';
import { UNLIMITED, withEmulator } from './emulator.ts';
import { ADAPTIVE, desiredFrom, timedApply, timedPlan } from './engine.ts';
import { writeManifests } from './manifests.ts';
import { tempDir } from './paths.ts';

let warm: Promise<void> | undefined;

export function warmUp(): Promise<void> {
  warm ??= (async () => {
    const dir = await tempDir('warm-up');
    const { docs, files, seed, providers } = mixedSet(200);
    const desired = await desiredFrom(await writeManifests(join(dir, 'manifests'), docs, files));
    await withEmulator({ dir, seed, raiseLimitTo: UNLIMITED }, async (emulator) => {
      const plan = await timedPlan(emulator, desired, providers, ADAPTIVE);
      await timedApply(emulator, plan.run, providers, ADAPTIVE);
    });
  })();
  return warm;
}
