/**
 * The per-module order of version repairs and deletes (the delete cascade:
 * a module's last version takes the module with it): each counts the module's
 * versions and may delete one, so each runs alone in its module.
 */
import { describe, expect, it } from 'vitest';
import { aloneInModule } from '../../../src/providers/registry-module/version-lock.ts';
import type { ProviderContext } from '../../../src/reconcile/provider.ts';

const ctx = (): ProviderContext => ({ api: {}, signal: new AbortController().signal });

/** A step that ends when told, logging its start and end. */
function step(log: string[], name: string) {
  let end: () => void = () => {};
  const ended = new Promise<void>((resolve) => {
    end = resolve;
  });
  return {
    end: () => end(),
    work: async () => {
      log.push(`${name} start`);
      await ended;
      log.push(`${name} end`);
    },
  };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('version repairs and deletes of one module', () => {
  it('runs them one after another in the order they came', async () => {
    const run = ctx();
    const log: string[] = [];
    const [d1, repair, d2] = ['delete 1', 'repair', 'delete 2'].map((n) => step(log, n));
    const done = [
      aloneInModule(run, 'm', d1!.work),
      aloneInModule(run, 'm', repair!.work),
      aloneInModule(run, 'm', d2!.work),
    ];
    await tick();
    expect(log).toEqual(['delete 1 start']);
    d1!.end();
    await tick();
    expect(log.slice(1)).toEqual(['delete 1 end', 'repair start']);
    repair!.end();
    await tick();
    expect(log.slice(3)).toEqual(['repair end', 'delete 2 start']);
    d2!.end();
    await Promise.all(done);
  });

  it('runs one repair at a time, goes on after a failed one, and holds neither other modules nor other runs', async () => {
    const run = ctx();
    const log: string[] = [];
    const first = step(log, 'repair 1');
    const repairs = [
      aloneInModule(run, 'm', first.work),
      aloneInModule(run, 'm', async () => {
        log.push('repair 2');
        throw new Error('failed');
      }),
      aloneInModule(run, 'm', async () => {
        log.push('repair 3');
      }),
    ];
    const others = [
      aloneInModule(run, 'n', async () => log.push('other module')),
      aloneInModule(ctx(), 'm', async () => log.push('another run')),
    ];
    await tick();
    expect([...log].sort()).toEqual(['another run', 'other module', 'repair 1 start']);
    first.end();
    await repairs[0];
    await expect(repairs[1]).rejects.toThrow('failed');
    await repairs[2];
    await Promise.all(others);
    expect(log.slice(3)).toEqual(['repair 1 end', 'repair 2', 'repair 3']);
  });
});
