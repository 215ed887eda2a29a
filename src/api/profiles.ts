/**
 * One record per API family converge speaks (docs/apis.md): the key of its
 * connection in the configuration file, the environment variables of its URL
 * and token, how requests authenticate, which media type bodies have, what
 * the server is assumed to allow until it says, which statuses are worth
 * retrying, and what an error status most likely means there. The client, the
 * configuration (file, schema and environment), the fingerprint store's
 * namespaces, the servers a plan or report names and the set-up hints all read
 * it from here, so a new family is a new record, not a switch in each of them
 * (docs/architecture.md, "API families").
 */

/** The families, in the order configuration, reports and plan files list them. */
export const API_NAMES = ['platform', 'secrets'] as const;

export type ApiName = (typeof API_NAMES)[number];

export type Outcome = 'failed' | 'unknown';

export interface ApiProfile {
  name: ApiName;
  /** As messages name it: `the platform API`. */
  title: string;
  /** The environment variables of the server's URL and the token (a contract: docs/configuration.md). */
  env: { url: string; token: string };
  /** The header that carries the token, unless a connection names another (`tokenHeader`). */
  tokenHeader: string;
  /** What precedes the token in that header. */
  tokenScheme: string;
  /** The media type of request and response bodies for a path. */
  contentType(path: string): string;
  /** Requests per second assumed until the server advertises a limit; 0: none. */
  assumedRateLimit: number;
  /** Statuses retried besides 429 and 5xx (a replica that has not caught up yet answers 412). */
  retryStatuses: readonly number[];
  /** What an error status most likely means on this API, for the error's hint. */
  hint(status: number, path: string, outcome: Outcome): string | undefined;
}

const JSONAPI = 'application/vnd.api+json';
const JSON_TYPE = 'application/json';

const REGISTRY_PATH = /^\/api\/(?:registry\/|v2\/organizations\/[^/]+\/registry-)/;

export const PROFILES: Readonly<Record<ApiName, ApiProfile>> = {
  platform: {
    name: 'platform',
    title: 'the platform API',
    env: { url: 'CONVERGE_PLATFORM_URL', token: 'CONVERGE_PLATFORM_TOKEN' },
    tokenHeader: 'authorization',
    tokenScheme: 'Bearer ',
    contentType: (path) => (path.startsWith('/api/v2') ? JSONAPI : JSON_TYPE),
    // the admin API's `api-rate-limit` defaults to 30 and cannot be set lower (docs/apis.md)
    assumedRateLimit: 30,
    retryStatuses: [],
    hint(status, path, outcome) {
      const registry = REGISTRY_PATH.test(path);
      switch (status) {
        case 401:
          return 'the server rejected the token: check that the configured token is set, current and for this server';
        case 403:
          return registry
            ? 'the registry refused: a public module needs public curation turned on for the installation, and private ones need the Manage modules permission or the owners team'
            : 'the token lacks the rights for this request (admin endpoints need a site-admin token)';
        case 404:
          return registry
            ? 'the module does not exist, or the token may not see it (the registry answers 404 for both; private modules need the Manage modules permission or the owners team)'
            : 'the object does not exist, or the token lacks the rights to see it (the platform answers 404 for both)';
        default:
          return commonHint(status, outcome);
      }
    },
  },
  secrets: {
    name: 'secrets',
    title: 'the secrets API',
    env: { url: 'CONVERGE_SECRETS_URL', token: 'CONVERGE_SECRETS_TOKEN' },
    tokenHeader: 'x-service-token',
    tokenScheme: '',
    contentType: () => JSON_TYPE,
    assumedRateLimit: 0,
    retryStatuses: [412],
    hint(status, _path, outcome) {
      switch (status) {
        case 401:
        case 403:
          return 'the token was refused or its policies do not grant this path and capability (signing needs both create and update)';
        case 404:
          return 'the object does not exist, the engine is not mounted at this path, or the token may not read it';
        default:
          return commonHint(status, outcome);
      }
    },
  },
};

function commonHint(status: number, outcome: Outcome): string | undefined {
  if (status === 429)
    return 'the server kept rate-limiting: lower the rate limit or the parallelism in the configuration';
  if (outcome === 'unknown') return 'the server may have applied the request before it failed';
  return status >= 500 ? 'the server failed; try again later' : undefined;
}

/** Whether a name (read from a saved plan, say) is an API family's. */
export function isApiName(name: string): name is ApiName {
  return (API_NAMES as readonly string[]).includes(name);
}

/** The environment variables that hold the API families' tokens: never readable by `${env:}` (src/manifest/load.ts). */
export const API_TOKEN_VARIABLES: readonly string[] = API_NAMES.map((api) => PROFILES[api].env.token);

/** How to connect a family that is not configured, for the hints of the errors that say so. */
export function setUpHint(api: ApiName, missing: 'connection' | 'url'): string {
  const { env } = PROFILES[api];
  return missing === 'url'
    ? `set ${env.url} or \`${api}.url\` in the configuration file`
    : `set ${env.url} and ${env.token}, or \`${api}\` in the configuration file`;
}
