/** A real emulator on a free loopback port, and a small fetch wrapper for its API. */
import { type EmulatorOptions, type RunningEmulator, startEmulator } from '../../src/emulator/server.ts';
import { afterEveryTest } from '../helpers/teardown.ts';

export type Body = Record<string, unknown> & { data?: unknown; errors?: Array<Record<string, unknown>> };

export interface Answer {
  status: number;
  headers: Headers;
  body: Body;
}

export interface Client {
  emulator: RunningEmulator;
  /** A request as the admin (or `token`); `body` is JSON-encoded as JSON:API. */
  call(
    method: string,
    path: string,
    options?: { token?: string | null; body?: unknown; headers?: Record<string, string> },
  ): Promise<Answer>;
}

const running: RunningEmulator[] = [];

afterEveryTest(() => Promise.all(running.splice(0).map((e) => e.close())));

/** Rate limiting is off unless asked for: most tests make more than 30 requests a second. */
export async function start(options: EmulatorOptions = {}): Promise<Client> {
  const emulator = await startEmulator({ port: 0, rateLimit: false, ...options });
  running.push(emulator);
  return {
    emulator,
    async call(method, path, options = {}) {
      const token = options.token === undefined ? emulator.tokens.admin : options.token;
      const headers: Record<string, string> = { ...options.headers };
      if (token !== null) headers.authorization = `Bearer ${token}`;
      if (options.body !== undefined) headers['content-type'] = 'application/vnd.api+json';
      const response = await fetch(`${emulator.url}${path}`, {
        method,
        headers,
        ...(options.body !== undefined && {
          body: typeof options.body === 'string' ? options.body : JSON.stringify(options.body),
        }),
      });
      const text = await response.text();
      return { status: response.status, headers: response.headers, body: text === '' ? {} : JSON.parse(text) };
    },
  };
}

/** `{data: {type, attributes}}`. */
export function doc(type: string, attributes: Record<string, unknown>): unknown {
  return { data: { type, attributes } };
}

export function attributesOf(answer: Answer): Record<string, unknown> {
  return (answer.body.data as { attributes: Record<string, unknown> }).attributes;
}

/** The `detail` of every error object, for asserting on all validation failures at once. */
export function details(answer: Answer): string[] {
  return (answer.body.errors ?? []).map((e) => String(e.detail));
}

export function pointers(answer: Answer): string[] {
  return (answer.body.errors ?? []).map((e) => String((e.source as { pointer?: string } | undefined)?.pointer));
}

export const CERT_A = `-----BEGIN CERTIFICATE-----
MIIBszCCAVmgAwIBAgIUQmFzZTY0Q2VydGlmaWNhdGVBAAAAAAAwCgYIKoZIzj0E
AwIwEjEQMA4GA1UEAwwHaWRwLWEtMTAeFw0yNjAxMDEwMDAwMDBaFw0zNjAxMDEw
-----END CERTIFICATE-----`;

export const CERT_B = `-----BEGIN CERTIFICATE-----
MIIBszCCAVmgAwIBAgIUQmFzZTY0Q2VydGlmaWNhdGVCAAAAAAAwCgYIKoZIzj0E
AwIwEjEQMA4GA1UEAwwHaWRwLWItMTAeFw0yNjAxMDEwMDAwMDBaFw0zNjAxMDEw
-----END CERTIFICATE-----`;
