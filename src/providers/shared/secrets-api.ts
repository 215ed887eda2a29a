/**
 * The secrets API as providers use it (docs/apis.md, "The secrets API"):
 * paths under `/v1/<mount>/`, objects in the `data` of an envelope, names
 * listed with `GET ?list=true` (the `LIST` method's equivalent, which every
 * HTTP stack can send), and 404 meaning "none": for one object and for an
 * empty list alike.
 */
import { ConvergeError } from '../../errors.ts';
import type { SpecProblem } from '../../manifest/catalog.ts';
import { isPlainObject } from '../../reconcile/equal.ts';
import type { ProviderContext } from '../../reconcile/provider.ts';
import type { DesiredObject, Fields } from '../../reconcile/types.ts';

export const SECRETS_PREFIX = '/v1';

/** Paths the secrets service keeps for itself: no engine can be mounted at or under them. */
const RESERVED_MOUNTS = ['sys', 'auth', 'identity', 'cubbyhole'];

/**
 * A secrets engine's mount at a reserved path (`sys`, `auth/token`) would send the role's writes to
 * the service's own endpoints: refused before anything is sent.
 */
export function reservedMountProblems(object: DesiredObject): SpecProblem[] {
  const mount = object.metadata.mount;
  if (typeof mount !== 'string') return [];
  const first = mount.split('/')[0] ?? '';
  if (!RESERVED_MOUNTS.includes(first)) return [];
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

/** The names under a list path; none when the service answers 404. */
export async function listNames(ctx: ProviderContext, path: string): Promise<string[]> {
  const response = await ctx.client.request<{ data?: { keys?: unknown } }>({
    method: 'GET',
    path,
    query: { list: 'true' },
    accept: [404],
    signal: ctx.signal,
  });
  if (response.status === 404) return [];
  const keys = response.body?.data?.keys;
  if (!Array.isArray(keys) || !keys.every((k) => typeof k === 'string')) {
    throw new ConvergeError('API_ERROR', `GET ${path}?list=true: the answer has no list of names in data.keys`);
  }
  return keys;
}

/** The `data` of one object; undefined when it does not exist. */
export async function readData(ctx: ProviderContext, path: string): Promise<Fields | undefined> {
  const response = await ctx.client.request<{ data?: unknown }>({
    method: 'GET',
    path,
    accept: [404],
    signal: ctx.signal,
  });
  if (response.status === 404) return undefined;
  const data = response.body?.data;
  if (!isPlainObject(data)) throw new ConvergeError('API_ERROR', `GET ${path}: the answer has no data object`);
  return data as Fields;
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
