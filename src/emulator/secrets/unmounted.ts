/**
 * A request to a path under no mount. The service's router finds no engine
 * for it and answers 404 `no handler for route "<path>". route entry not
 * found.`, unlike the empty 404 `{"errors":[]}` of a missing object or an
 * empty list inside a mount (docs/apis.md): that is how a client tells "no
 * engine there" from "nothing there". The token's policies are checked first,
 * as the service checks them before it routes.
 */
import type { FastifyRequest } from 'fastify';
import { HttpFailure, httpFailure } from '../jsonapi.ts';
import { type Capability, capabilitiesOn, tokenOf } from './access.ts';
import { permissionDenied } from './envelope.ts';
import { isListing } from './routes.ts';
import type { SecretsSlice } from './slice.ts';

/**
 * What the service mounts itself; the emulator serves only part of them, and the rest is "nothing
 * there". Not RESERVED_MOUNTS (src/api/secrets-mounts.ts): `audit/` and an auth method never enabled
 * (`auth/ldap/`) are reserved, so never an engine's mount, yet the service routes nothing there.
 */
const SERVICE_MOUNTS = ['sys', 'auth/token', 'cubbyhole', 'identity'];

/** The answer to a request no route took: undefined inside a mount (the plain 404 stands). */
export function unmountedRoute(request: FastifyRequest, slice: SecretsSlice, prefix: string): HttpFailure | undefined {
  try {
    const listing = request.method === 'GET' && isListing(request);
    const raw = (request.url.split('?')[0] ?? '').slice(prefix.length + 1);
    const path = decodePath(raw);
    const mounts = [...SERVICE_MOUNTS, ...slice.mounts.keys()];
    if (mounts.some((mount) => path === mount || path.startsWith(`${mount}/`))) return undefined;
    const token = tokenOf(request, slice.tokens);
    // the service names a listed path with its trailing `/`
    const routed = listing && !path.endsWith('/') ? `${path}/` : path;
    const granted = capabilitiesOn(token, routed, slice.policyTable);
    if (!neededFor(request.method, listing).some((capability) => granted.has(capability))) throw permissionDenied();
    return httpFailure(404, 'not found', `no handler for route ${JSON.stringify(routed)}. route entry not found.`);
  } catch (error) {
    if (error instanceof HttpFailure) return error;
    throw error;
  }
}

/** Any one of these lets the request past the policy check (a write needs create or update). */
function neededFor(method: string, listing: boolean): Capability[] {
  if (listing) return ['list'];
  if (method === 'POST' || method === 'PUT') return ['create', 'update'];
  if (method === 'DELETE') return ['delete'];
  return ['read'];
}

function decodePath(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}
