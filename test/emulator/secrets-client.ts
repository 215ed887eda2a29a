/**
 * A small client for the emulator's secrets API (docs/emulator.md, "Secrets
 * API"): plain JSON under `/v1`, the token in `X-Service-Token` (the root
 * token `tokens.secrets` unless a test names another, `null` for none).
 */
import type { EmulatorOptions, RunningEmulator } from '../../src/emulator/server.ts';
import { start } from './helpers.ts';

/** A secrets API answer body: an envelope, or `{"errors": [...]}`. */
export interface SecretsBody {
  request_id?: string;
  lease_id?: string;
  renewable?: boolean;
  lease_duration?: number;
  data?: Record<string, unknown> | null;
  wrap_info?: unknown;
  warnings?: unknown;
  auth?: Record<string, unknown> | null;
  errors?: string[];
}

export interface SecretsAnswer {
  status: number;
  headers: Headers;
  /** The raw body (the SSH public key is plain text). */
  text: string;
  /** The body as JSON, or `{}` when there is none or it is not JSON. */
  body: SecretsBody;
  /** `body.data`, or `{}`: what most assertions look at. */
  data: Record<string, unknown>;
}

/** `null` sends no token at all. */
type Token = string | null | undefined;

export interface SecretsClient {
  emulator: RunningEmulator;
  /** The root token (`tokens.secrets`). */
  root: string;
  request(method: string, path: string, options?: { token?: Token; body?: unknown }): Promise<SecretsAnswer>;
  get(path: string, token?: Token): Promise<SecretsAnswer>;
  post(path: string, body?: unknown, token?: Token): Promise<SecretsAnswer>;
  delete(path: string, token?: Token): Promise<SecretsAnswer>;
  /** The `LIST` method itself (fetch sends any method name). */
  list(path: string, token?: Token): Promise<SecretsAnswer>;
  /** A child token from `auth/token/create`, minted by `parent` (root by default). */
  mint(body: Record<string, unknown>, parent?: Token): Promise<string>;
}

/** An emulator (closed after each test) and a client for its secrets API. */
export async function startSecrets(options: EmulatorOptions = {}): Promise<SecretsClient> {
  const { emulator } = await start(options);
  const root = emulator.tokens.secrets;
  const client: SecretsClient = {
    emulator,
    root,
    async request(method, path, options = {}) {
      const token = options.token === undefined ? root : options.token;
      const headers: Record<string, string> = {};
      if (token !== null) headers['x-service-token'] = token;
      if (options.body !== undefined) headers['content-type'] = 'application/json';
      const response = await fetch(`${emulator.url}/v1${path}`, {
        method,
        headers,
        ...(options.body !== undefined && { body: JSON.stringify(options.body) }),
      });
      const text = await response.text();
      let body: SecretsBody = {};
      if ((response.headers.get('content-type') ?? '').startsWith('application/json') && text !== '') {
        body = JSON.parse(text) as SecretsBody;
      }
      return { status: response.status, headers: response.headers, text, body, data: body.data ?? {} };
    },
    get: (path, token) => client.request('GET', path, { token }),
    post: (path, body = {}, token) => client.request('POST', path, { token, body }),
    delete: (path, token) => client.request('DELETE', path, { token }),
    list: (path, token) => client.request('LIST', path, { token }),
    async mint(body, parent) {
      const answer = await client.post('/auth/token/create', body, parent);
      if (answer.status !== 200) throw new Error(`token create failed: ${answer.status} ${answer.text}`);
      return String(answer.body.auth?.client_token);
    },
  };
  return client;
}
