/**
 * The two ways a request fails. Both carry an `outcome`, which tells the
 * engine whether the server may have applied the request: `unknown` means
 * "read back before repeating it". Messages name the method, the path and
 * what the server said; never a token, a header value or a request body,
 * and whatever the server echoed is redacted.
 */
import { createRequire } from 'node:module';
import { ConvergeError } from '../errors.ts';
import { type ApiName, PROFILES } from './profiles.ts';
import { redact } from './redact.ts';

/**
 * node:http's reason phrases, required when an error needs one: an ESM
 * import of node:http builds its facade, which loads Node's bundled undici
 * (~70 ms) at start-up of every command, offline ones included.
 */
const reasonPhrase = (status: number): string | undefined =>
  (createRequire(import.meta.url)('node:http') as typeof import('node:http')).STATUS_CODES[status];

export interface ApiErrorInit {
  status: number;
  method: string;
  path: string;
  messages: string[];
  outcome: 'failed' | 'unknown';
  /** The API that answered: its profile says what the status likely means. */
  api: ApiName;
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
      hint: PROFILES[init.api].hint(init.status, init.path, init.outcome),
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

/** The request may have been applied before it failed (a lost answer): read back before deciding. */
export function isUnknownOutcome(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { outcome?: string }).outcome === 'unknown';
}
