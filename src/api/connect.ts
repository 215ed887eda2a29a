/**
 * The client of one API family from its configured connection: a missing
 * URL or token is a configuration error whose hint names the family's own
 * variables (src/api/profiles.ts), and the token joins the redactor before
 * any request can carry it.
 */
import type { Connection } from '../config/load.ts';
import { ConvergeError } from '../errors.ts';
import { createHttpClient, type HttpClientOptions } from './client.ts';
import { type ApiName, PROFILES, setUpHint } from './profiles.ts';
import { registerSecret } from './redact.ts';
import type { HttpClient } from './types.ts';

export function connectFamily(
  api: ApiName,
  conn: Connection | undefined,
  options: Pick<HttpClientOptions, 'concurrency' | 'onRetry'>,
): HttpClient {
  const { title } = PROFILES[api];
  if (!conn) throw new ConvergeError('CONFIG_INVALID', `no URL for ${title}`, { hint: setUpHint(api, 'url') });
  if (!conn.token) {
    throw new ConvergeError('CONFIG_INVALID', `no token for ${title}`, {
      hint: `set the environment variable ${conn.tokenEnv}`,
    });
  }
  registerSecret(conn.token);
  return createHttpClient({
    baseUrl: conn.url,
    auth: { api, token: conn.token, ...(conn.tokenHeader !== undefined && { header: conn.tokenHeader }) },
    ...(conn.rateLimit !== undefined && { rateLimit: conn.rateLimit }),
    ...(conn.requestTimeoutMs !== undefined && { requestTimeoutMs: conn.requestTimeoutMs }),
    ...(options.concurrency && { concurrency: options.concurrency }),
    ...(options.onRetry && { onRetry: options.onRetry }),
  });
}
