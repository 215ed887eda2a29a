/**
 * A private version's archive, read back through the registry protocol
 * (docs/apis.md), for `converge export`: the discovery document says where
 * `modules.v1` lives; the version's download endpoint answers 204 with
 * `X-Service-Get`, the archive's location (resolved against the endpoint's
 * URL when it starts with `/`, `./` or `../`); the archive is then streamed
 * into the caller's sink, at most what one upload takes (MAX_MODULE_BYTES),
 * so that it can be published again as it is.
 */
import type { BodySink } from '../../api/types.ts';
import { ConvergeError } from '../../errors.ts';
import { type Address, addressKey } from '../../reconcile/address.ts';
import type { ProviderContext } from '../../reconcile/provider.ts';
import { MAX_MODULE_BYTES } from '../../registry/module-size.ts';
import { moduleOf, moduleParts, versionOf } from './names.ts';

const DISCOVERY = '/.well-known/terraform.json';
const SERVICE = 'modules.v1';

/** Streams the archive of a version into `sink`. */
export async function downloadVersion(ctx: ProviderContext, address: Address, sink: BodySink): Promise<void> {
  const m = moduleParts(moduleOf(address));
  const base = await modulesBase(ctx);
  const endpoint = new URL(
    [m.namespace, m.name, m.provider, versionOf(address), 'download'].map(encodeURIComponent).join('/'),
    base,
  ).href;
  const located = await ctx.client.request({ method: 'GET', path: endpoint, signal: ctx.signal });
  const location = located.headers['x-service-get'] ?? located.headers['x-terraform-get'];
  const url = archiveUrl(location, endpoint, address);
  await ctx.client.request({ method: 'GET', path: url, sink: bounded(sink, address), signal: ctx.signal });
}

/** The registry protocol's base URL for modules, from the discovery document (read once per run). */
function modulesBase(ctx: ProviderContext): Promise<string> {
  return ctx.shared(`GET ${DISCOVERY}`, async () => {
    const discovery = new URL(`${ctx.client.baseUrl}${DISCOVERY}`).href;
    const answer = await ctx.client.request<Record<string, unknown>>({
      method: 'GET',
      path: DISCOVERY,
      signal: ctx.signal,
    });
    const declared = answer.body?.[SERVICE];
    if (typeof declared !== 'string') {
      throw new ConvergeError(
        'API_ERROR',
        `GET ${DISCOVERY}: the server declares no ${SERVICE} (the registry protocol)`,
      );
    }
    return new URL(declared.endsWith('/') ? declared : `${declared}/`, discovery).href;
  });
}

/**
 * The archive's URL. A location in the source-fetching syntax (`git::…`, a subdirectory after `//`)
 * is not an archive converge can read back; said by its scheme only, as the location may carry its
 * own authorization.
 */
function archiveUrl(location: string | undefined, endpoint: string, address: Address): string {
  const what = addressKey(address);
  if (location === undefined || location === '') {
    throw new ConvergeError('API_ERROR', `${what}: the registry's download answer has no X-Service-Get location`);
  }
  if (/^\.{0,2}\//.test(location)) return new URL(location, endpoint).href;
  const scheme = /^([a-z0-9+.-]+)(::|:)/i.exec(location);
  if (scheme?.[2] === ':' && /^https?$/i.test(scheme[1] ?? '')) return location;
  throw new ConvergeError(
    'API_ERROR',
    `${what}: the registry gives its source as ${scheme?.[1] ?? 'a location'} that converge cannot download as an archive`,
    { hint: 'leave this module out of the export (--kind), and declare its versions by hand' },
  );
}

/** `sink`, refusing an archive larger than one upload takes (it could not be published again). */
function bounded(sink: BodySink, address: Address): BodySink {
  let size = 0;
  return {
    begin() {
      size = 0;
      return sink.begin();
    },
    write(chunk) {
      size += chunk.length;
      if (size > MAX_MODULE_BYTES) {
        return Promise.reject(
          new ConvergeError(
            'API_ERROR',
            `${addressKey(address)}: its archive is larger than a module version may be (${MAX_MODULE_BYTES / 1024 / 1024} MiB, what the registry takes in one upload)`,
          ),
        );
      }
      return sink.write(chunk);
    },
  };
}
