/**
 * Which directory an LDAP mount works on: an in-memory one when its
 * config's `url` names one the emulator serves (the seed's `directories`),
 * a real server reached with ldapts otherwise. Each operation binds with the
 * configured `binddn`/`bindpass` first, so a stale password (re-sent after
 * the engine rotated it) fails as it would against a real directory.
 */
import { failed } from '../secrets/envelope.ts';
import { type Directory, DirectoryError, ldapDirectory, splitUrls } from './directory/index.ts';
import type { LdapConfig } from './state.ts';

const normalizeUrl = (url: string) => url.trim().replace(/\/+$/, '').toLowerCase();

/**
 * The longest one directory call may take, whatever the config's `request_timeout` (90 s by
 * default) and `connection_timeout` (30 s) say: a request to the emulator must be answered before
 * its client gives up (converge waits 60 s), and one call may take an operation, a reconnection
 * with its bind, and the operation again.
 */
const MAX_OPERATION_MS = 5_000;
const MAX_CONNECT_MS = 3_000;

/** A config's duration (seconds: configFromBody keeps every duration as a number) in milliseconds, at most `max`. */
function boundedMs(seconds: unknown, fallbackSeconds: number, max: number): number {
  const ms = (typeof seconds === 'number' && seconds > 0 ? seconds : fallbackSeconds) * 1000;
  return Math.min(ms, max);
}

export class Directories {
  readonly #memory: Map<string, Directory>;
  readonly #real = new Map<string, Promise<Directory>>();

  constructor(memory: ReadonlyMap<string, Directory>) {
    this.#memory = new Map([...memory].map(([url, directory]) => [normalizeUrl(url), directory]));
  }

  /** The directory of a config, bound as its `binddn`; the engine's error when it cannot be reached or refuses. */
  async open(config: LdapConfig): Promise<Directory> {
    const urls = splitUrls([String(config.url)]);
    const binddn = String(config.binddn);
    const bindpass = String(config.bindpass);
    const memory = urls.map((url) => this.#memory.get(normalizeUrl(url))).find((d) => d !== undefined);
    if (memory) {
      if (!(await memory.bind(binddn, bindpass))) throw invalidCredentials();
      return memory;
    }
    const key = JSON.stringify([urls, binddn, bindpass, config.starttls, config.insecure_tls, config.certificate]);
    let real = this.#real.get(key);
    if (!real) {
      real = ldapDirectory({
        urls,
        bindDn: binddn,
        bindPassword: bindpass,
        timeoutMs: boundedMs(config.request_timeout, 90, MAX_OPERATION_MS),
        connectTimeoutMs: boundedMs(config.connection_timeout, 30, MAX_CONNECT_MS),
        startTls: config.starttls === true,
        insecureTls: config.insecure_tls === true,
        ...(config.certificate ? { ca: String(config.certificate) } : {}),
      });
      this.#real.set(key, real);
      real.catch(() => this.#real.delete(key));
    }
    try {
      return await real;
    } catch (error) {
      throw failed(directoryMessage(error));
    }
  }

  /** Connections to a real server made for an older config are closed (a new bindpass, a new URL). */
  async forget(): Promise<void> {
    const open = [...this.#real.values()];
    this.#real.clear();
    await Promise.allSettled(open.map(async (d) => (await d).close()));
  }
}

function invalidCredentials() {
  return failed('failed to bind to the directory: LDAP Result Code 49 "Invalid Credentials"');
}

/** An LDAP error as the engine reports it. */
export function directoryMessage(error: unknown): string {
  if (error instanceof DirectoryError) return error.message;
  return error instanceof Error ? error.message : String(error);
}
