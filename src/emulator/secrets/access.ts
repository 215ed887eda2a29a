/**
 * Who may do what on the secrets API: every request carries an
 * `X-Service-Token`; a token holds policies, and a policy grants
 * capabilities on path globs (docs/emulator.md, "Secrets API"). `*` at the
 * end of a glob matches any rest, `+` matches one path segment; the
 * capabilities of every matching rule add up, and `deny` anywhere wins.
 * The `root` policy may do everything.
 */
import type { FastifyRequest } from 'fastify';
import { httpFailure } from '../jsonapi.ts';
import { permissionDenied } from './envelope.ts';

export const CAPABILITIES = ['create', 'read', 'update', 'delete', 'list', 'sudo', 'deny'] as const;
export type Capability = (typeof CAPABILITIES)[number];

export interface PolicyRule {
  path: string;
  capabilities: Capability[];
}

export interface SecretsToken {
  token: string;
  /** `root`, or `token-<display_name>` for a token minted by `auth/token/create`. */
  displayName: string;
  policies: string[];
}

export type Policies = Readonly<Record<string, readonly PolicyRule[]>>;

/** The token of a request, or a 403 (the service does not tell a missing token from a bad one). */
export function tokenOf(request: FastifyRequest, tokens: ReadonlyMap<string, SecretsToken>): SecretsToken {
  const header = request.headers['x-service-token'];
  const token = typeof header === 'string' ? tokens.get(header) : undefined;
  if (!token) throw permissionDenied();
  return token;
}

/** The capabilities a token has on a path (relative to `/v1`, no leading slash). */
export function capabilitiesOn(token: SecretsToken, path: string, policies: Policies): Set<Capability> {
  if (token.policies.includes('root')) return new Set(CAPABILITIES.filter((c) => c !== 'deny'));
  const granted = new Set<Capability>();
  for (const name of token.policies) {
    for (const rule of policies[name] ?? []) {
      if (globMatches(rule.path, path)) for (const capability of rule.capabilities) granted.add(capability);
    }
  }
  return granted.has('deny') ? new Set() : granted;
}

export function require(token: SecretsToken, path: string, policies: Policies, ...needed: Capability[]): void {
  const granted = capabilitiesOn(token, path, policies);
  if (!needed.every((capability) => granted.has(capability))) throw permissionDenied();
}

export function globMatches(glob: string, path: string): boolean {
  const prefix = glob.endsWith('*');
  const pattern = (prefix ? glob.slice(0, -1) : glob)
    .split('+')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('[^/]+');
  return new RegExp(`^${pattern}${prefix ? '.*' : ''}$`).test(path);
}

/** A child token's policies must be among its parent's, unless the parent is root. */
export function childPolicies(parent: SecretsToken, asked: readonly string[] | undefined): string[] {
  if (asked === undefined || asked.length === 0) return [...parent.policies];
  if (parent.policies.includes('root')) return [...new Set(asked)];
  const outside = asked.filter((p) => !parent.policies.includes(p));
  if (outside.length > 0) throw httpFailure(400, 'bad request', 'child policies must be subset of parent');
  return [...new Set(asked)];
}

/** `token-<name>`, with characters outside letters, digits and dashes turned to dashes. */
export function childDisplayName(asked: string): string {
  if (asked === '') return 'token';
  return `token-${asked}`.replace(/[^a-zA-Z0-9-]/g, '-').replace(/-+$/, '');
}
