/**
 * The secrets API as providers use it (docs/apis.md, "The secrets API"):
 * paths under `/v1/<mount>/`, objects in the `data` of an envelope, names
 * listed with `GET ?list=true` (the `LIST` method's equivalent, which every
 * HTTP stack can send), and 404 meaning "none": for one object and for an
 * empty list alike.
 */
import type { ApiName } from '../../api/profiles.ts';
import { isReservedMount, RESERVED_MOUNTS } from '../../api/secrets-mounts.ts';
import type { HttpResponse } from '../../api/types.ts';
import { ConvergeError } from '../../errors.ts';
import type { SpecProblem } from '../../manifest/catalog.ts';
import { isPlainObject } from '../../reconcile/equal.ts';
import type { ProviderContext } from '../../reconcile/provider.ts';
import type { Fields, Metadata } from '../../reconcile/types.ts';

export const SECRETS_PREFIX = '/v1';

/** How the service's router begins its 404 for a path under no mount. */
const NO_ROUTE = 'no handler for route ';

/**
 * A secrets engine's mount at a reserved path (`sys`, `auth/token`) would send the role's writes to
 * the service's own endpoints: refused before anything is sent, in a manifest (every secrets kind's
 * `check`) as in `export --scope` (src/export/manifest-check.ts). A kind of another API has no mount.
 */
export function reservedMountProblems(api: ApiName, metadata: Metadata): SpecProblem[] {
  const mount = metadata.mount;
  if (api !== 'secrets' || typeof mount !== 'string') return [];
  if (!isReservedMount(mount)) return [];
  return [
    {
      path: 'metadata.mount',
      message: `mount "${mount}" is reserved by the secrets service (${RESERVED_MOUNTS.map((m) => `${m}/`).join(', ')} are its own paths)`,
    },
  ];
}

/** `/v1/<mount>/<rest>`, each segment percent-encoded (a mount may hold `/`). */
export function secretsPath(mount: string, ...rest: string[]): string {
  const segments = [mount, ...rest].flatMap((part) => part.split('/')).map(encodeURIComponent);
  return `${SECRETS_PREFIX}/${segments.join('/')}`;
}

/** The names under a list path of a mount; none when the service answers the empty 404. */
export async function listNames(ctx: ProviderContext, mount: string, ...rest: string[]): Promise<string[]> {
  const path = secretsPath(mount, ...rest);
  const response = await getOrNone<{ data?: { keys?: unknown } }>(ctx, mount, path, true);
  if (response === undefined) return [];
  const keys = response.body?.data?.keys;
  if (!Array.isArray(keys) || !keys.every((k) => typeof k === 'string')) {
    throw new ConvergeError('API_ERROR', `GET ${path}?list=true: the answer has no list of names in data.keys`);
  }
  return keys;
}

/** The `data` of one object of a mount; undefined when it does not exist. */
export async function readData(ctx: ProviderContext, mount: string, ...rest: string[]): Promise<Fields | undefined> {
  const path = secretsPath(mount, ...rest);
  const response = await getOrNone<{ data?: unknown }>(ctx, mount, path, false);
  if (response === undefined) return undefined;
  const data = response.body?.data;
  if (!isPlainObject(data)) throw new ConvergeError('API_ERROR', `GET ${path}: the answer has no data object`);
  return data as Fields;
}

/**
 * A GET of a path of a mount (its list with `list`); undefined for a 404, which is "nothing there"
 * (no such object, an empty list), except when the service says it has no route for the path: no
 * engine is mounted there at all (docs/apis.md). Reading that as "none" would plan creates that can
 * only fail, so it is an error naming the mount. The server's words are matched, never repeated.
 */
async function getOrNone<T>(
  ctx: ProviderContext,
  mount: string,
  path: string,
  list: boolean,
): Promise<HttpResponse<T> | undefined> {
  const response = await ctx.client.request<T>({
    method: 'GET',
    path,
    ...(list && { query: { list: 'true' } }),
    accept: [404],
    signal: ctx.signal,
  });
  if (response.status !== 404) return response;
  const body = response.body;
  const errors = isPlainObject(body) && Array.isArray(body.errors) ? body.errors : [];
  if (!errors.some((e) => typeof e === 'string' && e.startsWith(NO_ROUTE))) return undefined;
  throw new ConvergeError(
    'PLAN_INVALID',
    `no secrets engine is mounted at "${mount}": GET ${path}${list ? '?list=true' : ''} answered 404 with no route for the path`,
    {
      hint: `mount the engine there first (ssh for the SSH kinds, ldap for the LDAP kinds: \`vault secrets enable -path=${mount} ssh\`), or correct metadata.mount`,
    },
  );
}

/** A POST that creates or rebuilds an object; answers the `data` when there is one (a generated key). */
export async function writeData(ctx: ProviderContext, path: string, body: Fields): Promise<Fields | undefined> {
  const response = await ctx.client.request<{ data?: unknown } | undefined>({
    method: 'POST',
    path,
    body,
    signal: ctx.signal,
  });
  const data = response.body?.data;
  return isPlainObject(data) ? (data as Fields) : undefined;
}

export async function deletePath(ctx: ProviderContext, path: string): Promise<void> {
  await ctx.client.request({ method: 'DELETE', path, signal: ctx.signal });
}
