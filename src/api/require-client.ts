import { ConvergeError } from '../errors.ts';
import { type ApiName, PROFILES } from './profiles.ts';
import type { ApiClients, HttpClient } from './types.ts';

/** The client of an API for a run; a kind whose API is not configured gets the profile's set-up hint. */
export function requireClient(clients: ApiClients, api: ApiName): HttpClient {
  const client = clients[api];
  if (client) return client;
  const { title, envPrefix } = PROFILES[api];
  throw new ConvergeError('CONFIG_INVALID', `no connection to ${title}`, {
    hint: `set CONVERGE_${envPrefix}_URL and CONVERGE_${envPrefix}_TOKEN, or \`${api}\` in the configuration file`,
  });
}
