/**
 * The same client with another `request`: how a wrapper observes or alters
 * exchanges (the benchmarks watch the concurrency window; the fault tests
 * lose answers) while stats, the window and close stay the client's own.
 */
import type { HttpClient } from './types.ts';

export function delegate(client: HttpClient, request: HttpClient['request']): HttpClient {
  return {
    get baseUrl() {
      return client.baseUrl;
    },
    get stats() {
      return client.stats;
    },
    get concurrency() {
      return client.concurrency;
    },
    request,
    close: () => client.close(),
  };
}
