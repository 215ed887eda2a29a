/**
 * Who may do what in an organization's registry (docs/emulator.md,
 * "Registry"): publishing and creating modules and versions need the
 * "Manage modules" permission (a team that has it, the owners team, or an
 * owner); updating, deleting and every test endpoint need the owners team.
 * Missing rights are a 404, as the platform hides what it will not show; a
 * 403 is only for public curation being off or an operation public modules
 * do not have.
 */
import type { FastifyRequest } from 'fastify';
import { authenticate, bearerToken } from '../auth.ts';
import type { EmulatorContext } from '../context.ts';
import { forbidden, httpFailure, notFound } from '../jsonapi.ts';
import type { User } from '../state.ts';

export type Right = 'read' | 'manage-modules' | 'owners';

function inTeam(
  ctx: EmulatorContext,
  user: User,
  organization: string,
  test: (team: { name: string; manageModules?: boolean }) => boolean,
) {
  return ctx.state.teams.some((t) => t.organization === organization && t.members.includes(user.id) && test(t));
}

export function hasRight(ctx: EmulatorContext, user: User, organization: string, right: Right): boolean {
  const role = user.organizations[organization];
  if (role === undefined) return false;
  const owners = role === 'owner' || inTeam(ctx, user, organization, (t) => t.name === 'owners');
  if (right === 'owners') return owners;
  if (right === 'manage-modules') return owners || inTeam(ctx, user, organization, (t) => t.manageModules === true);
  return true;
}

/** The caller, when the organization exists and they have the right; else 401 or 404. */
export function authorize(ctx: EmulatorContext, request: FastifyRequest, organization: string, right: Right): User {
  const user = authenticate(ctx.state, request);
  if (!ctx.state.organizations.has(organization) || !hasRight(ctx, user, organization, right)) throw notFound();
  return user;
}

/** The registry protocol's caller: any active user's Bearer token, else 401 (the protocol's own error form). */
export function protocolCaller(ctx: EmulatorContext, request: FastifyRequest): User {
  const token = bearerToken(request);
  const user = token === undefined ? undefined : ctx.state.userByToken(token);
  if (!user || user.isSuspended) throw httpFailure(401, 'Unauthorized', 'Unauthorized');
  return user;
}

export interface RegistryMode {
  publicCuration: boolean;
  selfManaged: boolean;
}

export function registryMode(ctx: EmulatorContext): RegistryMode {
  const seed = ctx.state.seed.registry ?? {};
  return { publicCuration: seed.publicCuration !== false, selfManaged: seed.selfManaged === true };
}

/** Public records exist only where public curation is on (the hosted service). */
export function requirePublicCuration(mode: RegistryMode): void {
  if (!mode.publicCuration || mode.selfManaged) throw forbidden('public module curation is disabled');
}
