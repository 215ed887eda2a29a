/**
 * The engine's services to providers (src/reconcile/services.ts): one-at-a-time
 * work per key (a module's version repairs and deletes: the delete cascade makes
 * each count the module's versions, so each runs alone in its module), one read
 * per key shared by whoever asks in a run, and the client of the kind's own API.
 */
import { describe, expect, it } from 'vitest';
import { runContexts } from '../../../src/reconcile/services.ts';
import { FakeClient } from '../providers/fake-client.ts';

/** A new run's context for a platform kind. */
const ctx = () => runContexts({ clients: {}, signal: new AbortController().signal })({ api: 'platform' });
const aloneInModule = <T>(run: ReturnType<typeof ctx>, module: string, work: () => Promise<T>) =>
  run.serial(module, work);

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

describe('a shared read', () => {
  it('runs once for every caller of the run, again in the next run, and again after it failed', async () => {
    const run = ctx();
    let reads = 0;
    const read = async () => ++reads;
    expect(await Promise.all([run.shared('GET /x', read), run.shared('GET /x', read)])).toEqual([1, 1]);
    expect(await run.shared('GET /y', read)).toBe(2);
    expect(await ctx().shared('GET /x', read)).toBe(3);
    const failing = run.shared('GET /z', async () => {
      throw new Error('lost');
    });
    await expect(failing).rejects.toThrow('lost');
    expect(await run.shared('GET /z', read)).toBe(4);
  });

  it('is the same for a parent and its children (one family), apart for another family', async () => {
    const contextOf = runContexts({ clients: {}, signal: new AbortController().signal });
    let reads = 0;
    const read = async () => ++reads;
    expect(await contextOf({ api: 'platform' }).shared('k', read)).toBe(1);
    expect(await contextOf({ api: 'platform' }).shared('k', read)).toBe(1);
    expect(await contextOf({ api: 'secrets' }).shared('k', read)).toBe(2);
  });
});

describe('the client of a provider', () => {
  it("is its own family's, and a family without a connection says how to set one up when used", () => {
    const platform = new FakeClient();
    const contextOf = runContexts({ clients: { platform }, signal: new AbortController().signal });
    expect(contextOf({ api: 'platform' }).client).toBe(platform);
    const secrets = contextOf({ api: 'secrets' });
    expect(() => secrets.client).toThrow(
      expect.objectContaining({
        code: 'CONFIG_INVALID',
        message: 'no connection to the secrets API',
        hint: 'set CONVERGE_SECRETS_URL and CONVERGE_SECRETS_TOKEN, or `secrets` in the configuration file',
      }),
    );
  });
});
