/**
 * The two ways a request fails. Both carry an `outcome`, which tells the
 * engine whether the server may have applied the request: `unknown` means
 * "read back before repeating it". Messages name the method, the path and
 * what the server said; never a token, a header value or a request body,
 * and whatever the server echoed is redacted.
 */
import { createRequire } from 'node:module';
import { ConvergeError } from '../errors.ts';
import { redact } from './redact.ts';

/**
 * node:http's reason phrases, required when an error needs one: an ESM
 * import of node:http builds its facade, which loads Node's bundled undici
 * (~70 ms) at start-up of every command, offline ones included.
 */
const reasonPhrase = (status: number): string | undefined =>
  (createRequire(import.meta.url)('node:http') as typeof import('node:http')).STATUS_CODES[status];

export type AuthScheme = 'bearer' | 'vault';

export interface ApiErrorInit {
  status: number;
  method: string;
  path: string;
  messages: string[];
  outcome: 'failed' | 'unknown';
  scheme: AuthScheme;
  /** Why retrying stopped, when it did (`gave up after 7 attempts`). */
  note?: string;
}

export class ApiError extends ConvergeError {
  readonly status: number;
  readonly method: string;
  readonly path: string;
  readonly messages: string[];
  readonly outcome: 'failed' | 'unknown';

  constructor(init: ApiErrorInit) {
    const messages = init.messages.map(redact);
    const said = messages.length > 0 ? messages.join('; ') : (reasonPhrase(init.status) ?? 'error').toLowerCase();
    const note = init.note ? ` (${init.note})` : '';
    super('API_ERROR', `${init.method} ${init.path}: ${init.status} ${said}${note}`, {
      hint: apiHint(init.status, init.scheme, init.outcome),
    });
    this.name = 'ApiError';
    this.status = init.status;
    this.method = init.method;
    this.path = init.path;
    this.messages = messages;
    this.outcome = init.outcome;
  }
}

export interface NetworkErrorInit {
  method: string;
  path: string;
  /** Readable, e.g. `connection refused to http://127.0.0.1:8080`. */
  reason: string;
  /** The system or undici code (`ECONNREFUSED`, `UND_ERR_SOCKET`, `TIMEOUT`). */
  errno: string;
  outcome: 'not-sent' | 'unknown';
  note?: string;
}

export class NetworkError extends ConvergeError {
  readonly method: string;
  readonly path: string;
  readonly reason: string;
  readonly errno: string;
  readonly outcome: 'not-sent' | 'unknown';

  constructor(init: NetworkErrorInit) {
    const note = init.note ? ` (${init.note})` : '';
    super('NETWORK_ERROR', `${init.method} ${init.path}: ${redact(init.reason)}${note}`, {
      hint:
        init.outcome === 'unknown'
          ? 'the server may have processed the request before the connection failed'
          : 'check that the server is running and that the URL in the configuration is right',
    });
    this.name = 'NetworkError';
    this.method = init.method;
    this.path = init.path;
    this.reason = redact(init.reason);
    this.errno = init.errno;
    this.outcome = init.outcome;
  }
}

function apiHint(status: number, scheme: AuthScheme, outcome: 'failed' | 'unknown'): string | undefined {
  const platform = scheme === 'bearer';
  switch (status) {
    case 401:
      return 'the server rejected the token: check that the configured token is set, current and for this server';
    case 403:
      return platform
        ? 'the token lacks the rights for this request (admin endpoints need a site-admin token)'
        : 'the token lacks the rights for this request: its Vault policy must grant this path';
    case 404:
      return platform
        ? 'the object does not exist, or the token lacks the rights to see it (the platform answers 404 for both)'
        : 'the object does not exist, the secrets engine is not mounted at this path, or the token may not read it';
    case 429:
      return 'the server kept rate-limiting: lower the rate limit or the parallelism in the configuration';
    default:
      if (outcome === 'unknown') return 'the server may have applied the request before it failed';
      return status >= 500 ? 'the server failed; try again later' : undefined;
  }
}
