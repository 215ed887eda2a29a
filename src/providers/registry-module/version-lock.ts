/**
 * The delete cascade makes a module's versions depend on each other:
 * deleting a module's last version deletes the module. Whatever counts a
 * module's versions and then deletes one (a pruned version's delete,
 * ./versions.ts; a repair of a version left without content, ./publish.ts)
 * runs alone in its module, one after another, so that no two of them count
 * on the same version to remain. By run (the context), in this process.
 */
import type { ProviderContext } from '../../reconcile/provider.ts';
import { perRun } from './api.ts';

/** Per run, per module: when the last work queued so far is over. */
const runs = new WeakMap<ProviderContext, Map<string, Promise<void>>>();

const settled = (p: Promise<unknown>): Promise<void> =>
  p.then(
    () => undefined,
    () => undefined,
  );

/** `work` after every work queued before it in the same module (failed or not), and before any queued later. */
export function aloneInModule<T>(ctx: ProviderContext, module: string, work: () => Promise<T>): Promise<T> {
  const byModule = perRun(runs, ctx);
  const run = (byModule.get(module) ?? Promise.resolve()).then(work);
  byModule.set(module, settled(run));
  return run;
}
