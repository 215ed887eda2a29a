/**
 * The engine's services to providers, one set per run (a plan's reads, an
 * apply, an export): each provider's context holds the client of its own API
 * family, the run's signal, one read shared per key, and one-at-a-time work
 * per key. What a run shares lives as long as the run: nothing is kept in a
 * provider's module (docs/architecture.md, "Engine services").
 */
import { PROFILES, setUpHint } from '../api/profiles.ts';
import type { ApiClients, HttpClient } from '../api/types.ts';
import { ConvergeError } from '../errors.ts';
import type { Provider, ProviderContext } from './provider.ts';

export interface RunConnections {
  clients: ApiClients;
  signal: AbortSignal;
}

/** The context of each provider in one run. */
export type ContextOf = (provider: Pick<Provider, 'api'>) => ProviderContext;

export function runContexts(run: RunConnections): ContextOf {
  const reads = new Map<string, Promise<unknown>>();
  const queues = new Map<string, Promise<void>>();

  function shared<T>(key: string, read: () => Promise<T>): Promise<T> {
    const running = reads.get(key);
    if (running) return running as Promise<T>;
    const started = read();
    reads.set(key, started);
    // a failed read is not remembered: the next caller tries again
    started.catch(() => reads.delete(key));
    return started;
  }

  function serial<T>(key: string, work: () => Promise<T>): Promise<T> {
    const turn = (queues.get(key) ?? Promise.resolve()).then(work);
    queues.set(key, settled(turn));
    return turn;
  }

  const contexts = new Map<Provider['api'], ProviderContext>();
  return ({ api }) => {
    let context = contexts.get(api);
    if (!context) {
      context = {
        get client(): HttpClient {
          const client = run.clients[api];
          if (client) return client;
          throw new ConvergeError('CONFIG_INVALID', `no connection to ${PROFILES[api].title}`, {
            hint: setUpHint(api, 'connection'),
          });
        },
        signal: run.signal,
        // keys are the providers' own (a request's path): a family's keys never meet another's
        shared: (key, read) => shared(`${api} ${key}`, read),
        serial: (key, work) => serial(`${api} ${key}`, work),
      };
      contexts.set(api, context);
    }
    return context;
  };
}

const settled = (p: Promise<unknown>): Promise<void> =>
  p.then(
    () => undefined,
    () => undefined,
  );
