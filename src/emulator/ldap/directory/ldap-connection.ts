/**
 * Connecting to a real LDAP server with ldapts the way the real secrets
 * engine does: its `url` setting may list several servers ("ldap://a,
 * ldap://b"), tried in order, moving on only when a server cannot be
 * reached (refused, timed out, TLS failure). An answer from a server, such
 * as "Invalid Credentials", is final: another replica would say the same.
 */
import { Client, ResultCodeError } from 'ldapts';
import { DirectoryError, NETWORK_ERROR } from './errors.ts';

export interface LdapConnectionOptions {
  /** Server URLs in order of preference; each may itself be a comma-separated list. */
  urls: string[];
  /** The longest one operation (a bind, a search, a write) may take. */
  timeoutMs: number;
  /** The longest opening a connection may take; `timeoutMs` when not given. */
  connectTimeoutMs?: number;
  /** Upgrade ldap:// connections with StartTLS. */
  startTls?: boolean;
  /** Accept any server certificate (the engine's insecure_tls). */
  insecureTls?: boolean;
  /** PEM CA certificate(s) to trust for ldaps:// and StartTLS. */
  ca?: string;
}

/** The URLs to try, in order, with comma-separated entries split out. */
export function splitUrls(urls: string[]): string[] {
  const all = urls.flatMap((entry) => entry.split(',')).map((url) => url.trim());
  return all.filter((url) => url !== '');
}

/**
 * An ldapts error as a DirectoryError. A server answer keeps its code and
 * the server's diagnostic alone (ldapts appends " Code: 0x44", which the
 * real engine's messages do not have); anything else is a network error,
 * prefixed with what was being done since there is no server text.
 */
export function toDirectoryError(error: unknown, context = ''): DirectoryError {
  if (error instanceof DirectoryError) return error;
  if (error instanceof ResultCodeError) {
    const diagnostic = error.message.replace(/\s*Code: 0x[0-9a-f]+$/i, '').trim();
    return new DirectoryError(error.code, diagnostic, { cause: error });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new DirectoryError(NETWORK_ERROR, context ? `${context}: ${message}` : message, { cause: error });
}

/**
 * A client bound as `dn` to the first reachable server. Throws the bind's
 * DirectoryError when a server answers it, or a network DirectoryError
 * naming every server when none can be reached.
 */
export async function connectBound(
  options: LdapConnectionOptions,
  dn: string,
  password: string,
): Promise<{ client: Client; url: string }> {
  const urls = splitUrls(options.urls);
  if (urls.length === 0) throw new DirectoryError(NETWORK_ERROR, 'no LDAP server URL configured');
  const tlsOptions = {
    rejectUnauthorized: !options.insecureTls,
    ...(options.ca ? { ca: [options.ca] } : {}),
  };
  const failures: string[] = [];
  for (const url of urls) {
    const secure = url.toLowerCase().startsWith('ldaps://');
    // ldapts makes any connection given tlsOptions a TLS one, so plain ldap:// gets them only for StartTLS.
    const client = new Client({
      url,
      timeout: options.timeoutMs,
      connectTimeout: options.connectTimeoutMs ?? options.timeoutMs,
      ...(secure ? { tlsOptions } : {}),
    });
    try {
      if (options.startTls && !secure) await client.startTLS(tlsOptions);
      await client.bind(dn, password);
      return { client, url };
    } catch (error) {
      await client.unbind().catch(() => undefined);
      if (error instanceof ResultCodeError) throw toDirectoryError(error);
      failures.push(`${url}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  throw new DirectoryError(NETWORK_ERROR, `no LDAP server could be reached (${failures.join('; ')})`);
}
